#pragma once
// The functions of the expression grammar that are not plain <cmath> calls,
// as GEOBEM_HD functions: the CPU interpreter (expression_program.cpp) and
// the generated CUDA source (expression_cuda_source.cpp, compiled by NVRTC
// with this header embedded) call the same definitions, so both paths compute
// the same operations in the same order.
#include <cmath>

#include "gpu/core/host_device.hpp"
#include "gpu/transform/bessel.hpp"

namespace geobem::expression {

/// base^n for an integer literal exponent by repeated squaring (exact
/// operations for n = 2, 3; 1/base^|n| for n < 0), instead of pow.
GEOBEM_HD inline double integer_power(double base, int n) {
  unsigned m = n < 0 ? static_cast<unsigned>(-n) : static_cast<unsigned>(n);
  double result = 1.0, factor = base;
  bool first = true;
  while (m) {
    if (m & 1u) {
      result = first ? factor : result * factor;
      first = false;
    }
    m >>= 1u;
    if (m) factor *= factor;
  }
  return n < 0 ? 1.0 / result : result;
}

/// min and max that pass a NaN on (fmin/fmax drop it, which would hide a
/// non-finite integrand from the status).
GEOBEM_HD inline double nan_min(double a, double b) { return a != a ? a : (b < a || b != b ? b : a); }
GEOBEM_HD inline double nan_max(double a, double b) { return a != a ? a : (b > a || b != b ? b : a); }

/// J_n(x); NaN unless n is an integer of magnitude <= kMaxBesselOrder.
GEOBEM_HD inline double bessel_jn_of_real(double n, double x) {
  if (!(fabs(n) <= transform::kMaxBesselOrder) || n != floor(n)) return nan("");
  return transform::bessel_jn(static_cast<int>(n), x);
}

GEOBEM_HD inline double bessel_y0(double x) {
  double y0, y1;
  transform::bessel_y01(x, y0, y1);
  return y0;
}

GEOBEM_HD inline double bessel_y1(double x) {
  double y0, y1;
  transform::bessel_y01(x, y0, y1);
  return y1;
}

}  // namespace geobem::expression

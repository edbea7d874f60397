#pragma once
// Neumaier's compensated summation (Neumaier, ZAMM 54 (1974) 39–51), the same
// on the CPU and in the CUDA kernels (NVRTC-compiled ones included).
#include <cmath>

#include "gpu/core/host_device.hpp"

namespace geobem::quadrature {

/// A sum and the rounding its additions lost. The cubature adds up to
/// millions of region estimates: plainly summed they erred by more than the
/// regions' own estimates on smooth integrands at 1e-10 (CPU phase one, 6D
/// oscillatory: 5e-14 relative), and over 65,536 final regions of an
/// oscillatory integrand by 1e-15, ten times what the degree-9 check saw.
struct CompensatedSum {
  double sum = 0.0, compensation = 0.0;

  /// Adds x (Neumaier's step).
  GEOBEM_HD void add(double x) {
    const double t = sum + x;
    compensation += fabs(sum) >= fabs(x) ? (sum - t) + x : (x - t) + sum;
    sum = t;
  }
  /// Adds another compensated sum, its lost rounding included.
  GEOBEM_HD void add(const CompensatedSum& other) {
    add(other.sum);
    compensation += other.compensation;
  }
  GEOBEM_HD double value() const { return sum + compensation; }
};

}  // namespace geobem::quadrature

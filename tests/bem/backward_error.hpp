#pragma once
// The normwise backward error of a computed solution of a dense system
// (Rigal & Gaches 1967; Higham, Accuracy and Stability of Numerical
// Algorithms, 2nd ed., §7.1, with E = A and f = b in the ∞-norm): what the
// batched LU's test and bench_bem lu report.
#include <algorithm>

#include "gpu/bem/complex.hpp"

namespace geobem::test {

/// ‖A x − b‖∞ / (‖A‖∞ ‖x‖∞ + ‖b‖∞) of the n × n column-major `a` and the
/// n-vectors `x` and `b`.
inline double backward_error(const bem::Complex* a, const bem::Complex* x, const bem::Complex* b, long n) {
  double residual = 0, a_norm = 0, x_norm = 0, b_norm = 0;
  for (long i = 0; i < n; ++i) {
    bem::Complex r = b[i];
    double row = 0;
    for (long j = 0; j < n; ++j) {
      r -= a[i + j * n] * x[j];
      row += abs(a[i + j * n]);
    }
    residual = std::max(residual, abs(r));
    a_norm = std::max(a_norm, row);
    x_norm = std::max(x_norm, abs(x[i]));
    b_norm = std::max(b_norm, abs(b[i]));
  }
  return residual / (a_norm * x_norm + b_norm);
}

}  // namespace geobem::test

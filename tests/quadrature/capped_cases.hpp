#pragma once
// Capped cubature runs that end on each of the second estimates
// (cubature.hpp), shared by the CPU tests (test_cubature.cpp) and the
// GPU-against-CPU tests (test_quadrature_gpu.cpp): Genz integrands with the
// battery's options (default L_max) at a given tolerance and evaluation cap.
#include <cstdint>

#include "gpu/quadrature/cubature.hpp"

namespace geobem::quadrature::test_cases {

struct CappedCase {
  CubatureFamily family;
  int dim;
  double a, u, rel_tol;
  std::uint64_t cap;

  CubatureIntegrand integrand() const { return make_cubature_integrand(family, dim, a, u); }
  CubatureOptions options() const {
    CubatureOptions o;
    o.dim = dim;
    o.rel_tol = rel_tol;
    o.max_evaluations = cap;
    return o;
  }
  double exact() const { return genz_exact_integral(integrand(), dim); }
};

/// Oscillatory 2D at 1e-10, cap 1e6: the summed CUHRE errors stay 35× above
/// the target, the two-level estimate meets it.
inline const CappedCase kConvergesOnTwoLevel{cubature_family<GenzOscillatory>, 2, 17.1, 0.362, 1e-10, 1'000'000};
/// Product peak 3D at 1e-12, cap 1e7 (a battery row): CUHRE and two-level
/// miss, the degree-9 check of the regions stopped by their caps meets it.
inline const CappedCase kConvergesOnDegreeNine{cubature_family<GenzProductPeak>, 3, 3.29569, 0.0402868, 1e-12, 10'000'000};
/// Continuous 5D, a = 20, at 1e-6, cap 1e7 (a battery row): Q9 − Q7 cancels
/// to |Σ d| = 3.5e-12 while Σ |d| = 3.5e-10 and the true error is 3.6e-10.
inline const CappedCase kDegreeNineCancels{cubature_family<GenzContinuous>, 5, 19.988255066391933, 0.58620415995574005,
                                           1e-6, 10'000'000};

/// Oscillatory 2D, a = 80.4, at 1e-10, cap 3e6 (a battery row, there at
/// cap 1e7): Σ |Q9 − Q7| is 10³ times |Σ (Q9 − Q7)|, and the integrand
/// cancels as much; credited tenfold the check missed the target, credited
/// as the integrand cancels it meets it (true error 4.1e-16, target 2.9e-15).
inline const CappedCase kConvergesOnCreditedCancellation{cubature_family<GenzOscillatory>, 2, 80.406240155432599,
                                                         0.47426158973939048, 1e-10, 3'000'000};

/// Oscillatory 2D, a = 100, at 1e-12, cap 3e6 (a battery row, there at cap
/// 1e7): ∫|f| is 3·10⁴ times |∫f|, so the rounding of the sums alone
/// (ε·∫|f| = 1.4e-16) exceeds the target (2.3e-17) at any cap.
inline const CappedCase kRoundingLimited{cubature_family<GenzOscillatory>, 2, 100.0, 0.18, 1e-12, 3'000'000};

}  // namespace geobem::quadrature::test_cases

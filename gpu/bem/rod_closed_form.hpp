#pragma once
// Closed forms of the 1D rod (the 1D wave equation, exact for the 3D rod when
// ν = 0): fixed at x = 0, traction p·H(t) on x = l, c = √(E/ρ). The reference
// of the rod tests and benchmarks, and the `closed_form` column of geobem-time.
#include <cmath>

#include "gpu/bem/bem_model.hpp"

namespace geobem::bem {

/// Free-end displacement u(l, t) = (p c/E)[t H(t) + 2 Σ_{n≥1} (−1)^n (t − 2nl/c) H(t − 2nl/c)] (m).
inline double rod_free_end_displacement(double t, double p, double young, double density, double length) {
  const double c = std::sqrt(young / density);
  double sum = t > 0 ? t : 0.0;
  for (int n = 1; 2.0 * n * length / c < t; ++n) sum += 2.0 * (n % 2 ? -1.0 : 1.0) * (t - 2.0 * n * length / c);
  return p * c / young * sum;
}

/// Fixed-end stress σ_xx(0, t) = 2p Σ_{n≥0} (−1)^n H(t − (2n+1)l/c) (Pa).
inline double rod_fixed_end_stress(double t, double p, double young, double density, double length) {
  const double c = std::sqrt(young / density);
  double sum = 0.0;
  for (int n = 0; (2.0 * n + 1.0) * length / c < t; ++n) sum += 2.0 * p * (n % 2 ? -1.0 : 1.0);
  return sum;
}

/// The rod of a BEM model: the traction magnitude p (Pa) of its one load case
/// and its length l (m), the extent of the nodes along that traction.
struct RodProblem {
  double pressure = 0.0, length = 0.0;
};

/// Throws InputError unless the model has exactly one load case.
RodProblem rod_problem_of(const BemModel& model);

}  // namespace geobem::bem

#pragma once
// The rod benchmark's free end in closed form (REFERENCES.md, "Rod
// benchmark"; the 1D wave equation, exact for the 3D rod when ν = 0): fixed
// at x = 0, traction p·H(t) on x = l, c = √(E/ρ).
#include <cmath>

namespace geobem::cq_stage {

/// u(l, t) = (p c/E)[t H(t) + 2 Σ_{n≥1} (−1)^n (t − 2nl/c) H(t − 2nl/c)] (m),
/// a triangle wave between 0 and 2pl/E of period 4l/c.
inline double rod_free_end_closed_form(double t, double pressure, double young_modulus, double density,
                                       double length) {
  const double c = std::sqrt(young_modulus / density);
  double sum = t > 0.0 ? t : 0.0;
  for (int n = 1; 2.0 * n * length / c < t; ++n) sum += 2.0 * (n % 2 ? -1.0 : 1.0) * (t - 2.0 * n * length / c);
  return pressure * c / young_modulus * sum;
}

}  // namespace geobem::cq_stage

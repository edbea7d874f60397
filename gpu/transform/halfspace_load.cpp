#include "gpu/transform/halfspace_load.hpp"

#include <cmath>

namespace geobem::transform {

double halfspace_disk_scale(double pressure, double disk_radius, double young_modulus, double poisson_ratio) {
  return 2.0 * (1.0 - poisson_ratio * poisson_ratio) * pressure * disk_radius / young_modulus;
}

double halfspace_disk_closed_form(double disk_radius, double radius) {
  const double pi = 3.14159265358979323846;
  if (radius == 0.0) return 1.0;
  if (radius < disk_radius) return 2.0 / pi * std::comp_ellint_2(radius / disk_radius);
  if (radius == disk_radius) return 2.0 / pi;  // E(1) = 1 and (1 - k^2) K(k) -> 0
  const double k = disk_radius / radius;
  return 2.0 * radius / (pi * disk_radius) * (std::comp_ellint_2(k) - (1.0 - k * k) * std::comp_ellint_1(k));
}

}  // namespace geobem::transform

#include "gpu/core/math_constants.hpp"
#include "gpu/transform/halfspace_load.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace geobem::transform {

double halfspace_disk_scale(double pressure, double disk_radius, double young_modulus, double poisson_ratio) {
  return 2.0 * (1.0 - poisson_ratio * poisson_ratio) * pressure * disk_radius / young_modulus;
}

double halfspace_disk_closed_form(double disk_radius, double radius) {
  if (radius == 0.0) return 1.0;
  if (radius < disk_radius) return 2.0 / kPi * std::comp_ellint_2(radius / disk_radius);
  if (radius == disk_radius) return 2.0 / kPi;  // E(1) = 1 and (1 - k^2) K(k) -> 0
  const double k = disk_radius / radius;
  return 2.0 * radius / (kPi * disk_radius) * (std::comp_ellint_2(k) - (1.0 - k * k) * std::comp_ellint_1(k));
}

double station_radius(double easting_offset, double northing_offset, double disk_radius) {
  const double radius = std::hypot(easting_offset, northing_offset);
  return radius < kCentreRadiusFraction * disk_radius ? 0.0 : radius;
}

namespace {
bool same_radius(double a, double b) {
  return std::fabs(a - b) <= kRadiusMatchTolerance * std::max({std::fabs(a), std::fabs(b), 1.0});
}
}  // namespace

std::vector<double> distinct_radii(std::vector<double> radii) {
  std::sort(radii.begin(), radii.end());
  std::vector<double> distinct;
  for (const double r : radii)
    if (distinct.empty() || !same_radius(r, distinct.back())) distinct.push_back(r);
  return distinct;
}

RadiusLookup::RadiusLookup(const std::vector<double>& radii) : order_(radii.size()), radii_(radii) {
  std::iota(order_.begin(), order_.end(), std::size_t{0});
  std::sort(order_.begin(), order_.end(), [&](std::size_t a, std::size_t b) { return radii_[a] < radii_[b]; });
}

std::optional<std::size_t> RadiusLookup::find(double radius) const {
  // The first candidate at or above the lower end of the tolerance band.
  const double low = radius - kRadiusMatchTolerance * std::max(std::fabs(radius), 1.0) * 2;
  auto at = std::lower_bound(order_.begin(), order_.end(), low,
                             [&](std::size_t row, double value) { return radii_[row] < value; });
  for (; at != order_.end() && radii_[*at] <= radius + 2 * kRadiusMatchTolerance * std::max(std::fabs(radius), 1.0);
       ++at)
    if (same_radius(radii_[*at], radius)) return *at;
  return std::nullopt;
}

}  // namespace geobem::transform

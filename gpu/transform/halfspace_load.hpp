#pragma once
// Vertical surface displacement of an elastic half-space under a uniform
// pressure on a disk (Timoshenko & Goodier, Theory of Elasticity, 3rd ed.,
// sec. 138): u_z(r) = 2(1-nu^2) p a / E * int_0^inf J1(k a) J0(k r) / k dk,
// positive in the direction of the pressure (settlement). The integral is the
// HalfSpaceDisk family (families.hpp); these are its scale and closed form,
// and the station radii at which the integral is evaluated once each.
#include <cstddef>
#include <optional>
#include <vector>

namespace geobem::transform {

/// 2(1 - nu^2) p a / E in metres: u_z at the disk's centre. pressure p (Pa),
/// disk radius a (m), Young's modulus E (Pa), Poisson's ratio nu.
double halfspace_disk_scale(double pressure, double disk_radius, double young_modulus, double poisson_ratio);

/// The closed form of int_0^inf J1(k a) J0(k r)/k dk (Timoshenko & Goodier):
/// 1 at r = 0; (2/pi) E(r/a) for r < a; 2/pi at r = a;
/// (2 r / (pi a)) [E(a/r) - (1 - a^2/r^2) K(a/r)] for r > a, with the complete
/// elliptic integrals K, E of modulus k (std::comp_ellint_1/2). a > 0, r >= 0.
double halfspace_disk_closed_form(double disk_radius, double radius);

/// Radii below this fraction of the disk radius are the disk's centre, r = 0:
/// a station placed on the centre by a grid's arithmetic lies rounding away
/// from it (3e-16 m), a radius r/a = 1e-15 the integral's parameter range
/// refuses (r = 0 or 1e-3 <= r/a <= 1e3) and whose closed form is 1 to rounding.
inline constexpr double kCentreRadiusFraction = 1e-12;

/// Distance (m) of a station at (easting, northing) offsets from the disk's
/// centre, 0 below kCentreRadiusFraction * disk_radius.
double station_radius(double easting_offset, double northing_offset, double disk_radius);

/// Two radii closer than this, relative to the larger (or to 1 m below 1 m),
/// are one station radius: grid stations symmetric about the disk's centre
/// differ in their computed distances by rounding only.
inline constexpr double kRadiusMatchTolerance = 1e-12;

/// The distinct values of `radii` (metres), ascending; radii within
/// kRadiusMatchTolerance of the previous kept value are merged into it.
std::vector<double> distinct_radii(std::vector<double> radii);

/// Finds the row of a table of radii (e.g. the integrals computed at
/// distinct_radii) that matches a station radius within
/// kRadiusMatchTolerance: O(log n) per look-up.
class RadiusLookup {
 public:
  explicit RadiusLookup(const std::vector<double>& radii);
  /// Index into the constructor's vector of the radius matching `radius`;
  /// std::nullopt when none does.
  std::optional<std::size_t> find(double radius) const;

 private:
  std::vector<std::size_t> order_;  ///< indices sorted by radius
  std::vector<double> radii_;
};

}  // namespace geobem::transform

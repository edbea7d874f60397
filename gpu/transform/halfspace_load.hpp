#pragma once
// Vertical surface displacement of an elastic half-space under a uniform
// pressure on a disk (Timoshenko & Goodier, Theory of Elasticity, 3rd ed.,
// sec. 138): u_z(r) = 2(1-nu^2) p a / E * int_0^inf J1(k a) J0(k r) / k dk,
// positive in the direction of the pressure (settlement). The integral is the
// HalfSpaceDisk family (families.hpp); these are its scale and closed form.
namespace geobem::transform {

/// 2(1 - nu^2) p a / E in metres: u_z at the disk's centre. pressure p (Pa),
/// disk radius a (m), Young's modulus E (Pa), Poisson's ratio nu.
double halfspace_disk_scale(double pressure, double disk_radius, double young_modulus, double poisson_ratio);

/// The closed form of int_0^inf J1(k a) J0(k r)/k dk (Timoshenko & Goodier):
/// 1 at r = 0; (2/pi) E(r/a) for r < a; 2/pi at r = a;
/// (2 r / (pi a)) [E(a/r) - (1 - a^2/r^2) K(a/r)] for r > a, with the complete
/// elliptic integrals K, E of modulus k (std::comp_ellint_1/2). a > 0, r >= 0.
double halfspace_disk_closed_form(double disk_radius, double radius);

}  // namespace geobem::transform

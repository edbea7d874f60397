#pragma once
// Point kernel of the magnetic field of a uniformly magnetized prism, for the
// host and the device from one source. Outside the prism the field is
// B = (μ0/4π)·T·M (Blakely 1995, Potential Theory in Gravity and Magnetic
// Applications, eqs. 5.4-5.5 with Poisson's relation, §5.2): T is the
// Hessian of U(r) = ∫ 1/|r − r'| dV' over the prism, the same tensor the
// gravity kernels evaluate (prism_kernels.hpp, Nagy et al. 2002 with
// Fukushima's 2020 pair forms) with G·ρ replaced by μ0/4π·M. Axes easting,
// northing, upward; b_u positive upward, as Harmonica's prism_magnetic
// (choclo's magnetic kernels). μ0/4π is CODATA 2018's measured value,
// 1.00000000055 × 10⁻⁷ H/m (docs/references.md#magnetic-prisms), 5.5e-10
// above Harmonica's 10⁻⁷.
//
// Singular stations follow the tensor's limits (prism_kernels.hpp: the
// station approached along (+1, +1, +1)); the survey side and NaN where a
// component has no limit come from station_contact.hpp, with each
// magnetization component as a density (B jumps by μ0·(M·n)n across a face).
#include "gpu/core/host_device.hpp"
#include "gpu/gravity/prism.hpp"
#include "gpu/gravity/prism_kernels.hpp"

namespace geobem::magnetic {

/// μ0/4π, H/m (CODATA 2018).
inline constexpr double mu0_over_4pi = 1.00000000055e-7;
/// μ0/4π in nT per (A/m) per unit of the dimensionless tensor T.
inline constexpr double field_factor_nt = mu0_over_4pi * 1e9;

/// A right rectangular prism with a uniform magnetization: bounds in metres
/// (west < east, south < north, bottom < top), magnetization in A/m
/// (easting, northing, upward components).
struct MagnetizedPrism {
  double west, east, south, north, bottom, top;
  double magnetization_e, magnetization_n, magnetization_u;
};

/// b[0..2] += T·M for one prism at one station, T in easting, northing,
/// upward axes: multiply the sums by field_factor_nt for nT. Real is the
/// kernel arithmetic; station-relative bounds are formed in double.
template <typename Real>
GEOBEM_HD inline void add_magnetic_fields(const MagnetizedPrism& p, const gravity::Station& s, double b[3]) {
  using namespace gravity;
  const RelativePrism<Real> rel =
      relative_prism<Real>(p.west, p.east, p.south, p.north, p.bottom, p.top, s.easting, s.northing, s.upward);
  Real t[10] = {};
  prism_fields<Real>(rel, bit_g_ee | bit_g_en | bit_g_ez | bit_g_nn | bit_g_nz | bit_g_zz, t);
  // The gravity kernels return ∂²U/∂z∂e and ∂²U/∂z∂n with z downward.
  const double t_ee = t[4], t_en = t[5], t_eu = -static_cast<double>(t[6]);
  const double t_nn = t[7], t_nu = -static_cast<double>(t[8]), t_uu = t[9];
  const double me = p.magnetization_e, mn = p.magnetization_n, mu = p.magnetization_u;
  b[0] += t_ee * me + t_en * mn + t_eu * mu;
  b[1] += t_en * me + t_nn * mn + t_nu * mu;
  b[2] += t_eu * me + t_nu * mn + t_uu * mu;
}

}  // namespace geobem::magnetic

#pragma once
// Point kernel of the grid path: the corner function of the prism closed forms
// at one grid node, compiled for the host and the device from this source.
//
// Method: a prism's field is the signed vertex sum Σ(−1)^(i+j+k)·F(x_i, y_j,
// z_k) of a corner function F (Nagy, Papp & Benedek 2000, eqs. 8, 9 and
// 11-13; Nagy et al. 2002 for the tensor), vertex index 0 = east/north/top.
// Over a grid of cells the terms of a node shared by up to 8 cells collect
// into one evaluation of F weighted by the alternating sum of those cells'
// densities (grid_nodes.hpp), so a grid costs one F per node with a non-zero
// weight instead of 8 per cell. F uses principal-value arctangents and
// asinh(u/ρ) in place of ln(u + r) (corner_asinh: the difference vanishes in
// the node sum), so that the node sum equals the edge pair sums of
// prism_fields() up to rounding.
//
// Rounding: the node sum cancels more than the edge pairs of the general
// path (F is O(r²) for the potential, O(r) for g, O(1) for the tensor while a
// far cell's field falls like 1/r, 1/r², 1/r³). With ln(u + r) in place of
// asinh(u/ρ) its values carry an extra ln r and the node sum on the paper's
// case is 2e-11 of the largest potential; with asinh 5e-13 (RESULTS.md).
//
// Singular stations (on a node, on a node's axis-parallel line, in a node's
// coordinate plane): the conventions of prism_kernels.hpp — coordinates that
// vanish are −0 (station_relative), and each term is its limit as the station
// moves off along (+1, +1, +1), with the logarithmic divergence along a line
// through the station removed (corner_asinh). The node sum is then the
// model's limit wherever it exists, as on the general path; the survey side
// and NaN where no limit exists come from station_contact.hpp.
#include <cmath>

#include "gpu/core/host_device.hpp"
#include "gpu/gravity/prism_kernels.hpp"

namespace geobem::gravity {

/// A grid node as a source: position (m) and weight (kg/m³), the alternating
/// sum of the densities of the cells sharing the node (grid_nodes.hpp).
struct GridNode {
  double easting, northing, upward;
  double weight;
};

/// asinh(u/ρ) = ln(u + r) − ln ρ for the node-relative coordinate u along an
/// axis, r the node's distance and rho2 = ρ² the squared distance from the
/// axis-parallel line through the station. The corner function may use it in
/// place of ln(u + r) because ln ρ does not depend on u: its node sum
/// vanishes (the weights sum to zero along every grid line). It is odd in u
/// and written as log1p(|u|(r + ρ + |u|) / (ρ(r + ρ))) (from r − ρ = u²/(r +
/// ρ)), accurate to rounding relative to its value, which is O(|u|/ρ)
/// instead of O(ln r) — this keeps the node sum's rounding near that of the
/// edge pairs for stations near the grid's top.
/// On that line (ρ = 0) it diverges as the station moves off along t(±1, ±1,
/// ±1) (ρ = √2·t): its finite part ±ln(√2·|u|) is returned (the divergence
/// ∓ln t removed, as pair_log does), and at the node itself (u = 0, ρ = 0)
/// the limit asinh(±1/√2), the sign that of the zero u.
template <typename Real>
GEOBEM_HD inline Real corner_asinh(Real u, Real r, Real rho2) {
  using std::log;
  using std::log1p;
  using std::sqrt;
  const Real a = u < Real(0) ? -u : u;
  if (rho2 == Real(0))
    return unit_sign(u) * (a == Real(0) ? Real(0.65847894846240835432) : log(Real(1.4142135623730950488) * a));
  const Real rho = sqrt(rho2);
  const Real v = log1p(a * (r + rho + a) / (rho * (r + rho)));
  return u < Real(0) ? -v : v;
}

/// Principal value of arctan(u·v/(w·r)); where w·r = 0 (the station in the
/// node's plane normal to w) the one-sided limit atan_on_plane of
/// prism_kernels.hpp.
template <typename Real>
GEOBEM_HD inline Real corner_atan(Real u, Real v, Real w, Real r) {
  using std::atan;
  const Real den = w * r;
  return den == Real(0) ? atan_on_plane(u, v, w) : atan(u * v / den);
}

/// Corner function F at node-relative coordinates (x, y, z) = node − station
/// (m) for the fields of `mask` (FieldBit), without G: out[f] for Field
/// index f in the units and signs of prism_fields(); unselected entries are
/// left untouched. Σ over a prism's vertices with signs (−1)^(i+j+k) gives
/// prism_fields() of that prism.
template <typename Real>
GEOBEM_HD inline void corner_fields(Real x, Real y, Real z, unsigned mask, Real out[10]) {
  using std::sqrt;
  const Real xx = x * x, yy = y * y, zz = z * z;
  const Real r = sqrt(xx + yy + zz);
  const bool need_lx = mask & (bit_potential | bit_g_n | bit_g_z | bit_g_nz);
  const bool need_ly = mask & (bit_potential | bit_g_e | bit_g_z | bit_g_ez);
  const bool need_lz = mask & (bit_potential | bit_g_e | bit_g_n | bit_g_en);
  const bool need_ax = mask & (bit_potential | bit_g_e | bit_g_ee);
  const bool need_ay = mask & (bit_potential | bit_g_n | bit_g_nn);
  const bool need_az = mask & (bit_potential | bit_g_z | bit_g_zz);
  const Real lx = need_lx ? corner_asinh(x, r, yy + zz) : Real(0);
  const Real ly = need_ly ? corner_asinh(y, r, xx + zz) : Real(0);
  const Real lz = need_lz ? corner_asinh(z, r, xx + yy) : Real(0);
  const Real ax = need_ax ? corner_atan(y, z, x, r) : Real(0);
  const Real ay = need_ay ? corner_atan(z, x, y, r) : Real(0);
  const Real az = need_az ? corner_atan(x, y, z, r) : Real(0);
  if (mask & bit_potential)
    out[0] = x * y * lz + y * z * lx + z * x * ly - Real(0.5) * (xx * ax + yy * ay + zz * az);
  if (mask & bit_g_e) out[1] = x * ax - z * ly - y * lz;
  if (mask & bit_g_n) out[2] = y * ay - z * lx - x * lz;
  if (mask & bit_g_z) out[3] = y * lx + x * ly - z * az;  // upward component -> positive downward
  if (mask & bit_g_ee) out[4] = -ax;
  if (mask & bit_g_en) out[5] = lz;
  if (mask & bit_g_ez) out[6] = -ly;
  if (mask & bit_g_nn) out[7] = -ay;
  if (mask & bit_g_nz) out[8] = -lx;
  if (mask & bit_g_zz) out[9] = -az;
}

}  // namespace geobem::gravity

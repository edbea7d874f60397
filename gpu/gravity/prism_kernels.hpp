#pragma once
// Point kernels of prism gravity: one prism, one station, compiled for the
// host (OpenMP driver) and the device (CUDA driver) from this one source.
//
// Method: the closed forms of Nagy, Papp & Benedek (2000, J. Geodesy 74,
// eqs. 8, 9 and 11-13) and Nagy et al. (2002, J. Geodesy 76, the tensor terms),
// evaluated per vertex with coordinates relative to the station and summed
// with the signs (-1)^(i+j+k) (index 0 = east/north/top). The logarithm uses
// the cancellation-free form of Fukushima (2020, Geophys. J. Int. 222):
// ln(x + r) = ln((y² + z²) / (r − x)) for x < 0, and the arctangent is the
// principal value arctan(num/den). Kernel conventions follow choclo
// (src/choclo/prism/_kernels.py); signs of the public fields follow Harmonica
// (g_z and the z-derivatives taken positive downward).
//
// Singular stations (the station on a vertex, an edge or a face), decided here
// and tested in tests/gravity:
//  * potential, g_e, g_n, g_z: finite everywhere; the value returned is the
//    continuous limit (every logarithm or arctangent that is undefined there
//    is multiplied by a factor that vanishes, and such terms are taken as 0).
//  * diagonal tensor terms: on a face normal to their axis the one-sided limits
//    differ by 4πGρ; the value returned is their mean (arctan(num/0) := 0).
//    On an edge perpendicular to their axis (vertices included) the limit
//    depends on the direction of approach: NaN is returned.
//  * off-diagonal tensor terms g_en, g_ez, g_nz diverge logarithmically on an
//    edge parallel to the third axis (z, n, e respectively; vertices included):
//    NaN is returned. On the prolongation of such an edge, outside the prism,
//    they are finite: the ln(y² + z²) part that cancels between the two
//    vertices of the edge is dropped from both.
// forward_model() warns on stderr when a result contains NaN for this reason.
#include <cmath>
#include <limits>

#include "gpu/core/host_device.hpp"

namespace geobem::gravity {

/// Bits of a field mask, in the order of Field (gravity.hpp).
enum FieldBit : unsigned {
  bit_potential = 1u << 0,
  bit_g_e = 1u << 1,
  bit_g_n = 1u << 2,
  bit_g_z = 1u << 3,
  bit_g_ee = 1u << 4,
  bit_g_en = 1u << 5,
  bit_g_ez = 1u << 6,
  bit_g_nn = 1u << 7,
  bit_g_nz = 1u << 8,
  bit_g_zz = 1u << 9,
};

/// ln(x + r) for a vertex at (x, y, z) from the station, r = |(x, y, z)|,
/// without cancellation for x < 0 (Fukushima 2020, eq. 9). Where x + r = 0
/// (y = z = 0, x <= 0) the divergent ln(y² + z²) part is dropped: it cancels
/// between the two vertices that share y and z, or it is multiplied by a zero
/// factor, or the caller returns NaN (station on the edge itself).
template <typename Real>
GEOBEM_HD inline Real safe_log(Real x, Real y, Real z, Real r) {
  using std::log;
  if (x >= Real(0)) return r == Real(0) ? Real(0) : log(x + r);
  const Real rho2 = y * y + z * z;
  if (rho2 == Real(0)) return -log(r - x);
  return log(rho2 / (r - x));
}

/// Principal value arctan(num / den), taken as 0 when den = 0 (the mean of
/// the two one-sided limits ±π/2; the term is either multiplied by a zero
/// factor or cancels between vertices, see the file comment).
template <typename Real>
GEOBEM_HD inline Real safe_atan(Real num, Real den) {
  using std::atan;
  return den == Real(0) ? Real(0) : atan(num / den);
}

/// Station-relative bounds of one prism: west/east minus the station's
/// easting, south/north minus its northing, bottom/top minus its height (m).
template <typename Real>
struct RelativePrism {
  Real west, east, south, north, bottom, top;
};

/// Edges of the prism that contain the station (closed segments, so vertices
/// count for all three directions): bit 0 an edge parallel to easting, bit 1
/// to northing, bit 2 to upward.
template <typename Real>
GEOBEM_HD inline unsigned edges_through_station(const RelativePrism<Real>& p) {
  const bool on_x_face = p.west == Real(0) || p.east == Real(0);
  const bool on_y_face = p.south == Real(0) || p.north == Real(0);
  const bool on_z_face = p.bottom == Real(0) || p.top == Real(0);
  const bool in_x = p.west <= Real(0) && p.east >= Real(0);
  const bool in_y = p.south <= Real(0) && p.north >= Real(0);
  const bool in_z = p.bottom <= Real(0) && p.top >= Real(0);
  unsigned edges = 0;
  if (in_x && on_y_face && on_z_face) edges |= 1u;
  if (in_y && on_x_face && on_z_face) edges |= 2u;
  if (in_z && on_x_face && on_y_face) edges |= 4u;
  return edges;
}

/// The fields selected by `mask` (FieldBit) of a unit-density prism at the
/// station, without the factor G: out[f] for Field index f, in SI units per
/// (G·kg/m³): potential m², g in m, tensor dimensionless. Multiply by
/// G·density and by 1e5 (mGal) or 1e9 (Eötvös). Unselected entries are left
/// untouched. Signs: Harmonica (g_z, g_ez, g_nz positive downward). NaN for
/// undefined tensor terms at singular stations (file comment).
template <typename Real>
GEOBEM_HD inline void prism_fields(const RelativePrism<Real>& p, unsigned mask, Real out[10]) {
  using std::sqrt;
  Real pot = 0, ke = 0, kn = 0, ku = 0, kee = 0, ken = 0, keu = 0, knn = 0, knu = 0, kuu = 0;
  const Real xs[2] = {p.east, p.west};
  const Real ys[2] = {p.north, p.south};
  const Real zs[2] = {p.top, p.bottom};
  for (int i = 0; i < 2; ++i) {
    const Real x = xs[i];
    for (int j = 0; j < 2; ++j) {
      const Real y = ys[j];
      for (int k = 0; k < 2; ++k) {
        const Real z = zs[k];
        const Real r = sqrt(x * x + y * y + z * z);
        const Real sign = ((i + j + k) & 1) ? Real(-1) : Real(1);
        // Each logarithm and arctangent at most once per vertex.
        const bool need_lx = mask & (bit_potential | bit_g_n | bit_g_z | bit_g_nz);
        const bool need_ly = mask & (bit_potential | bit_g_e | bit_g_z | bit_g_ez);
        const bool need_lz = mask & (bit_potential | bit_g_e | bit_g_n | bit_g_en);
        const bool need_ax = mask & (bit_potential | bit_g_e | bit_g_ee);
        const bool need_ay = mask & (bit_potential | bit_g_n | bit_g_nn);
        const bool need_az = mask & (bit_potential | bit_g_z | bit_g_zz);
        const Real lx = need_lx ? safe_log(x, y, z, r) : Real(0);  // ln(x + r)
        const Real ly = need_ly ? safe_log(y, z, x, r) : Real(0);  // ln(y + r)
        const Real lz = need_lz ? safe_log(z, x, y, r) : Real(0);  // ln(z + r)
        const Real ax = need_ax ? safe_atan(y * z, x * r) : Real(0);
        const Real ay = need_ay ? safe_atan(z * x, y * r) : Real(0);
        const Real az = need_az ? safe_atan(x * y, z * r) : Real(0);
        if (mask & bit_potential)
          pot += sign * (x * y * lz + y * z * lx + z * x * ly -
                         Real(0.5) * (x * x * ax + y * y * ay + z * z * az));
        if (mask & bit_g_e) ke -= sign * (y * lz + z * ly - x * ax);
        if (mask & bit_g_n) kn -= sign * (z * lx + x * lz - y * ay);
        if (mask & bit_g_z) ku -= sign * (x * ly + y * lx - z * az);
        if (mask & bit_g_ee) kee -= sign * ax;
        if (mask & bit_g_nn) knn -= sign * ay;
        if (mask & bit_g_zz) kuu -= sign * az;
        if (mask & bit_g_en) ken += sign * lz;
        if (mask & bit_g_ez) keu += sign * ly;
        if (mask & bit_g_nz) knu += sign * lx;
      }
    }
  }
  const unsigned tensor = bit_g_ee | bit_g_en | bit_g_ez | bit_g_nn | bit_g_nz | bit_g_zz;
  if (mask & tensor) {
    const unsigned edges = edges_through_station(p);
    const Real nan = std::numeric_limits<Real>::quiet_NaN();
    if (edges & (2u | 4u)) kee = nan;
    if (edges & (1u | 4u)) knn = nan;
    if (edges & (1u | 2u)) kuu = nan;
    if (edges & 4u) ken = nan;
    if (edges & 2u) keu = nan;
    if (edges & 1u) knu = nan;
  }
  if (mask & bit_potential) out[0] = pot;
  if (mask & bit_g_e) out[1] = ke;
  if (mask & bit_g_n) out[2] = kn;
  if (mask & bit_g_z) out[3] = -ku;  // upward component -> positive downward
  if (mask & bit_g_ee) out[4] = kee;
  if (mask & bit_g_en) out[5] = ken;
  if (mask & bit_g_ez) out[6] = -keu;
  if (mask & bit_g_nn) out[7] = knn;
  if (mask & bit_g_nz) out[8] = -knu;
  if (mask & bit_g_zz) out[9] = kuu;
}

/// Station-relative bounds formed in double (exact differences of nearby
/// values, the precision-critical step), then rounded to Real.
template <typename Real>
GEOBEM_HD inline RelativePrism<Real> relative_prism(double west, double east, double south, double north,
                                                    double bottom, double top, double easting, double northing,
                                                    double upward) {
  return {Real(west - easting),  Real(east - easting),  Real(south - northing),
          Real(north - northing), Real(bottom - upward), Real(top - upward)};
}

}  // namespace geobem::gravity

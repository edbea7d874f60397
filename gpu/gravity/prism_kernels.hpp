#pragma once
// Point kernels of prism gravity: one prism, one station, compiled for the
// host (OpenMP driver) and the device (CUDA driver) from this one source.
//
// Method: the closed forms of Nagy, Papp & Benedek (2000, J. Geodesy 74,
// eqs. 8, 9 and 11-13) and Nagy et al. (2002, J. Geodesy 76, the tensor terms),
// with coordinates relative to the station and the vertex signs
// (-1)^(i+j+k) (index 0 = east/north/top). The logarithm uses the
// cancellation-free form of Fukushima (2020, Geophys. J. Int. 222):
// ln(x + r) = ln((y² + z²) / (r − x)) for x < 0, and the arctangent is the
// principal value arctan(num/den). The vertex sum is taken edge by edge: the
// two vertices of an edge share each term's coefficient, so their logarithms
// and arctangents combine into one log1p and one atan2 (pair_log, pair_atan),
// written without cancellation. Kernel conventions follow choclo
// (src/choclo/prism/_kernels.py); signs of the public fields follow Harmonica
// (g_z and the z-derivatives taken positive downward).
//
// Singular stations (the station on a face, an edge or a vertex of the
// prism): the station-relative coordinates that vanish are signed zeros
// (station_relative: −0), and every logarithm or arctangent that is undefined
// there is replaced by its limit as the station moves off along the direction
// (+1, +1, +1) — easting, northing and upward all increasing — one direction
// for every prism, so that the limits of a model's prisms add up to the limit
// of the model's field:
//  * arctan(u·v/(w·r)) with w = 0: ±π/2, or ±π/4 where u or v is also zero
//    (the station on an edge line), or ±π/6 at the vertex (atan_on_plane);
//  * ln(u + r) along an edge through the station diverges like −ln t for a
//    displacement t(1, 1, 1): twice for an edge that runs through the station,
//    once for an edge that ends at it. The finite part (the divergence
//    removed, pair_log) is returned; where the field of the model is defined,
//    the divergences of its prisms cancel and their finite parts sum to it.
// So the potential and g are the continuous limits everywhere; a diagonal
// tensor term on a face is the limit from the face's (+) side, and the tensor
// terms at an edge or a vertex are finite numbers whose sum over a model is
// its limit wherever that exists. Which side a survey sees, and NaN where a
// limit does not exist, are decided for the whole model by
// station_contact.hpp (docs/references.md#singular-stations).
#include <cmath>
#include <type_traits>

#include "gpu/core/host_device.hpp"

// Full unrolling keeps the per-vertex arrays in registers on the device (a
// loop left rolled puts them in local memory); g++ unrolls by itself.
#if defined(__CUDA_ARCH__)
#define GEOBEM_GRAVITY_UNROLL _Pragma("unroll")
#else
#define GEOBEM_GRAVITY_UNROLL
#endif

// The limits at singular stations (on_edge_log, atan_pair_on_plane) run for
// almost no pair: on the device each is one out-of-line copy, called from the
// rare branch, so that a kernel's code stays the size of its common path
// (inlined at every pair site they made the all-ten kernel 12,400 SASS
// instructions instead of 5,500; RESULTS.md). Inline on the host.
#if defined(__CUDA_ARCH__)
#define GEOBEM_GRAVITY_RARE __noinline__
#else
#define GEOBEM_GRAVITY_RARE inline
#endif

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

/// The station-relative coordinate bound − station (m) as Real, formed in
/// double (exact for nearby values, the precision-critical step) and then
/// rounded. A bound through the station gives −0: the kernels take the limit
/// as the station moves off along (+1, +1, +1) (file comment). A nonzero
/// difference too small for Real rounds to the zero of its own sign, the side
/// the station is on.
template <typename Real>
GEOBEM_HD inline Real station_relative(double bound, double station) {
  const double difference = bound - station;
  return difference == 0.0 ? -Real(0) : Real(difference);
}

/// ±1 with the sign of x, signed zeros included (−1 for −0).
template <typename Real>
GEOBEM_HD inline Real unit_sign(Real x) {
  using std::copysign;
  return copysign(Real(1), x);
}

/// The finite part of ln(u1 + r1) − ln(u2 + r2) on an edge through the
/// station (u2 <= 0 <= u1, the station on the edge's line), for the station
/// moving off along the direction of the signed zeros (t(±1, ±1, ±1), so
/// that ρ² = 2t² and the distance to a vertex at the station is √3·t), with
/// the divergence removed: ln(u1 + r1) − ln(u2 + r2) + c·ln t → finite part,
/// c = 2 for an edge that runs through the station, 1 for one that ends at it:
///   u2 < 0 < u1:  ln((2u1)(2|u2|) / (2t²))     → ln(2·u1·|u2|),
///   u2 = 0:       ln(2h) − ln(t(√3 + s))       → ln(2h / (√3 + s)),
///   u1 = 0:       ln(t(√3 + s)) − ln(t² / h)   → ln(h·(√3 + s)),
/// s = ±1 the sign of the zero. Sums over prisms that share the edge's line
/// carry the same t, so their divergences cancel where the model's field is
/// finite and their finite parts add up to it.
template <typename Real>
GEOBEM_HD GEOBEM_GRAVITY_RARE Real on_edge_log(Real u1, Real u2, Real h) {
  using std::log;
  const Real root3 = Real(1.7320508075688772935);
  Real length;  // one log call for the three cases
  if (u1 == Real(0))
    length = h * (root3 + unit_sign(u1));
  else if (u2 == Real(0))
    length = Real(2) * h / (root3 + unit_sign(u2));
  else
    length = Real(2) * u1 * -u2;
  return log(length);
}

/// ln(u1 + r1) − ln(u2 + r2) for the two vertices of a prism edge parallel to
/// the u axis (u1 > u2 their station-relative coordinates, h = u1 − u2 the
/// prism's size along u, r1, r2 their distances, rho2 the squared distance of
/// the edge's line from the station). The pair form of the safe logarithm of
/// Fukushima (2020, eq. 9): log1p of a quotient of sums of non-negative
/// terms, free of cancellation. With r1 − r2 = h(u1 + u2)/(r1 + r2) and
/// ln(u + r) = ln(rho2 / (r − u)):
///   u2 >= 0:       log1p(h(r1 + r2 + u1 + u2) / ((r1 + r2)(u2 + r2))),
///   u1 < 0:        log1p(h(r1 + r2 − u1 − u2) / ((r1 + r2)(r1 − u1))),
///   u2 < 0 <= u1:  ln((u1 + r1)(r2 − u2) / rho2) = log1p(n / rho2) with
///                  n = u1·r2 − u2·r1 − u1·u2 + (rho2(u1² + u2²) + u1²u2²) / (r1·r2 + rho2).
/// On the edge itself (rho2 = 0, u2 <= 0 <= u1, or rho2 lost to underflow in
/// Real) the difference diverges: its finite part on_edge_log is returned.
/// The quotient's den is exactly 0 there in every case (u2 = 0: r2 = 0;
/// u2 < 0 <= u1: rho2 = 0), so one test after the common arithmetic finds it.
/// On the prolongation of the edge (rho2 = 0, u1 and u2 of one sign) the two
/// divergent terms cancel inside the quotient.
template <typename Real>
GEOBEM_HD inline Real pair_log(Real u1, Real u2, Real h, Real r1, Real r2, Real rho2) {
  using std::log1p;
  // One quotient num/den per case and a single log1p call: each call site
  // then inlines one log1p instead of three (instruction cache, registers).
  const Real rs = r1 + r2;
  Real num, den;
  if (u2 >= Real(0)) {
    num = h * (rs + u1 + u2);
    den = rs * (u2 + r2);
  } else if (u1 < Real(0)) {
    num = h * (rs - u1 - u2);
    den = rs * (r1 - u1);
  } else {
    const Real uu = u1 * u2, c = r1 * r2 + rho2;
    num = (u1 * r2 - u2 * r1 - uu) * c + rho2 * (u1 * u1 + u2 * u2) + uu * uu;
    den = rho2 * c;
  }
  return den == Real(0) ? on_edge_log(u1, u2, h) : log1p(num / den);
}

/// arctan(u·v/(w·r)) of one vertex whose coordinate w is zero: its limit as
/// the station moves off along the direction of the signed zeros —
/// ±π/2 where u and v are nonzero, ±π/4 where one of them is zero as well
/// (the station on an edge line through the vertex: u·v/(w·r) → ±1), ±π/6 at
/// the vertex itself (→ ±1/√3); the sign is that of u·v·w, zeros signed.
template <typename Real>
GEOBEM_HD inline Real atan_on_plane(Real u, Real v, Real w) {
  const Real angle = (u != Real(0) && v != Real(0))   ? Real(1.5707963267948966192)
                     : (u != Real(0) || v != Real(0)) ? Real(0.78539816339744830962)
                                                      : Real(0.52359877559829887308);
  return unit_sign(u) * unit_sign(v) * unit_sign(w) * angle;
}

/// atan_on_plane(u1, v, w) − atan_on_plane(u2, v, w): pair_atan with w = 0.
template <typename Real>
GEOBEM_HD GEOBEM_GRAVITY_RARE Real atan_pair_on_plane(Real u1, Real u2, Real v, Real w) {
  return atan_on_plane(u1, v, w) - atan_on_plane(u2, v, w);
}

/// arctan(u1·v / (w·r1)) − arctan(u2·v / (w·r2)) for the two vertices of an
/// edge parallel to u (u1 > u2, h = u1 − u2; v, w the other two coordinates,
/// shared): the difference of principal values is atan2(v·w·D, w²·r1·r2 +
/// u1·u2·v²) with D = u1·r2 − u2·r1 = (v² + w²)·h·(u1 + u2)/(u1·r2 + u2·r1)
/// when u1, u2 have the same sign (no cancellation; D >= 0 always). Where
/// w = 0 (the station in the plane of a face normal to w) each arctangent is
/// its one-sided limit atan_on_plane.
template <typename Real>
GEOBEM_HD inline Real pair_atan(Real u1, Real u2, Real h, Real v, Real w, Real r1, Real r2) {
  using std::atan2;
  if (w == Real(0)) return atan_pair_on_plane(u1, u2, v, w);
  // D = d_num / d_den >= 0 with d_den > 0; both arguments of atan2 are
  // scaled by d_den instead of dividing.
  Real d_num, d_den;
  if (u1 * u2 > Real(0)) {
    const Real su = u1 + u2, sr = u1 * r2 + u2 * r1;  // same signs
    d_num = (v * v + w * w) * h * (su > Real(0) ? su : -su);
    d_den = sr > Real(0) ? sr : -sr;
  } else {
    d_num = u1 * r2 - u2 * r1;
    d_den = Real(1);
  }
  return atan2(v * w * d_num, (w * w * r1 * r2 + u1 * u2 * v * v) * d_den);
}

/// Station-relative bounds of one prism: west/east minus the station's
/// easting, south/north minus its northing, bottom/top minus its height (m),
/// and the prism's sizes east − west, north − south, top − bottom (m), taken
/// exactly rather than as differences of the rounded relative bounds.
template <typename Real>
struct RelativePrism {
  Real west, east, south, north, bottom, top;
  Real size_e, size_n, size_u;
};

/// How prism_fields() calls pair_log and pair_atan: inline, the default (the
/// host driver, and the CUDA kernels when their code fits the instruction
/// cache). The CUDA driver can pass a policy that calls them out of line.
struct InlinePairs {
  template <typename Real>
  GEOBEM_HD static Real log_pair(Real u1, Real u2, Real h, Real r1, Real r2, Real rho2) {
    return pair_log(u1, u2, h, r1, r2, rho2);
  }
  template <typename Real>
  GEOBEM_HD static Real atan_pair(Real u1, Real u2, Real h, Real v, Real w, Real r1, Real r2) {
    return pair_atan(u1, u2, h, v, w, r1, r2);
  }
};

/// Signed sums of the four pair values v[a][b] of one edge direction over
/// the two coordinates (index 0: sign +) that the pairs sit at:
/// d2 = Σ s_a s_b v, da = Σ s_a v, db = Σ s_b v, sum = Σ v. Differences come
/// first: the pair values of a distant prism are close to one another, so
/// their differences are exact in floating point (Sterbenz).
template <typename Real>
struct PairSums {
  Real d2, da, db, sum;
};

template <typename Real>
GEOBEM_HD inline PairSums<Real> pair_sums(Real v00, Real v01, Real v10, Real v11) {
  const Real first = v00 - v01, second = v10 - v11;
  return {first - second, (v00 - v10) + (v01 - v11), first + second, (v00 + v01) + (v10 + v11)};
}

/// Σ s_a s_b·u_a·w_b·v for u_a = cu + s_a·hu, w_b = cw + s_b·hw (centres and
/// half sizes of the two coordinates).
template <typename Real>
GEOBEM_HD inline Real centre_uw(const PairSums<Real>& v, Real cu, Real hu, Real cw, Real hw) {
  return cu * cw * v.d2 + hu * cw * v.db + cu * hw * v.da + hu * hw * v.sum;
}

/// Σ s_a s_b·u·v for the coordinate u = c + s·h of either index: db (u the
/// first index) or da (u the second) as `other`.
template <typename Real>
GEOBEM_HD inline Real centre_u(Real d2, Real other, Real c, Real h) {
  return c * d2 + h * other;
}

/// Σ s_a s_b·u²·v for u = c + s·h, `other` as for centre_u.
template <typename Real>
GEOBEM_HD inline Real centre_uu(Real d2, Real other, Real c, Real h) {
  return (c * c + h * h) * d2 + Real(2) * c * h * other;
}

/// One edge direction of prism_fields: the pair values pair(a, b) at the
/// coordinates u_a, w_b of the other two axes (index 0: sign +), added in
/// vertex form, vertex(s_a·s_b, a, b, value) as each comes, or in centre
/// form, centre(full, regular): pair_sums of the four values, and of the four
/// with those zeroed whose coefficients in the potential and g vanish
/// (zero_coefficient(a, b): the station on the pair's line or plane). Such a
/// pair is a one-sided limit or a finite part (up to ln of a length, file
/// comment) that the vertex form multiplies by an exact 0; in centre form its
/// coefficient is a sum of products that cancel only to rounding, so the
/// potential and g take the regular sums and only the tensor the full ones.
/// The lambdas inline: the same arithmetic as writing the two loops out.
template <bool CentreForm, typename Real, typename Pair, typename ZeroCoefficient, typename Vertex, typename Centre>
GEOBEM_HD inline void edge_direction(const Pair& pair, const ZeroCoefficient& zero_coefficient, const Vertex& vertex,
                                     const Centre& centre) {
  const Real sign[2] = {Real(1), Real(-1)};
  Real v[2][2], regular[2][2];
  GEOBEM_GRAVITY_UNROLL
  for (int a = 0; a < 2; ++a)
    GEOBEM_GRAVITY_UNROLL
    for (int b = 0; b < 2; ++b) {
      const Real value = pair(a, b);
      if constexpr (CentreForm) {
        v[a][b] = value;
        regular[a][b] = zero_coefficient(a, b) ? Real(0) : value;
      } else {
        vertex(sign[a] * sign[b], a, b, value);
      }
    }
  if constexpr (CentreForm)
    centre(pair_sums(v[0][0], v[0][1], v[1][0], v[1][1]),
           pair_sums(regular[0][0], regular[0][1], regular[1][0], regular[1][1]));
}

/// The four ln(u + r) pairs of the edges along u (coordinates u[0] > u[1],
/// size_u apart) at the coordinates v_a, w_b of the other two axes (index 0:
/// the + bound; centres cv, cw and half sizes hv, hw), r(end, a, b) the
/// distance of vertex (u[end], v_a, w_b): pot += Σ s·v·w·l, k_v −= Σ s·w·l,
/// k_w −= Σ s·v·l, k_vw += Σ s·l (s = s_a·s_b, edge_direction's forms).
template <bool CentreForm, typename Pairs, typename Real, typename Distance>
GEOBEM_HD inline void log_edges(const Real u[2], Real size_u, const Real v[2], Real cv, Real hv, const Real w[2],
                                Real cw, Real hw, const Distance& r, Real& pot, Real& k_v, Real& k_w, Real& k_vw) {
  edge_direction<CentreForm, Real>(
      [&](int a, int b) {
        return Pairs::log_pair(u[0], u[1], size_u, r(0, a, b), r(1, a, b), v[a] * v[a] + w[b] * w[b]);
      },
      [&](int a, int b) { return v[a] == Real(0) && w[b] == Real(0); },
      [&](Real s, int a, int b, Real l) {
        pot += s * v[a] * w[b] * l;
        k_v -= s * w[b] * l;
        k_w -= s * v[a] * l;
        k_vw += s * l;
      },
      [&](const PairSums<Real>& full, const PairSums<Real>& l) {
        pot += centre_uw(l, cv, hv, cw, hw);  // Σ s·v·w·l
        k_v -= centre_u(l.d2, l.da, cw, hw);  // Σ s·w·l
        k_w -= centre_u(l.d2, l.db, cv, hv);  // Σ s·v·l
        k_vw += full.d2;
      });
}

/// The four arctangent pairs of the edges along u at the coordinates
/// first_a, second_b of the other two axes, of which the one normal to the
/// pairs' faces, n, is `first` where NormalFirst, else `second` (centre cn,
/// half size hn), the other the arctangent's v: pot −= ½ Σ s·n²·a,
/// k_n += Σ s·n·a, k_nn −= Σ s·a.
template <bool CentreForm, bool NormalFirst, typename Pairs, typename Real, typename Distance>
GEOBEM_HD inline void atan_edges(const Real u[2], Real size_u, const Real first[2], const Real second[2], Real cn,
                                 Real hn, const Distance& r, Real& pot, Real& k_n, Real& k_nn) {
  const Real half = Real(0.5);
  const auto normal = [&](int a, int b) { return NormalFirst ? first[a] : second[b]; };
  const auto along = [&](int a, int b) { return NormalFirst ? second[b] : first[a]; };
  edge_direction<CentreForm, Real>(
      [&](int a, int b) {
        return Pairs::atan_pair(u[0], u[1], size_u, along(a, b), normal(a, b), r(0, a, b), r(1, a, b));
      },
      [&](int a, int b) { return normal(a, b) == Real(0); },
      [&](Real s, int a, int b, Real t) {
        const Real n = normal(a, b);
        pot -= half * s * n * n * t;
        k_n += s * n * t;
        k_nn -= s * t;
      },
      [&](const PairSums<Real>& full, const PairSums<Real>& t) {
        const Real other = NormalFirst ? t.db : t.da;
        pot -= half * centre_uu(t.d2, other, cn, hn);  // ½ Σ s·n²·a
        k_n += centre_u(t.d2, other, cn, hn);          // Σ s·n·a
        k_nn -= full.d2;
      });
}

/// The fields selected by `mask` (FieldBit) of a unit-density prism at the
/// station, without the factor G: out[f] for Field index f, in SI units per
/// (G·kg/m³): potential m², g in m, tensor dimensionless. Multiply by
/// G·density and by 1e5 (mGal) or 1e9 (Eötvös). Unselected entries are left
/// untouched. Signs: Harmonica (g_z, g_ez, g_nz positive downward). At a
/// singular station, the limits of the file comment (never NaN).
///
/// The vertex sum Σ(−1)^(i+j+k)·k(x, y, z, r) of Nagy et al. is taken edge by
/// edge: every logarithm and arctangent term's coefficient is shared by the
/// two vertices of an edge, so each pair becomes one pair_log or pair_atan
/// (12 each for all fields instead of 24; g_z alone needs 8 and 4). Besides
/// halving the transcendental calls this removes the largest cancellation:
/// the pair values are O(size/distance) instead of O(ln distance).
///
/// CentreForm (the default for float) combines the four pairs of one edge
/// direction in centre form: with the coordinates written as centre ± half
/// size, Σ s·y·z·l becomes c_y·c_z·Σ s_y s_z l + h_y·c_z·Σ s_z l +
/// c_y·h_z·Σ s_y l + h_y·h_z·Σ l (pair_sums, centre_uw). Each term is then of
/// the size of the result instead of (distance/size)² times larger, so the
/// roundings of the products no longer cancel: in single precision this
/// divides the error of the potential, g_e and g_n on the paper's case by 2
/// to 3 (RESULTS.md); what remains is the rounding of the pair values
/// themselves. The vertex form (the default for double, where those roundings
/// are 1e-16) adds each pair value times its coordinates as it comes, which
/// holds one pair value at a time instead of four (CUDA: 156 registers per
/// thread for all ten fields instead of 176).
template <typename Real, typename Pairs = InlinePairs, bool CentreForm = std::is_same<Real, float>::value>
GEOBEM_HD inline void prism_fields(const RelativePrism<Real>& p, unsigned mask, Real out[10]) {
  using std::sqrt;
  const Real x[2] = {p.east, p.west};
  const Real y[2] = {p.north, p.south};
  const Real z[2] = {p.top, p.bottom};
  const Real half = Real(0.5);
  const Real ce = half * (x[0] + x[1]), cn = half * (y[0] + y[1]), cu = half * (z[0] + z[1]);
  const Real he = half * p.size_e, hn = half * p.size_n, hu = half * p.size_u;
  Real r[2][2][2];
  GEOBEM_GRAVITY_UNROLL
  for (int i = 0; i < 2; ++i)
    GEOBEM_GRAVITY_UNROLL
    for (int j = 0; j < 2; ++j)
      GEOBEM_GRAVITY_UNROLL
      for (int k = 0; k < 2; ++k) r[i][j][k] = sqrt(x[i] * x[i] + y[j] * y[j] + z[k] * z[k]);
  // The vertex distances seen from each edge direction: (end along the
  // edge, first other axis, second other axis).
  const auto along_e = [&](int end, int j, int k) { return r[end][j][k]; };
  const auto along_n = [&](int end, int i, int k) { return r[i][end][k]; };
  const auto along_u = [&](int end, int i, int j) { return r[i][j][end]; };

  Real pot = 0, ke = 0, kn = 0, ku = 0, kee = 0, ken = 0, keu = 0, knn = 0, knu = 0, kuu = 0;
  // ln(x + r) pairs over x at each (y_j, z_k); ln(y + r) over y at each
  // (x_i, z_k); ln(z + r) over z at each (x_i, y_j).
  if (mask & (bit_potential | bit_g_n | bit_g_z | bit_g_nz))
    log_edges<CentreForm, Pairs>(x, p.size_e, y, cn, hn, z, cu, hu, along_e, pot, kn, ku, knu);
  if (mask & (bit_potential | bit_g_e | bit_g_z | bit_g_ez))
    log_edges<CentreForm, Pairs>(y, p.size_n, x, ce, he, z, cu, hu, along_n, pot, ke, ku, keu);
  if (mask & (bit_potential | bit_g_e | bit_g_n | bit_g_en))
    log_edges<CentreForm, Pairs>(z, p.size_u, x, ce, he, y, cn, hn, along_u, pot, ke, kn, ken);
  // arctan(yz / (xr)) pairs over y at each (x_i, z_k); arctan(zx / (yr))
  // over z at each (x_i, y_j); arctan(xy / (zr)) over x at each (y_j, z_k).
  if (mask & (bit_potential | bit_g_e | bit_g_ee))
    atan_edges<CentreForm, true, Pairs>(y, p.size_n, x, z, ce, he, along_n, pot, ke, kee);
  if (mask & (bit_potential | bit_g_n | bit_g_nn))
    atan_edges<CentreForm, false, Pairs>(z, p.size_u, x, y, cn, hn, along_u, pot, kn, knn);
  if (mask & (bit_potential | bit_g_z | bit_g_zz))
    atan_edges<CentreForm, false, Pairs>(x, p.size_e, y, z, cu, hu, along_e, pot, ku, kuu);
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

/// Station-relative bounds (station_relative: formed in double, rounded to
/// Real, −0 for a bound through the station) and the exact sizes.
template <typename Real>
GEOBEM_HD inline RelativePrism<Real> relative_prism(double west, double east, double south, double north,
                                                    double bottom, double top, double easting, double northing,
                                                    double upward) {
  return {station_relative<Real>(west, easting),   station_relative<Real>(east, easting),
          station_relative<Real>(south, northing), station_relative<Real>(north, northing),
          station_relative<Real>(bottom, upward),  station_relative<Real>(top, upward),
          Real(east - west),                       Real(north - south),
          Real(top - bottom)};
}

}  // namespace geobem::gravity

#pragma once
// Per-station estimates of the rounding error of the fields, for every path
// (prisms, grid nodes, prism layers; the magnetic field from the same
// tensor) and both precisions: one mechanism.
//
// A source's kernel values are sums of terms: the pair values of its edges
// (prism_kernels.hpp) or the corner function of a node (grid_node_kernels.hpp)
// times coordinates. Rounding costs each term a few units of the last place
// (ε = 2^-52 in double, 2^-23 in single) of its own size, while far from the
// source the sum is many times smaller than its terms; so a source's error is
// a few ε times the size of its terms, e (rounding_bounds below), whatever its
// field. Bounds of the terms, for a prism with largest side a, smallest side
// a_min, farthest vertex at R, nearest point of its edges at distance ρ and
// pairs' arctangents bounded by A (|arctan pair| ≤ min(π, h/|w|, h/(2·d_u))
// for an edge of length h along u at distance |w| from the plane of its face
// and d_u from the prism's slab along u, since |d/du arctan(uv/(wr))| ≤
// min(1/|w|, 1/(2|u|)); |ln pair| ≤ ln(1 + a/ρ)):
//   tensor     e_T = ln(1 + a/ρ) + A [+ 2 + 2·max|ln| of the lengths when the
//                    station is on an edge: the finite parts],
//   g          e_g = R·ln(1 + a/ρ) + min(a, R·A),
//   potential  e_V = R·e_g;
// for a grid node at distance r whose axis-parallel lines pass at ρ_min,
// with L = ln(1 + 2r/ρ_min) (its asinh terms): e_T = π/2 + L, e_g = r·e_T,
// e_V = r²·e_T. The absolute bound of a field at a station, over sources k
// of weights w_k (densities, node weights; Σ|M_j| for the magnetic field), is
//   ε·(K_source·(Σ_k (w_k e_k)⁴)^¼ + K_sum·(Σ_k (w_k e_k)²)^½):
// the first term bounds the largest single source's error (it is at least
// max_k w_k e_k), the second the sum of many, whose roundings are independent
// and add in quadrature. On 7,700 single prisms (tests/gravity/
// edge_reference.csv and a 25-digit mpmath battery: aspect 1e-3 to 1e3,
// stations on faces, edges, vertices, 1e-12 to 1e-1 of a size off edges and
// face planes, up to 1e4 sizes away) the largest error was 3.2·ε·e in single
// and 3.0·ε·e in double, both paths, and the root mean square 0.46·ε·e:
// K_source = 8 leaves a margin of 2.5 on one source, K_sum = 3 is 6.5 standard
// deviations of a sum of many. The estimate of a field is the bound relative
// to the largest |value| of its group at the station (the potential; g_e,
// g_n, g_z; the six tensor terms) less the bound (the smallest the true
// magnitude can be); tests/gravity/test_edge_battery.cpp,
// test_far_field.cpp and docs/readers.md#accuracy-of-the-fields show it. The
// drivers' accumulation in double adds about √N·1e-16 of the field for N
// sources, below every bound used. A prism's e for a station farther than
// its largest side is computed in single precision and inflated so that it
// stays at least the double value (far_prism_rounding_bounds); the sums stay
// in double. In double precision a station far from a whole tile of 32
// sources takes one bound for the tile (tile_rounding_bounds: the launcher's
// tile bound, gpu/potential/source_view.hpp).
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/core/host_device.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/grid_node_kernels.hpp"
#include "gpu/gravity/prism.hpp"
#include "gpu/gravity/prism_layer.hpp"
#include "gpu/potential/kernel_shape.hpp"

namespace geobem::gravity {

/// The field groups of an estimate; RoundingKernel sums two rows per group:
/// Σ(w·e)² (row 2g) and Σ(w·e)⁴ (row 2g + 1).
enum RoundingGroup { group_potential = 0, group_g = 1, group_tensor = 2 };
inline constexpr int rounding_groups = 3;
/// Bit g set for group g: the groups a RoundingKernel sums.
inline constexpr unsigned all_rounding_groups = 7u, g_rounding_group = 1u << group_g;

/// K_source and K_sum of the bound (file comment).
inline constexpr double source_rounding_factor = 8.0, sum_rounding_factor = 4.0;

/// ε of the estimate: the machine epsilon of the kernels' arithmetic.
GEOBEM_HD inline double machine_epsilon(Precision precision) {
  return precision == Precision::Single ? double(std::numeric_limits<float>::epsilon())
                                        : std::numeric_limits<double>::epsilon();
}

/// The absolute bound of a group (the drivers' raw units) from its two sums
/// Σ(w·e)² and Σ(w·e)⁴ (file comment).
GEOBEM_HD inline double rounding_bound(double squares, double fourth_powers, Precision precision) {
  using std::sqrt;
  return machine_epsilon(precision) *
         (source_rounding_factor * sqrt(sqrt(fourth_powers)) + sum_rounding_factor * sqrt(squares));
}

/// Adds a source's (w·e) to the two sums of a group.
GEOBEM_HD inline void add_rounding(double we, double acc[2]) {
  const double square = we * we;
  acc[0] += square;
  acc[1] += square * square;
}

/// min and max without the NaN rules of fmin/fmax (the bounds are never
/// NaN), which the compilers then keep inline.
GEOBEM_HD inline double smaller(double a, double b) { return a < b ? a : b; }
GEOBEM_HD inline double larger(double a, double b) { return a > b ? a : b; }

/// An upper bound of ln x for x >= 1 within ln 2 of it, from x's binary
/// exponent alone: (⌊log2 x⌋ + 1)·ln 2.
GEOBEM_HD inline double log_bound(double x) {
  using std::ilogb;
  return (ilogb(x) + 1) * 0.69314718055994530942;
}

/// prism_rounding_bounds in double alone, from the prism's bounds relative
/// to the station (west, east, south, north, bottom, top) and its sides. A
/// prism farther than its largest side from the station skips the edges:
/// ln(1 + a/ρ) ≤ a/D with D its distance from the station.
template <typename Real>
GEOBEM_HD inline void double_prism_rounding_bounds(const double rel[6], const double size[3], double e[3]) {
  using std::fabs;
  using std::log;
  using std::log1p;
  using std::sqrt;
  const double infinity = std::numeric_limits<double>::infinity(), pi = 3.14159265358979323846;
  const double a = larger(larger(size[0], size[1]), size[2]);
  // Per axis: the distance of the station from the prism's slab (0 inside
  // it), from the nearer face plane, and from the farther one.
  double along[3], plane[3], far2 = 0, box2 = 0;
  for (int k = 0; k < 3; ++k) {
    const double lo = rel[2 * k], hi = rel[2 * k + 1];
    along[k] = lo > 0 ? lo : (hi < 0 ? -hi : 0.0);
    plane[k] = smaller(fabs(lo), fabs(hi));
    const double m = larger(fabs(lo), fabs(hi));
    far2 += m * m;
    box2 += along[k] * along[k];
  }
  const double R = sqrt(far2), D = sqrt(box2);
  // The arctangent pairs along u with w normal to their face (g_ee: along
  // northing, w easting; g_nn: upward, northing; g_zz: easting, upward):
  // |pair| ≤ min(π, h_u/|w|, h_u/(2·distance along u)) = min(π, h_u / m_u),
  // m_u = max(|w|, 2·distance) (h_u > 0: m_u = 0 gives +inf). The largest of
  // the three quotients is picked by cross multiplication (a tie within
  // rounding may pick either) and divided once; where a product overflows,
  // the quotients are compared instead.
  const int u_of[3] = {1, 2, 0}, w_of[3] = {0, 1, 2};
  double h_most = size[u_of[0]], m_most = larger(plane[w_of[0]], 2 * along[u_of[0]]);
  for (int k = 1; k < 3; ++k) {
    const double h = size[u_of[k]], m = larger(plane[w_of[k]], 2 * along[u_of[k]]);
    const double mine = h * m_most, theirs = h_most * m;
    const bool larger_quotient =
        mine < infinity && theirs < infinity ? mine > theirs : h / m > h_most / m_most;
    if (larger_quotient) {
      h_most = h;
      m_most = m;
    }
  }
  const double atans = smaller(pi, h_most / m_most);
  double logs = 0, finite = 0;
  if (D > a) {
    logs = a / D;
  } else {
    // Squared distances of the station from the 12 edges (segments).
    double edge2 = infinity, shortest = infinity;
    bool on_edge = false;
    for (int k = 0; k < 6; ++k)
      if (rel[k] != 0.0) shortest = smaller(shortest, fabs(rel[k]));
    for (int u = 0; u < 3; ++u) {
      const int v = (u + 1) % 3, w = (u + 2) % 3;
      for (int j = 0; j < 2; ++j)
        for (int k = 0; k < 2; ++k) {
          const double d2 = along[u] * along[u] + rel[2 * v + j] * rel[2 * v + j] + rel[2 * w + k] * rel[2 * w + k];
          if (d2 == 0.0)
            on_edge = true;
          else
            edge2 = smaller(edge2, d2);
        }
    }
    const double edge = sqrt(edge2);
    if (static_cast<Real>(edge) * static_cast<Real>(edge) == Real(0)) {
      e[0] = e[1] = e[2] = infinity;
      return;
    }
    logs = log1p(a / edge);
    // The finite parts on an edge (on_edge_log): logarithms of lengths.
    const double a_min = smaller(smaller(size[0], size[1]), size[2]);
    if (on_edge) finite = 2 + 2 * larger(larger(fabs(log(shortest)), fabs(log(a_min))), fabs(log(a)));
  }
  const double g_atans = smaller(a, R * atans);
  e[group_potential] = R * (R * logs + g_atans);
  e[group_g] = R * logs + g_atans;
  e[group_tensor] = logs + finite + atans;
}

/// The relative rounding of a far source's bounds in single precision
/// (far_prism_rounding_bounds): each is inflated by this factor.
inline constexpr float far_bound_inflation = 1.0f + 1.0f / 65536.0f;

/// 1/√x and x/y in single precision for far_prism_rounding_bounds: on the
/// device the special-function unit's approximations (rsqrtf, __fdividef:
/// within 2 units of the last place for the positive normal arguments the
/// path admits), on the host the correctly rounded operations.
GEOBEM_HD inline float far_rsqrt(float x) {
#ifdef __CUDA_ARCH__
  return rsqrtf(x);
#else
  return 1.0f / std::sqrt(x);
#endif
}
GEOBEM_HD inline float far_divide(float x, float y) {
#ifdef __CUDA_ARCH__
  return __fdividef(x, y);
#else
  return x / y;
#endif
}

/// The single-precision arithmetic of far_prism_rounding_bounds, from a
/// box's quantities in float (each rounded once from double): the sides
/// (largest a, smallest a_min), per axis the station's distance from the
/// box's slab (`along`) and from its nearer face plane (`plane`), the
/// squared distances of its farthest corner (far2) and of the box (box2).
/// Returns false, e untouched, where box2 ≤ (reach·a)² or a size is outside
/// the range the path is proven for (far_prism_rounding_bounds, whose proof
/// covers any box given so); tile_rounding_bounds runs it on a tile's box.
GEOBEM_HD inline bool far_bounds_in_single(const float side[3], const float along[3], const float plane[3], float far2,
                                           float box2, float reach, double e[3]) {
  const float pi_up = 3.14159274f;  // float(π) > π
  const float a = side[0] > side[1] ? (side[0] > side[2] ? side[0] : side[2]) : (side[1] > side[2] ? side[1] : side[2]);
  const float a_min =
      side[0] < side[1] ? (side[0] < side[2] ? side[0] : side[2]) : (side[1] < side[2] ? side[1] : side[2]);
  if (!(box2 > reach * reach * a * a) || !(a_min >= 1e-30f) || !(a >= 1e-18f) || !(far2 <= 1e36f)) return false;
  // The arctangent quotient of prism_rounding_bounds, picked the same way.
  const int u_of[3] = {1, 2, 0}, w_of[3] = {0, 1, 2};
  float h_most = side[u_of[0]], m_most = plane[w_of[0]] > 2 * along[u_of[0]] ? plane[w_of[0]] : 2 * along[u_of[0]];
  for (int k = 1; k < 3; ++k) {
    const float h = side[u_of[k]], m = plane[w_of[k]] > 2 * along[u_of[k]] ? plane[w_of[k]] : 2 * along[u_of[k]];
    if (h * m_most > h_most * m) {
      h_most = h;
      m_most = m;
    }
  }
  // m below 1e-30 with h ≥ 1e-30: a quotient above π (also where
  // __fdividef leaves its range).
  const float quotient = m_most >= 1e-30f ? far_divide(h_most, m_most) : pi_up;
  const float atans = quotient < pi_up ? quotient : pi_up;
  const float inverse_far = far_rsqrt(far2), R = far2 * inverse_far;
  const float logs = a * far_rsqrt(box2);
  const float r_atans = R * atans, g_atans = a < r_atans ? a : r_atans;
  const float g = R * logs + g_atans;
  e[group_potential] = static_cast<double>((R * g) * far_bound_inflation);
  e[group_g] = static_cast<double>(g * far_bound_inflation);
  e[group_tensor] = static_cast<double>((logs + atans) * far_bound_inflation);
  return true;
}

/// The bounds e of prism_rounding_bounds for a prism farther from the
/// station than its largest side, computed in single precision whatever the
/// kernels' arithmetic: in the FP64-bound field kernels the FP32 and
/// special-function units are idle, so the estimate of a far source (almost
/// every pair of a survey) costs little beyond its double accumulation.
/// `rel` are the prism's bounds relative to the station and `size` its
/// sides, both in double (no cancellation is left to single precision).
/// Returns false, e untouched, where the source is not far (D ≤ a in single
/// precision) or a size is outside the range the path is proven for: every
/// side ≥ 1e-30 m, the largest ≥ 1e-18 m, the farthest vertex within 1e18 m.
/// The far bounds: ln(1 + a/ρ) ≤ a/ρ ≤ a/D for ρ ≥ D, an upper bound of
/// the double path's logarithm on either side of D = a, so a decision taken
/// the other way by rounding near D = a still bounds.
///
/// Why a bound stays a bound: the path's values are the six distances and
/// three sides rounded to float (relative error ≤ u = 2^-24) followed by
/// sums of non-negative terms, products, quotients (2 units of the last
/// place, 4u), reciprocal square roots (4u), and exact min/max/abs; the
/// arctangent quotient's pick by cross multiplication can take one within
/// 12u of the largest. Counting each rounding's relative error along the
/// longest chain (e_V = R·(R·a/D + min(a, R·A)): R 12.5u, a/D 8.5u, A 18u,
/// R·A 31.5u, e_g 32.5u, e_V 46u, the inflation 1u) every bound is at least
/// (1 − u)^47 ≥ 1 − 2.9e-6 of its exact value, which the inflation by
/// 1 + 2^-16 (1.5e-5) covers five times over; the squares of these ranges
/// (≤ 4e36) stay below float's 3.4e38 and above its smallest normal number.
/// tests/gravity/test_far_rounding.cpp checks the float bounds against the
/// double path's over decades of sizes, aspects and distances.
GEOBEM_HD inline bool far_prism_rounding_bounds(const double rel[6], const double size[3], double e[3]) {
  using std::fabs;
  float side[3], along[3], plane[3], far2 = 0, box2 = 0;
  for (int k = 0; k < 3; ++k) {
    side[k] = static_cast<float>(size[k]);
    const float lo = static_cast<float>(rel[2 * k]), hi = static_cast<float>(rel[2 * k + 1]);
    along[k] = lo > 0 ? lo : (hi < 0 ? -hi : 0.0f);
    const float l = fabs(lo), h = fabs(hi);
    plane[k] = l < h ? l : h;
    const float m = l > h ? l : h;
    far2 += m * m;
    box2 += along[k] * along[k];
  }
  return far_bounds_in_single(side, along, plane, far2, box2, 1.0f, e);
}

/// e (potential, g, tensor; the drivers' raw units per unit density) of a
/// prism with these bounds at the station, for kernels in Real (file
/// comment): far_prism_rounding_bounds in single precision for a prism
/// farther than its largest side from the station, else in double (which
/// bounds the logarithms by a/D where D > a too). Infinite where a distance
/// of the station from an edge is too small for Real to square (the
/// kernels' logarithm then loses it).
template <typename Real>
GEOBEM_HD inline void prism_rounding_bounds(double west, double east, double south, double north, double bottom,
                                            double top, const Station& s, double e[3]) {
  const double rel[6] = {west - s.easting, east - s.easting,   south - s.northing,
                         north - s.northing, bottom - s.upward, top - s.upward};
  const double size[3] = {east - west, north - south, top - bottom};
  if (far_prism_rounding_bounds(rel, size, e)) return;
  double_prism_rounding_bounds<Real>(rel, size, e);
}

/// What a tile bound (gpu/potential/source_view.hpp) of the estimate knows
/// of its sources, prisms of weights w (density; Σ_j |M_j| for the magnetic
/// field), summarized on the host in double: the box holding every prism,
/// the largest side along each axis, Σw² and Σw⁴, and whether the weights lie
/// where their fourth powers keep double's range (1e-60 ≤ |w| ≤ 1e60; else
/// the tile is never bounded). Value-initialized: empty.
struct RoundingTile {
  double box[6];   ///< west, east, south, north, bottom, top (valid when weighted > 0)
  double side[3];  ///< largest side along easting, northing, upward
  double squares, fourth_powers;
  int weighted;    ///< sources of non-zero weight
  bool unbounded;  ///< a weight outside [1e-60, 1e60]
};

/// Adds a prism (bounds west … top, weight w ≠ 0) to a tile's summary.
GEOBEM_HD inline void add_to_rounding_tile(RoundingTile& tile, double west, double east, double south, double north,
                                 double bottom, double top, double w) {
  const double bounds[6] = {west, east, south, north, bottom, top};
  for (int k = 0; k < 3; ++k) {
    tile.box[2 * k] = tile.weighted ? smaller(tile.box[2 * k], bounds[2 * k]) : bounds[2 * k];
    tile.box[2 * k + 1] = tile.weighted ? larger(tile.box[2 * k + 1], bounds[2 * k + 1]) : bounds[2 * k + 1];
    tile.side[k] = larger(tile.side[k], bounds[2 * k + 1] - bounds[2 * k]);
  }
  const double magnitude = w < 0 ? -w : w, square = w * w;
  if (!(magnitude >= 1e-60 && magnitude <= 1e60)) tile.unbounded = true;
  tile.squares += square;
  tile.fourth_powers += square * square;
  ++tile.weighted;
}

/// Relative margin of a tile's bounds over the bounds of its prisms: covers
/// the single-precision bounds' inflation and rounding (far_bound_inflation:
/// a prism's float bound may sit that much above its exact value, the
/// tile's may not sit below its own) and the rounding of the tile's sums.
inline constexpr double tile_bound_inflation = 1.0 + 1.0 / 16384.0;

/// How near a tile's box a station may be and still take the tile bound, in
/// the tile's largest side: the bound's a/D overstates a near prism's
/// logarithm more as D shrinks, so nearer stations bound source by source.
/// At half a side the estimate on a DEM layer is a median 2.4 times the
/// per-source one against 1.9 at a whole side, and half as many (station,
/// tile) pairs are left to the sources (bench/RESULTS.md, "The estimate's
/// pass warp by warp").
inline constexpr double tile_reach = 0.5;

/// The bounds e (potential, g, tensor) of every prism of a tile at the
/// station, where the station is farther from the tile's box than
/// tile_reach times the tile's largest side a: returns false where it is
/// not, or the tile is unbounded or empty, or its sizes leave the range of
/// far_bounds_in_single. Each quantity of a prism's bound, on either path of
/// prism_rounding_bounds, is bounded from the box: a prism's largest side ≤
/// a; its farthest vertex R ≤ the box's farthest corner (a vertex of a
/// prism lies in the box, and the distance is largest at a corner of a
/// box); its logarithm ln(1 + a_p/ρ) ≤ a_p/ρ ≤ a/D, ρ (its nearest edge's
/// distance, or its own distance D_p > a_p on the far path) being at least
/// the box's distance D > 0 (the prism lies in the box; so the station is
/// on no edge and the finite parts do not arise); its arctangent quotient
/// h_u/m_u with m_u = max(|w| to its nearer face plane, 2·distance from its
/// slab along u) has h_u ≤ the tile's largest side along u and m_u ≥
/// max(the box's slab distance along w, 2·its slab distance along u) (the
/// prism's face planes and slab lie within the box's slab). The bounds e_V
/// = R·(R·a/D + min(a, R·A)), e_g = R·a/D + min(a, R·A), e_T = a/D + A grow
/// with R, a, A and shrink with D, so the box's values bound every prism's.
/// They are the far path's formulas on the box (its slab distances standing
/// for the face planes' too), computed as it computes them, in single
/// precision (far_bounds_in_single, whose rounding its inflation covers),
/// then inflated by tile_bound_inflation.
GEOBEM_HD inline bool tile_rounding_bounds(const RoundingTile& tile, const Station& s, double e[3]) {
  if (tile.weighted == 0 || tile.unbounded) return false;
  const double at[3] = {s.easting, s.northing, s.upward};
  float side[3], along[3], far2 = 0, box2 = 0;
  for (int k = 0; k < 3; ++k) {
    side[k] = static_cast<float>(tile.side[k]);
    const float lo = static_cast<float>(tile.box[2 * k] - at[k]), hi = static_cast<float>(tile.box[2 * k + 1] - at[k]);
    along[k] = lo > 0 ? lo : (hi < 0 ? -hi : 0.0f);
    const float l = lo < 0 ? -lo : lo, h = hi < 0 ? -hi : hi, m = l > h ? l : h;
    far2 += m * m;
    box2 += along[k] * along[k];
  }
  if (!far_bounds_in_single(side, along, along, far2, box2, static_cast<float>(tile_reach), e)) return false;
  for (int g = 0; g < rounding_groups; ++g) e[g] *= tile_bound_inflation;
  return true;
}

/// The TileSummary of the rounding kernels in Real: RoundingTile in double,
/// none (void: every source on its own) in single (RoundingKernel).
template <typename Real>
using tile_bound_summary = std::conditional_t<std::is_same<Real, double>::value, RoundingTile, void>;

/// Whether the drivers (CPU and CUDA) run the rounding estimate of sources of
/// type Source in Real as a pass of its own, beside the field kernel: where
/// its tile bound applies (double; grid nodes stay per source). There a far
/// tile costs one bound per station and the field kernel keeps its own
/// launch shape and registers; elsewhere one pass reads each tile for both
/// (potential::KernelPair, which has no tile bound).
template <typename Real, typename Source>
inline constexpr bool rounding_pass_apart =
    std::is_same<Real, double>::value && !std::is_same<Source, GridNode>::value;

/// The launch shape of the estimate's own pass (rounding_pass_apart) in the
/// CUDA drivers (bench/RESULTS.md, "The estimate's pass warp by warp").
using RoundingPassShape = potential::Shape<128, 0>;

/// Adds a bounded tile's terms to a group's two sums (add_rounding):
/// Σ(w·e)² ≤ e²·Σw², Σ(w·e)⁴ ≤ e⁴·Σw⁴ with e the tile's bound of the group.
GEOBEM_HD inline void add_tile_rounding(const RoundingTile& tile, double e, double acc[2]) {
  const double square = e * e;
  acc[0] += square * tile.squares;
  acc[1] += square * square * tile.fourth_powers;
}

/// e of the corner function of a grid node at the station (file comment),
/// per unit weight; infinite where a line distance is too small for Real to
/// square.
template <typename Real>
GEOBEM_HD inline void node_rounding_bounds(const GridNode& node, const Station& s, double e[3]) {
  using std::fabs;
  using std::log;
  using std::log1p;
  using std::sqrt;
  const double x = node.easting - s.easting, y = node.northing - s.northing, z = node.upward - s.upward;
  const double r = sqrt(x * x + y * y + z * z);
  const double lines2[3] = {y * y + z * z, x * x + z * z, x * x + y * y};
  // The asinh terms: ln(1 + 2r/ρ) for the nearest line off the station, the
  // finite part's |ln(√2·r)| for a line through it.
  double nearest2 = std::numeric_limits<double>::infinity(), logs = 0;
  for (const double rho2 : lines2) {
    if (rho2 == 0.0)
      logs = r == 0.0 ? 1.0 : 1 + fabs(log(1.4142135623730951 * r));
    else
      nearest2 = smaller(nearest2, rho2);
  }
  if (nearest2 < std::numeric_limits<double>::infinity()) {
    const double rho = sqrt(nearest2);
    if (static_cast<Real>(rho) * static_cast<Real>(rho) == Real(0)) {
      e[0] = e[1] = e[2] = std::numeric_limits<double>::infinity();
      return;
    }
    logs = larger(logs, log_bound(1 + 2 * r / rho));
  }
  const double tensor = 1.5707963267948966 + logs;
  e[group_potential] = r * r * tensor;
  e[group_g] = r * tensor;
  e[group_tensor] = tensor;
}

/// The launcher's kernel (gpu/potential/source_view.hpp) summing the two
/// rows per group of (|weight|·e) over prisms or grid nodes: rows 2g and
/// 2g + 1 for group g of Groups (bit g; the other rows stay zero: g_z alone
/// needs the g group only, and its kernel then carries no other terms). The
/// drivers run it in a pass of its own where its tile bound applies
/// (rounding_pass_apart), else in the field kernel's pass
/// (potential::KernelPair), one read of each source per station for both.
template <typename Real, unsigned Groups = all_rounding_groups>
struct RoundingKernel {
  static constexpr int outputs = 2 * rounding_groups;
  GEOBEM_HD bool wanted(int row) const { return (Groups >> (row / 2)) & 1u; }
  GEOBEM_HD void add(const Prism& p, const Station& s, double acc[6]) const {
    if (p.density == 0.0) return;
    double e[3];
    prism_rounding_bounds<Real>(p.west, p.east, p.south, p.north, p.bottom, p.top, s, e);
    add_groups(p.density, e, acc);
  }
  /// The tile bound of prisms in double (gpu/potential/source_view.hpp): a
  /// station farther from a tile's box than tile_reach of its largest side
  /// takes the box's bound (tile_rounding_bounds). Single precision stays per source: its
  /// estimates sit near the accuracy goal, where the coarser bound (about
  /// 1.3 to 2 times the per-source one) would warn at more stations
  /// (bench/RESULTS.md). Tiles of grid nodes stay per source: a node's e
  /// comes from its nearest axis-parallel line, which a box bounds only
  /// through a bound of its own (the grid path is not among the timed cases).
  using TileSummary = tile_bound_summary<Real>;
  GEOBEM_HD bool add_tile(const RoundingTile& tile, const Station& s, double acc[6]) const {
    if (tile.weighted == 0 && !tile.unbounded) return true;  // no weighted prism: add() adds nothing
    double e[3];
    if (!tile_rounding_bounds(tile, s, e)) return false;
    for (int g = 0; g < rounding_groups; ++g)
      if ((Groups >> g) & 1u) add_tile_rounding(tile, e[g], acc + 2 * g);
    return true;
  }
  GEOBEM_HD void summarize(const Prism& p, RoundingTile& tile) const {
    if (p.density != 0.0) add_to_rounding_tile(tile, p.west, p.east, p.south, p.north, p.bottom, p.top, p.density);
  }
  GEOBEM_HD void summarize(const GridNode&, RoundingTile& tile) const { tile.unbounded = true; }
  GEOBEM_HD void add(const GridNode& n, const Station& s, double acc[6]) const {
    double e[3];
    node_rounding_bounds<Real>(n, s, e);
    add_groups(n.weight, e, acc);
  }

 private:
  GEOBEM_HD static void add_groups(double weight, const double e[3], double acc[6]) {
    for (int g = 0; g < rounding_groups; ++g)
      if ((Groups >> g) & 1u) add_rounding(weight * e[g], acc + 2 * g);
  }
};

/// The RoundingKernel of a field kernel: the g group alone for g_z alone.
template <typename Real, bool GzOnly>
using FieldRoundingKernel = RoundingKernel<Real, GzOnly ? g_rounding_group : all_rounding_groups>;

/// Each station's distance from a box (west, east, south, north, bottom, top;
/// 0 inside it, +inf from an inverted, empty box), m: for the warnings.
std::vector<double> distances_from_box(const std::array<double, 6>& box, const std::vector<Station>& stations);

/// The most fields an estimate covers at once (the ten of gravity).
inline constexpr int max_estimated_fields = 10;

/// One station's relative estimates (assess_accuracy): estimate[f] for the
/// `fields` values at the station with groups[f] and absolute bounds
/// absolute[f] (NaN where the value is NaN): the bound over the largest
/// |finite value| of its group at the station, or survey_scale[f] (the
/// group's largest over the stations) where that is 0, less the bound;
/// +inf where that magnitude is not positive. Returns the largest estimate
/// (−1 when every value is NaN) and its first field in *worst_field.
GEOBEM_HD inline double station_estimates(int fields, const int* groups, const double* values,
                                          const double* absolute, const double* survey_scale, double* estimate,
                                          int* worst_field) {
  using std::fabs;
  using std::isfinite;
  using std::isnan;
  double worst = -1;
  for (int f = 0; f < fields; ++f) {
    if (isnan(values[f])) {
      estimate[f] = values[f];
      continue;
    }
    double scale = 0;
    for (int g = 0; g < fields; ++g)
      if (groups[g] == groups[f] && isfinite(values[g])) scale = larger(scale, fabs(values[g]));
    // Relative to the smallest magnitude the group can have, so that a
    // value swamped by its error cannot make the estimate look small.
    const double magnitude = (scale > 0 ? scale : survey_scale[f]) - absolute[f];
    estimate[f] = magnitude > 0 ? absolute[f] / magnitude : std::numeric_limits<double>::infinity();
    if (estimate[f] > worst) {
      worst = estimate[f];
      *worst_field = f;
    }
  }
  return worst;
}

/// What the warnings of assess_accuracy say, over the stations: those whose
/// largest estimate exceeds accuracy_goal (`missing`), the largest estimate
/// (`worst`, −1 when none is defined) with its field and station (the
/// first station, then the first field, that reach it), the smallest of the
/// stations' largest estimates (`best_station`) and whether any station has
/// a defined value.
struct AccuracySummary {
  std::size_t missing = 0, worst_field = 0, worst_station = 0;
  double worst = -1, best_station = std::numeric_limits<double>::infinity();
  bool any_defined = false;
};

/// The warning sentences of a summary (assess_accuracy) for fields `names`,
/// `worst_distance` (m) the worst station's distance from the model. Throws
/// InputError::usage for single precision where no station meets
/// single_precision_floor, unless `force`.
std::vector<std::string> accuracy_warnings(const AccuracySummary& summary, const std::vector<const char*>& names,
                                           Precision precision, bool force, double worst_distance);

/// The fields of a complete result (every source summed) with their groups
/// and absolute error bounds (absolute[f][s], the fields' units): fills
/// `estimate` (relative: absolute over m − absolute, m the largest |value|
/// of the field's group among `values` at the station, or over the stations
/// where the group vanishes at the station, so that it bounds the error
/// relative to the true magnitude too; +inf where m is within the bound, NaN
/// where the value is NaN) and
/// returns the warning sentences (stations above accuracy_goal(precision),
/// with the largest estimate, its field, station and distance from the
/// model). Throws InputError::usage for single precision where no station
/// meets single_precision_floor, unless `force`.
std::vector<std::string> assess_accuracy(const std::vector<const char*>& names, const std::vector<int>& groups,
                                         const std::vector<std::vector<double>>& values,
                                         const std::vector<std::vector<double>>& absolute,
                                         const RoundingBudget& budget, std::vector<std::vector<double>>& estimate);

}  // namespace geobem::gravity

#pragma once
// Stations on a face, an edge or a vertex of a model (a prism list, a voxel
// grid, a prism layer; densities or magnetizations): which side the survey
// sees, and which tensor terms have no limit there.
//
// The drivers return the limit of the model's field as the station moves off
// along (+1, +1, +1) (prism_kernels.hpp). Around the station the model is
// eight octants of constant density f(o) (octant o: bit 0 easting +, bit 1
// northing +, bit 2 upward +). Written in the Walsh basis,
// f = c0 + Σ_a c_a s_a + Σ_ab c_ab s_a s_b + c_enu s_e s_n s_u (s_a = ±1 the
// octant's side along axis a), each term is a geometry of its own: c_a a
// plane through the station normal to a (a face), c_ab an edge along the third
// axis, c_enu a vertex. Hence (Poisson's equation, ∇²U = −4πρ, and the
// closed forms of Nagy et al. 2000 near an edge or vertex):
//  * the potential and g are continuous: the drivers' value is the limit;
//  * a face normal to a (c_a ≠ 0) makes T_aa jump: T_aa(+) − T_aa(−) =
//    −4π(f(+a) − f(−a)) = −8π·c_a; the other entries are continuous there;
//  * an edge along c (c_ab ≠ 0) leaves T_aa and T_bb depending on the
//    direction of approach and T_ab diverging like ln of the distance: no
//    limit (NaN); T_cc, T_ac, T_bc are continuous along it;
//  * a vertex (c_enu ≠ 0) leaves every tensor entry without a limit (NaN).
// Where a face is the only geometry through an axis, T_aa is returned as the
// limit from the side the survey sees: the first empty octant (no source
// there; for a prism layer, above its terrain surface) in the order +u before
// −u, then +e, then +n — above a top face, outside a side face, below a bottom
// face, as Harmonica's prism functions take it (choclo, the limit "approaching
// from outside"). With no empty octant the station is inside the model on a
// face between two different densities: T_aa is NaN there too (the two-sided
// mean is the limit from neither side). A face between equal densities is no
// face: c_a = 0, and the value is the field, continuous there.
// docs/references.md#singular-stations states the rule with its sources.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "gpu/core/host_device.hpp"

#include "gpu/gravity/prism.hpp"
#include "gpu/gravity/prism_layer.hpp"

namespace geobem::gravity {

/// Hessian entries in the order of the tensor fields (g_ee, g_en, g_ez,
/// g_nn, g_nz, g_zz): bit i of a TensorEntries mask is field row 4 + i.
enum TensorEntry : unsigned { entry_ee = 1u, entry_en = 2u, entry_eu = 4u, entry_nn = 8u, entry_nu = 16u, entry_uu = 32u };
/// The TensorEntry bit of Hessian entry (a, b), axes 0 easting, 1 northing, 2 upward.
unsigned tensor_entry(int a, int b);

/// The eight octants around a station: value[c][o], the sum of component c
/// (a density, or one magnetization component) of the sources containing
/// octant o, and occupied, bit o set where a source with a nonzero value is
/// there (for a prism layer: where the octant lies below its terrain surface).
template <int Components>
struct Octants {
  double value[Components][8] = {};
  unsigned occupied = 0;
};

/// What the analysis of one station's octants decides, per component: the
/// Hessian entries without a limit (NaN), those of them undefined only for
/// want of an empty side (inside the model on a face between different
/// densities), and shift[c][a], to add to entry (a, a) of component c: the
/// survey side's limit minus the drivers' (+, +, +) one.
template <int Components>
struct StationLimit {
  std::size_t station = 0;
  unsigned undefined[Components] = {};
  unsigned interior[Components] = {};
  double shift[Components][3] = {};
};

/// The analysis of the octants (file comment); false when the station needs
/// nothing (no face, edge or vertex of the model through it). Walsh
/// coefficients below 1e-12 of the largest |value| count as zero (sums of
/// densities that agree but for rounding).
template <int Components>
bool analyse_octants(const Octants<Components>& octants, StationLimit<Components>& limit);

/// The stations of a model that need a StationLimit, in station order.
template <int Components>
using StationLimits = std::vector<StationLimit<Components>>;

/// An axis-aligned box (west, east, south, north, bottom, top; m).
using Box = std::array<double, 6>;

/// Whether some station lies in the closed box (an inverted, empty box holds
/// none): only then can a station touch a source inside it, so a caller
/// without one needs no limits and builds nothing for them.
bool any_station_in(const Box& box, const std::vector<Station>& stations);

/// The limits at the stations of a list of sources (boxes with weights per
/// component: densities, or magnetization components). Each box bound is
/// looked up among the stations' sorted coordinates (O(boxes log stations))
/// to find the stations that can touch a box; only then
/// is an index of the boxes built (a uniform grid of buckets, about one per
/// box, each box in the buckets it overlaps or in a short list of boxes that
/// overlap more than 64), and each such station's octants are summed over
/// the boxes of its bucket that contain it. Nothing of this where no station
/// lies in the boxes' bounding box (O(boxes + stations)). Memory O(boxes).
template <int Components>
StationLimits<Components> list_station_limits(const std::vector<Box>& boxes,
                                              const std::vector<std::array<double, Components>>& weights,
                                              const std::vector<Station>& stations);

/// The limits at the stations of a voxel grid of densities (cells outside
/// the grid, and cells of density 0, are empty).
StationLimits<1> grid_station_limits(const PrismGrid& grid, const std::vector<Station>& stations);

/// The limits at the stations of a prism layer; `weights_above` and
/// `weights_below` per component for its cells above and below the reference
/// (densities, or magnetizations). An octant is empty where it lies above the
/// terrain surface of its cell (or outside the layer, or over a skipped
/// cell), so a station on the terrain sees it from above whichever side of
/// the reference it is on.
template <int Components>
StationLimits<Components> layer_station_limits(const LayerGeometry& geometry, const std::vector<double>& surface,
                                               const std::array<double, Components>& weights_above,
                                               const std::array<double, Components>& weights_below,
                                               const std::vector<Station>& stations);

/// Whether a station lies on the closed boundary of a box: within its closed
/// extent on every axis and on one of its bounds on some axis. Only such
/// stations can need a StationLimit (a station inside every box containing
/// it sees one density all around).
GEOBEM_HD inline bool on_box_boundary(double west, double east, double south, double north, double bottom,
                                      double top, const Station& s) {
  const bool within = west <= s.easting && s.easting <= east && south <= s.northing && s.northing <= north &&
                      bottom <= s.upward && s.upward <= top;
  return within && (s.easting == west || s.easting == east || s.northing == south || s.northing == north ||
                    s.upward == bottom || s.upward == top);
}

/// Applies one station's density limit to the ten raw rows of the gravity
/// drivers (sums[f·n + s], rows of `mask` only): the shifts to g_ee, g_nn,
/// g_zz and NaN for undefined entries. Host and device.
GEOBEM_HD inline void apply_station_limit(const StationLimit<1>& limit, unsigned mask, double* sums, std::size_t n) {
  constexpr int first_tensor_row = 4;
  const int diagonal_entry[3] = {0, 3, 5};  // ee, nn, uu: bits of TensorEntry, rows 4 + bit
  for (int a = 0; a < 3; ++a) {
    const int row = first_tensor_row + diagonal_entry[a];
    if (limit.shift[0][a] != 0.0 && (mask & (1u << row))) sums[row * n + limit.station] += limit.shift[0][a];
  }
  for (int bit = 0; bit < 6; ++bit) {
    const int row = first_tensor_row + bit;
    if ((limit.undefined[0] & (1u << bit)) && (mask & (1u << row)))
      sums[row * n + limit.station] = std::numeric_limits<double>::quiet_NaN();
  }
}

/// apply_station_limit for each limit of a list.
void apply_station_limits(const StationLimits<1>& limits, unsigned mask, std::vector<double>& sums, std::size_t n);

}  // namespace geobem::gravity

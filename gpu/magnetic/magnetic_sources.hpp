#pragma once
// What the source × station launcher (gpu/potential/source_view.hpp) sums
// for magnetic prisms: a view over a layer's heights (a prism list is a
// potential::ListView), the kernel adding T·M (magnetic_kernels.hpp) and the
// one summing its rounding bounds (rounding_estimate.hpp).
#include <array>
#include <cmath>
#include <cstdint>

#include "gpu/core/host_device.hpp"
#include "gpu/gravity/prism_layer.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/magnetic/magnetic_kernels.hpp"

namespace geobem::magnetic {

/// Cells `first …` of a magnetized layer, their heights at `surface`.
struct MagneticLayerView {
  using Item = MagnetizedPrism;
  gravity::LayerGeometry geometry;
  double above[3], below[3];
  const double* surface;
  std::int64_t first;
  GEOBEM_HD MagnetizedPrism item(std::int64_t index) const {
    const double s = surface[index];
    const gravity::Prism p = gravity::layer_prism(geometry, first + index, s);
    const double* m = s > geometry.reference ? above : below;
    const bool empty = !(s > geometry.reference || s < geometry.reference);  // on the reference or NaN
    return {p.west, p.east, p.south, p.north, p.bottom, p.top, empty ? 0.0 : m[0], empty ? 0.0 : m[1],
            empty ? 0.0 : m[2]};
  }
};

/// Σ T·M into acc[0..2] (e, n, u); prisms without magnetization are skipped.
template <typename Real>
struct MagneticKernel {
  static constexpr int outputs = 3;
  GEOBEM_HD bool wanted(int) const { return true; }
  GEOBEM_HD void add(const MagnetizedPrism& p, const gravity::Station& s, double acc[3]) const {
    if (p.magnetization_e == 0.0 && p.magnetization_n == 0.0 && p.magnetization_u == 0.0) return;
    add_magnetic_fields<Real>(p, s, acc);
  }
};

/// The two sums of the rounding bounds of the field over prisms
/// (rounding_estimate.hpp: w·e = Σ_j |M_j| · e_T, each component of b being
/// Σ_j T_ij·M_j): two rows, Σ(w·e)² and Σ(w·e)⁴.
template <typename Real>
struct MagneticRoundingKernel {
  static constexpr int outputs = 2;
  using TileSummary = gravity::tile_bound_summary<Real>;  // double only (gravity::RoundingKernel)
  GEOBEM_HD bool wanted(int) const { return true; }
  GEOBEM_HD void add(const MagnetizedPrism& p, const gravity::Station& s, double acc[2]) const {
    const double m = weight(p);
    if (m == 0.0) return;
    double e[3];
    gravity::prism_rounding_bounds<Real>(p.west, p.east, p.south, p.north, p.bottom, p.top, s, e);
    gravity::add_rounding(m * e[gravity::group_tensor], acc);
  }
  /// The tile bound (gpu/potential/source_view.hpp, gravity::tile_rounding_bounds)
  /// of the tensor group, as rows 0 and 1.
  GEOBEM_HD bool add_tile(const gravity::RoundingTile& tile, const gravity::Station& s, double acc[2]) const {
    if (tile.weighted == 0 && !tile.unbounded) return true;  // no magnetized prism: add() adds nothing
    double e[3];
    if (!gravity::tile_rounding_bounds(tile, s, e)) return false;
    gravity::add_tile_rounding(tile, e[gravity::group_tensor], acc);
    return true;
  }
  GEOBEM_HD void summarize(const MagnetizedPrism& p, gravity::RoundingTile& tile) const {
    const double m = weight(p);
    if (m != 0.0) gravity::add_to_rounding_tile(tile, p.west, p.east, p.south, p.north, p.bottom, p.top, m);
  }

 private:
  /// Σ_j |M_j|, the prism's weight in the bound.
  GEOBEM_HD static double weight(const MagnetizedPrism& p) {
    using std::fabs;
    return fabs(p.magnetization_e) + fabs(p.magnetization_n) + fabs(p.magnetization_u);
  }
};

/// The view of cells `first …` of a layer magnetized `above` and `below` the reference.
inline MagneticLayerView magnetic_layer_view(const gravity::LayerGeometry& geometry,
                                             const std::array<double, 3>& above,
                                             const std::array<double, 3>& below, const double* surface,
                                             std::int64_t first) {
  MagneticLayerView view{geometry, {above[0], above[1], above[2]}, {below[0], below[1], below[2]}, surface, first};
  return view;
}

}  // namespace geobem::magnetic

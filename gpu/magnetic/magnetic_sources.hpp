#pragma once
// What the tile drivers (gpu/gravity tile_sums_cpu.hpp, tile_sums_cuda.cuh)
// sum for magnetic prisms: views over a prism list or a layer's heights, and
// the kernel adding T·M (magnetic_kernels.hpp).
#include <array>
#include <cstdint>

#include "gpu/core/host_device.hpp"
#include "gpu/gravity/prism_layer.hpp"
#include "gpu/magnetic/magnetic_kernels.hpp"

namespace geobem::magnetic {

/// A chunk of a prism list.
struct PrismListView {
  using Item = MagnetizedPrism;
  const MagnetizedPrism* prisms;
  GEOBEM_HD MagnetizedPrism item(std::int64_t index) const { return prisms[index]; }
};

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

/// The view of cells `first …` of a layer magnetized `above` and `below` the reference.
inline MagneticLayerView magnetic_layer_view(const gravity::LayerGeometry& geometry,
                                             const std::array<double, 3>& above,
                                             const std::array<double, 3>& below, const double* surface,
                                             std::int64_t first) {
  MagneticLayerView view{geometry, {above[0], above[1], above[2]}, {below[0], below[1], below[2]}, surface, first};
  return view;
}

}  // namespace geobem::magnetic

#pragma once
// What the tile drivers (tile_sums_cpu.hpp, tile_sums_cuda.cuh) sum for the
// gravity of a prism layer: the view forms each cell's prism from its surface
// height (layer_prism), the kernel adds density × prism_fields (the point
// kernels of the prism-list path, prism_kernels.hpp) for non-empty cells.
#include <cstdint>

#include "gpu/core/host_device.hpp"
#include "gpu/gravity/prism_kernels.hpp"
#include "gpu/gravity/prism_layer.hpp"
#include "gpu/gravity/source_fields.hpp"

namespace geobem::gravity {

/// Cells `first …` of a layer, their heights at `surface` (one chunk of them).
struct LayerView {
  using Item = Prism;
  LayerGeometry geometry;
  const double* surface;
  std::int64_t first;
  GEOBEM_HD Prism item(std::int64_t index) const { return layer_prism(geometry, first + index, surface[index]); }
};

/// Σ density · prism_fields for the fields of `mask` (FieldBit), in Real
/// arithmetic with station-relative bounds formed in double. GzOnly fixes the
/// mask at compile time (terrain_bench's long-double g_z reference, whole
/// prisms: the drivers take g_z alone face by face, layer_faces.hpp).
template <typename Real, bool GzOnly>
struct GravityKernel {
  static constexpr int outputs = 10;
  unsigned mask;
  GEOBEM_HD bool wanted(int f) const { return (GzOnly ? unsigned(bit_g_z) : mask) & (1u << f); }
  GEOBEM_HD void add(const Prism& prism, const Station& station, double acc[10]) const {
    if (prism.density == 0.0) return;  // empty cell (uniform across a warp: one tile item)
    const unsigned m = GzOnly ? unsigned(bit_g_z) : mask;
    Real values[10] = {};
    source_fields<Real>(prism, station, m, values);
    for (int f = 0; f < 10; ++f)
      if (m & (1u << f)) acc[f] += prism.density * static_cast<double>(values[f]);
  }
};

}  // namespace geobem::gravity

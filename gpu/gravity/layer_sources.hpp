#pragma once
// What the source × station launcher (gpu/potential/source_view.hpp) sums
// for the gravity of a prism layer: the view forms each cell's prism from its
// surface height (layer_prism), the kernel adds density × prism_fields (the
// kernel of the prism-list path, source_fields.hpp) for non-empty cells.
#include <cstdint>

#include "gpu/core/host_device.hpp"
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

/// FieldSumsKernel over a layer's cells, empty cells (density 0: NaN or
/// on the reference) skipped. GzOnly: terrain_bench's long-double g_z
/// reference, whole prisms (the drivers take g_z alone face by face,
/// layer_faces.hpp).
template <typename Real, bool GzOnly>
struct LayerFieldsKernel {
  static constexpr int outputs = 10;
  FieldSumsKernel<Real, GzOnly> fields;
  GEOBEM_HD bool wanted(int f) const { return fields.wanted(f); }
  GEOBEM_HD void add(const Prism& prism, const Station& station, double acc[10]) const {
    if (prism.density == 0.0) return;  // empty cell (uniform across a warp: one tile item)
    fields.add(prism, station, acc);
  }
};

}  // namespace geobem::gravity

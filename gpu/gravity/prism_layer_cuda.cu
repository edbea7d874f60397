// CUDA driver of the prism layer: the surface heights stream to the device in
// chunks (tile_sums_cuda.cuh) and each thread forms its tile's prisms from
// them (LayerView), so the device never holds a prism list.
#include "gpu/gravity/layer_sources.hpp"
#include "gpu/gravity/prism_layer_forward.hpp"
#include "gpu/gravity/tile_sums_cuda.cuh"

namespace geobem::gravity {
namespace {

template <typename Real>
std::vector<double> run(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                        const std::vector<Station>& stations, unsigned mask, ProgressReporter& progress,
                        std::size_t memory_limit_bytes) {
  // The heights of this share only: the stored data the driver streams.
  const std::vector<double> surface(layer.surface.begin() + first, layer.surface.begin() + first + count);
  const auto make_view = [&](const double* chunk, std::int64_t index) {
    return LayerView{layer.geometry, chunk, first + index};
  };
  // g_z alone: 64 registers per thread, the prism-list driver's fastest
  // double shape on the H100 (bench/RESULTS.md); float keeps the compiler's.
  if (mask == unsigned(bit_g_z))
    return stream_tile_sums<std::is_same<Real, double>::value ? 64 : 0>(
        surface, stations, make_view, GravityKernel<Real, true>{mask}, memory_limit_bytes, progress);
  return stream_tile_sums<0>(surface, stations, make_view, GravityKernel<Real, false>{mask}, memory_limit_bytes,
                             progress);
}

}  // namespace

std::vector<double> layer_sums_cuda(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                                    const std::vector<Station>& stations, unsigned mask, Precision precision,
                                    ProgressReporter& progress, std::size_t memory_limit_bytes) {
  return precision == Precision::Single
             ? run<float>(layer, first, count, stations, mask, progress, memory_limit_bytes)
             : run<double>(layer, first, count, stations, mask, progress, memory_limit_bytes);
}

}  // namespace geobem::gravity

// CUDA driver of the rounding estimates: the tile driver (tile_sums_cuda.cuh)
// with RoundingKernel over a prism list, grid nodes or a layer's cells.
#include "gpu/gravity/layer_sources.hpp"
#include "gpu/gravity/rounding_estimate_cuda.hpp"
#include "gpu/gravity/tile_sums_cuda.cuh"

namespace geobem::gravity {
namespace {

template <typename Source>
std::vector<double> list_sums(const std::vector<Source>& sources, const std::vector<Station>& stations,
                                 Precision precision, std::size_t memory_limit_bytes) {
  ProgressReporter silent("", 1, "", true);
  const auto view = [](const Source* chunk, std::int64_t) { return ListView<Source>{chunk}; };
  return precision == Precision::Single
             ? stream_tile_sums<0>(sources, stations, view, RoundingKernel<float>{}, memory_limit_bytes, silent)
             : stream_tile_sums<0>(sources, stations, view, RoundingKernel<double>{}, memory_limit_bytes, silent);
}

}  // namespace

std::vector<double> rounding_sums_cuda(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                                          Precision precision, std::size_t memory_limit_bytes) {
  return list_sums(prisms, stations, precision, memory_limit_bytes);
}

std::vector<double> rounding_sums_cuda(const std::vector<GridNode>& nodes, const std::vector<Station>& stations,
                                          Precision precision, std::size_t memory_limit_bytes) {
  return list_sums(nodes, stations, precision, memory_limit_bytes);
}

std::vector<double> rounding_sums_cuda(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                                          const std::vector<Station>& stations, Precision precision,
                                          std::size_t memory_limit_bytes) {
  ProgressReporter silent("", 1, "", true);
  const std::vector<double> surface(layer.surface.begin() + first, layer.surface.begin() + first + count);
  const auto view = [&](const double* chunk, std::int64_t index) {
    return LayerView{layer.geometry, chunk, first + index};
  };
  return precision == Precision::Single
             ? stream_tile_sums<0>(surface, stations, view, RoundingKernel<float>{}, memory_limit_bytes, silent)
             : stream_tile_sums<0>(surface, stations, view, RoundingKernel<double>{}, memory_limit_bytes, silent);
}

}  // namespace geobem::gravity

// CUDA driver of the rounding estimates: the source × station launcher
// (gpu/potential/station_sums_cuda.cuh) with RoundingKernel over a prism
// list, grid nodes or a layer's cells.
#include "gpu/gravity/layer_sources.hpp"
#include "gpu/gravity/rounding_estimate_cuda.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cuda.cuh"

namespace geobem::gravity {
namespace {

/// RoundingKernel in `precision` over `stored` (make_view: station_sums_cuda's).
template <typename Stored, typename MakeView>
std::vector<double> sums(const std::vector<Stored>& stored, const MakeView& make_view,
                         const std::vector<Station>& stations, Precision precision, std::size_t memory_limit_bytes) {
  ProgressReporter silent("", 1, "", true);
  potential::LaunchOptions launch;
  launch.memory_limit_bytes = memory_limit_bytes;
  return precision == Precision::Single
             ? potential::station_sums_cuda<128, 0>(stored, stations, make_view, RoundingKernel<float>{}, launch, silent)
             : potential::station_sums_cuda<128, 0>(stored, stations, make_view, RoundingKernel<double>{}, launch,
                                                    silent);
}

}  // namespace

std::vector<double> rounding_sums_cuda(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                                       Precision precision, std::size_t memory_limit_bytes) {
  return sums(prisms, potential::ListChunks{}, stations, precision, memory_limit_bytes);
}

std::vector<double> rounding_sums_cuda(const std::vector<GridNode>& nodes, const std::vector<Station>& stations,
                                       Precision precision, std::size_t memory_limit_bytes) {
  return sums(nodes, potential::ListChunks{}, stations, precision, memory_limit_bytes);
}

std::vector<double> rounding_sums_cuda(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                                       const std::vector<Station>& stations, Precision precision,
                                       std::size_t memory_limit_bytes) {
  const std::vector<double> surface(layer.surface.begin() + first, layer.surface.begin() + first + count);
  const auto view = [&](const double* chunk, std::int64_t index) {
    return LayerView{layer.geometry, chunk, first + index};
  };
  return sums(surface, view, stations, precision, memory_limit_bytes);
}

}  // namespace geobem::gravity

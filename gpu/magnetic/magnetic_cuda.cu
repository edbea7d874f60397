// CUDA drivers of the magnetic prisms: the tile driver of the gravity layer
// (tile_sums_cuda.cuh) over a prism list or a layer's heights, streamed in
// chunks within the device memory budget, for the field and for its rounding
// bounds.
#include "gpu/gravity/tile_sums_cuda.cuh"
#include "gpu/magnetic/magnetic.hpp"
#include "gpu/magnetic/magnetic_sources.hpp"

namespace geobem::magnetic {
namespace {

template <typename Real>
std::vector<double> list_cuda(const std::vector<MagnetizedPrism>& prisms, const std::vector<gravity::Station>& stations,
                              ProgressReporter& progress, std::size_t memory_limit_bytes) {
  const auto make_view = [](const MagnetizedPrism* chunk, std::int64_t) { return gravity::ListView<MagnetizedPrism>{chunk}; };
  return gravity::stream_tile_sums<0>(prisms, stations, make_view, MagneticKernel<Real>{}, memory_limit_bytes,
                                      progress);
}

template <typename Real>
std::vector<double> layer_cuda(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                               const std::vector<gravity::Station>& stations, ProgressReporter& progress,
                               std::size_t memory_limit_bytes) {
  const std::vector<double> surface(layer.layer.surface.begin() + first, layer.layer.surface.begin() + first + count);
  const auto make_view = [&](const double* chunk, std::int64_t index) {
    return magnetic_layer_view(layer.layer.geometry, layer.magnetization_above, layer.magnetization_below, chunk,
                               first + index);
  };
  return gravity::stream_tile_sums<0>(surface, stations, make_view, MagneticKernel<Real>{}, memory_limit_bytes,
                                      progress);
}

template <typename Real>
std::vector<double> list_sums(const std::vector<MagnetizedPrism>& prisms,
                                 const std::vector<gravity::Station>& stations, std::size_t memory_limit_bytes) {
  ProgressReporter silent("", 1, "", true);
  const auto make_view = [](const MagnetizedPrism* chunk, std::int64_t) { return gravity::ListView<MagnetizedPrism>{chunk}; };
  return gravity::stream_tile_sums<0>(prisms, stations, make_view, MagneticRoundingKernel<Real>{}, memory_limit_bytes,
                                      silent);
}

template <typename Real>
std::vector<double> layer_sums_of_bounds(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                                  const std::vector<gravity::Station>& stations, std::size_t memory_limit_bytes) {
  ProgressReporter silent("", 1, "", true);
  const std::vector<double> surface(layer.layer.surface.begin() + first, layer.layer.surface.begin() + first + count);
  const auto make_view = [&](const double* chunk, std::int64_t index) {
    return magnetic_layer_view(layer.layer.geometry, layer.magnetization_above, layer.magnetization_below, chunk,
                               first + index);
  };
  return gravity::stream_tile_sums<0>(surface, stations, make_view, MagneticRoundingKernel<Real>{}, memory_limit_bytes,
                                      silent);
}

}  // namespace

std::vector<double> magnetic_rounding_sums_cuda(const std::vector<MagnetizedPrism>& prisms,
                                                   const std::vector<gravity::Station>& stations,
                                                   gravity::Precision precision, std::size_t memory_limit_bytes) {
  return precision == gravity::Precision::Single ? list_sums<float>(prisms, stations, memory_limit_bytes)
                                                 : list_sums<double>(prisms, stations, memory_limit_bytes);
}

std::vector<double> magnetic_rounding_sums_cuda(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                                                   const std::vector<gravity::Station>& stations,
                                                   gravity::Precision precision, std::size_t memory_limit_bytes) {
  return precision == gravity::Precision::Single
             ? layer_sums_of_bounds<float>(layer, first, count, stations, memory_limit_bytes)
             : layer_sums_of_bounds<double>(layer, first, count, stations, memory_limit_bytes);
}

std::vector<double> magnetic_sums_cuda(const std::vector<MagnetizedPrism>& prisms,
                                       const std::vector<gravity::Station>& stations, gravity::Precision precision,
                                       ProgressReporter& progress, std::size_t memory_limit_bytes) {
  return precision == gravity::Precision::Single ? list_cuda<float>(prisms, stations, progress, memory_limit_bytes)
                                                 : list_cuda<double>(prisms, stations, progress, memory_limit_bytes);
}

std::vector<double> magnetic_layer_sums_cuda(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                                             const std::vector<gravity::Station>& stations,
                                             gravity::Precision precision, ProgressReporter& progress,
                                             std::size_t memory_limit_bytes) {
  return precision == gravity::Precision::Single
             ? layer_cuda<float>(layer, first, count, stations, progress, memory_limit_bytes)
             : layer_cuda<double>(layer, first, count, stations, progress, memory_limit_bytes);
}

}  // namespace geobem::magnetic

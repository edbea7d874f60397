// CUDA drivers of the magnetic prisms: the source × station launcher
// (gpu/potential/station_sums_cuda.cuh) over a prism list or a layer's
// heights, streamed in chunks within the device memory budget, for the field
// and for its rounding bounds.
#include "gpu/magnetic/magnetic.hpp"
#include "gpu/magnetic/magnetic_sources.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cuda.cuh"

namespace geobem::magnetic {
namespace {

/// Kernel<Real> for Real of `precision` over `stored` (make_view: station_sums_cuda's).
template <template <typename> class Kernel, typename Stored, typename MakeView>
std::vector<double> sums(const std::vector<Stored>& stored, const MakeView& make_view,
                         const std::vector<gravity::Station>& stations, gravity::Precision precision,
                         ProgressReporter& progress, std::size_t memory_limit_bytes) {
  potential::LaunchOptions launch;
  launch.memory_limit_bytes = memory_limit_bytes;
  return precision == gravity::Precision::Single
             ? potential::station_sums_cuda<128, 0>(stored, stations, make_view, Kernel<float>{}, launch, progress)
             : potential::station_sums_cuda<128, 0>(stored, stations, make_view, Kernel<double>{}, launch, progress);
}

/// Kernel<Real> over cells [first, first + count) of the layer: their heights
/// are the stored data, each thread forms its cells' prisms.
template <template <typename> class Kernel>
std::vector<double> layer_sums(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                               const std::vector<gravity::Station>& stations, gravity::Precision precision,
                               ProgressReporter& progress, std::size_t memory_limit_bytes) {
  const std::vector<double> surface(layer.layer.surface.begin() + first, layer.layer.surface.begin() + first + count);
  const auto make_view = [&](const double* chunk, std::int64_t index) {
    return magnetic_layer_view(layer.layer.geometry, layer.magnetization_above, layer.magnetization_below, chunk,
                               first + index);
  };
  return sums<Kernel>(surface, make_view, stations, precision, progress, memory_limit_bytes);
}

}  // namespace

std::vector<double> magnetic_rounding_sums_cuda(const std::vector<MagnetizedPrism>& prisms,
                                                const std::vector<gravity::Station>& stations,
                                                gravity::Precision precision, std::size_t memory_limit_bytes) {
  ProgressReporter silent("", 1, "", true);
  return sums<MagneticRoundingKernel>(prisms, potential::ListChunks{}, stations, precision, silent,
                                      memory_limit_bytes);
}

std::vector<double> magnetic_rounding_sums_cuda(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                                                const std::vector<gravity::Station>& stations,
                                                gravity::Precision precision, std::size_t memory_limit_bytes) {
  ProgressReporter silent("", 1, "", true);
  return layer_sums<MagneticRoundingKernel>(layer, first, count, stations, precision, silent, memory_limit_bytes);
}

std::vector<double> magnetic_sums_cuda(const std::vector<MagnetizedPrism>& prisms,
                                       const std::vector<gravity::Station>& stations, gravity::Precision precision,
                                       ProgressReporter& progress, std::size_t memory_limit_bytes) {
  return sums<MagneticKernel>(prisms, potential::ListChunks{}, stations, precision, progress, memory_limit_bytes);
}

std::vector<double> magnetic_layer_sums_cuda(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                                             const std::vector<gravity::Station>& stations,
                                             gravity::Precision precision, ProgressReporter& progress,
                                             std::size_t memory_limit_bytes) {
  return layer_sums<MagneticKernel>(layer, first, count, stations, precision, progress, memory_limit_bytes);
}

}  // namespace geobem::magnetic

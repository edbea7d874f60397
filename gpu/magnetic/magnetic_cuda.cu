// CUDA drivers of the magnetic prisms: the source × station launcher
// (gpu/potential/station_sums_cuda.cuh) over a prism list or a layer's
// heights, streamed in chunks within the device memory budget, for the field
// alone or with its rounding bounds (a pass of their own in double, the same
// pass in single).
#include <tuple>
#include <type_traits>

#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/magnetic/magnetic.hpp"
#include "gpu/magnetic/magnetic_shapes.hpp"
#include "gpu/magnetic/magnetic_sources.hpp"
#include "gpu/potential/kernel_pair.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cuda.cuh"

namespace geobem::magnetic {
namespace {

/// MagneticKernel in Real over `stored` (make_view: station_sums_cuda's) in
/// one of `shapes` (double; {0, 0}: DefaultFieldShape; single precision runs
/// {128, 0}), with MagneticRoundingKernel where `rounding` is given: in
/// double in a pass of its own (its tile bound: one bound per station and
/// tile of far prisms), in single in the field's pass.
template <typename Real, typename Shapes, typename Stored, typename MakeView>
std::vector<double> sums_in(Shapes, const KernelShape& shape, const std::vector<Stored>& stored,
                            const MakeView& make_view, const std::vector<gravity::Station>& stations,
                            ProgressReporter& progress, const potential::LaunchOptions& launch,
                            std::vector<double>* rounding) {
  constexpr bool is_double = std::is_same<Real, double>::value;
  using Compiled = std::conditional_t<is_double, Shapes, std::tuple<Shape<128, 0>>>;
  const KernelShape resolved =
      shape.block_size != 0 ? shape : (is_double ? DefaultFieldShape::value : KernelShape{128, 0});
  if constexpr (!gravity::rounding_pass_apart<Real, MagnetizedPrism>) {
    if (rounding) {
      using Pair = potential::KernelPair<MagneticKernel<Real>, MagneticRoundingKernel<Real>>;
      return potential::split_rows(potential::station_sums_cuda_in(Compiled{}, resolved, "magnetic drivers", stored,
                                                                   stations, make_view, Pair{}, launch, progress),
                                   MagneticKernel<Real>::outputs, stations.size(), *rounding);
    }
  } else if (rounding) {
    ProgressReporter silent("", 1, "", true);  // progress counts the field's pairs
    using Pass = gravity::RoundingPassShape;
    *rounding = potential::station_sums_cuda<Pass::block, Pass::max_registers>(
        stored, stations, make_view, MagneticRoundingKernel<Real>{}, launch, silent);
  }
  return potential::station_sums_cuda_in(Compiled{}, resolved, "magnetic drivers", stored, stations, make_view,
                                         MagneticKernel<Real>{}, launch, progress);
}

/// sums_in for Real of `precision`.
template <typename Shapes, typename Stored, typename MakeView>
std::vector<double> sums(Shapes shapes, const KernelShape& shape, const std::vector<Stored>& stored,
                         const MakeView& make_view, const std::vector<gravity::Station>& stations,
                         gravity::Precision precision, ProgressReporter& progress, std::size_t memory_limit_bytes,
                         std::vector<double>* rounding) {
  potential::LaunchOptions launch;
  launch.memory_limit_bytes = memory_limit_bytes;
  return precision == gravity::Precision::Single
             ? sums_in<float>(shapes, shape, stored, make_view, stations, progress, launch, rounding)
             : sums_in<double>(shapes, shape, stored, make_view, stations, progress, launch, rounding);
}

}  // namespace

std::vector<double> magnetic_sums_cuda(const std::vector<MagnetizedPrism>& prisms,
                                       const std::vector<gravity::Station>& stations, gravity::Precision precision,
                                       ProgressReporter& progress, std::size_t memory_limit_bytes,
                                       std::vector<double>* rounding) {
  return sums(std::tuple<DefaultFieldShape>{}, KernelShape{}, prisms, potential::ListChunks{}, stations, precision,
              progress, memory_limit_bytes, rounding);
}

std::vector<double> magnetic_layer_sums_cuda(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                                             const std::vector<gravity::Station>& stations,
                                             gravity::Precision precision, ProgressReporter& progress,
                                             std::size_t memory_limit_bytes, std::vector<double>* rounding,
                                             const KernelShape& shape) {
  // The heights of this share are the stored data; each thread forms its cells' prisms.
  const std::vector<double> surface(layer.layer.surface.begin() + first, layer.layer.surface.begin() + first + count);
  const auto make_view = [&](const double* chunk, std::int64_t index) {
    return magnetic_layer_view(layer.layer.geometry, layer.magnetization_above, layer.magnetization_below, chunk,
                               first + index);
  };
  return sums(LayerShapes{}, shape, surface, make_view, stations, precision, progress, memory_limit_bytes, rounding);
}

std::vector<KernelShape> cuda_layer_shapes() { return potential::shape_values(LayerShapes{}); }

}  // namespace geobem::magnetic

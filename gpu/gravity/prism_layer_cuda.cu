// CUDA driver of the prism layer: the surface heights stream to the device in
// chunks (the source × station launcher, gpu/potential/station_sums_cuda.cuh)
// and each thread forms its tile's prisms (or, for g_z alone, surface faces:
// layer_faces.hpp) from them, so the device never holds a prism list. In
// double the rounding estimate runs in a pass of its own.
#include <future>
#include <tuple>
#include <type_traits>
#include <vector>

#include "gpu/gravity/layer_faces.hpp"
#include "gpu/gravity/layer_sources.hpp"
#include "gpu/gravity/prism_layer_forward.hpp"
#include "gpu/gravity/prism_shapes.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/potential/kernel_pair.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cuda.cuh"

namespace geobem::gravity {
namespace {

/// The layer kernels over cells [first, first + count) (g_z alone face by
/// face), with the rounding estimate where `rounding` is given: in double in
/// a pass of its own (its tile bound: one bound per station and tile of far
/// cells), so that the field kernels keep their own shapes and registers; in
/// single in the fields' pass.
template <typename Real>
std::vector<double> run(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                        const std::vector<Station>& stations, unsigned mask, ProgressReporter& progress,
                        std::size_t memory_limit_bytes, std::vector<double>* rounding, KernelShape shape) {
  potential::LaunchOptions launch;
  launch.memory_limit_bytes = memory_limit_bytes;
  constexpr bool apart = rounding_pass_apart<Real, LayerFace>;  // layer prisms alike
  ProgressReporter silent("", 1, "", true);  // the estimate's pass and the rim: progress counts the fields' pairs
  // The heights of this share only: the stored data the launcher streams.
  const std::vector<double> surface(layer.surface.begin() + first, layer.surface.begin() + first + count);
  if (mask == unsigned(bit_g_z)) {
    // Face by face (layer_faces.hpp): surface faces in `shape`
    // (LayerFaceShapes; single precision with the estimate in the same
    // pass), then the reference edges that do not cancel (few: no progress
    // of their own).
    // The reference edges need no sums: a thread finds them while the faces sum.
    std::future<std::vector<ReferenceEdge>> edges =
        std::async(std::launch::async, [&] { return reference_edges(layer, first, count); });
    const auto face_view = [&](const double* chunk, std::int64_t index) {
      return LayerFaceView{layer.geometry, chunk, first + index};
    };
    using Shapes = std::conditional_t<apart, LayerFaceShapes, std::tuple<Shape<128, 0>>>;
    const FaceRoundingKernel<Real> bounds{layer.geometry.reference};
    const auto faces_pass = [&](const auto& kernel) {
      return potential::station_sums_cuda_in(Shapes{}, shape, "layer_sums_cuda", surface, stations, face_view, kernel,
                                             launch, progress);
    };
    std::vector<double> faces;
    if constexpr (!apart) {
      if (rounding)
        faces = potential::split_rows(
            faces_pass(potential::KernelPair<FaceGzKernel<Real>, FaceRoundingKernel<Real>>{{}, bounds}),
            FaceGzKernel<Real>::outputs, stations.size(), *rounding);
    } else if (rounding) {
      *rounding = potential::station_sums_cuda<RoundingPassShape::block, RoundingPassShape::max_registers>(
          surface, stations, face_view, bounds, launch, silent);
    }
    if (!rounding || apart) faces = faces_pass(FaceGzKernel<Real>{});
    const std::vector<double> rim =
        potential::station_sums_cuda<128, 0>(edges.get(), stations, potential::ListChunks{},
                                             ReferenceEdgeGzKernel<Real>{layer.geometry.reference}, launch, silent);
    return g_z_rows(faces, rim);
  }
  const auto view = [&](const double* chunk, std::int64_t index) {
    return LayerView{layer.geometry, chunk, first + index};
  };
  const LayerFieldsKernel<Real, false> fields{{mask}};
  if constexpr (!apart) {
    if (rounding) {
      using Pair = potential::KernelPair<LayerFieldsKernel<Real, false>, RoundingKernel<Real>>;
      return potential::split_rows(
          potential::station_sums_cuda<128, 0>(surface, stations, view, Pair{fields, {}}, launch, progress),
          field_count, stations.size(), *rounding);
    }
  } else if (rounding) {
    *rounding = potential::station_sums_cuda<RoundingPassShape::block, RoundingPassShape::max_registers>(
        surface, stations, view, RoundingKernel<Real>{}, launch, silent);
  }
  return potential::station_sums_cuda<128, 0>(surface, stations, view, fields, launch, progress);
}

}  // namespace

std::vector<double> layer_sums_cuda(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                                    const std::vector<Station>& stations, unsigned mask, Precision precision,
                                    ProgressReporter& progress, std::size_t memory_limit_bytes,
                                    std::vector<double>* rounding, const KernelShape& shape) {
  const bool single = precision == Precision::Single;
  const KernelShape resolved = shape.block_size == 0 ? default_layer_face_shape(single) : shape;
  return single ? run<float>(layer, first, count, stations, mask, progress, memory_limit_bytes, rounding, resolved)
                : run<double>(layer, first, count, stations, mask, progress, memory_limit_bytes, rounding, resolved);
}

std::vector<KernelShape> cuda_layer_face_shapes() { return potential::shape_values(LayerFaceShapes{}); }

}  // namespace geobem::gravity

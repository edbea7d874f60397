// forward_model_layer(): checks, this part's share of the cells, the OpenMP
// driver (the CUDA one is prism_layer_cuda.cu; both take g_z alone face by
// face, layer_faces.hpp), the station limits and rounding estimates of
// forward_model, and the layer checks.
#include <algorithm>
#include <cmath>
#include <future>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpu/core/input_error.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/layer_faces.hpp"
#include "gpu/gravity/layer_share.hpp"
#include "gpu/gravity/layer_sources.hpp"
#include "gpu/gravity/prism_layer_forward.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/gravity/station_contact.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cpu.hpp"

namespace geobem::gravity {
namespace {

/// The layer kernels over cells [first, first + count) on the CPU (g_z alone
/// face by face), with the rounding estimate where `rounding` is given: in a
/// pass of its own or in the same one (rounding_pass_apart), as on the GPU.
template <typename Real>
std::vector<double> cpu_run(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                            const std::vector<Station>& stations, unsigned mask, ProgressReporter& progress,
                            std::vector<double>* rounding) {
  constexpr bool apart = rounding_pass_apart<Real, LayerFace>;  // layer prisms alike
  const double* surface = layer.surface.data() + first;
  if (mask == unsigned(bit_g_z)) {
    // Face by face (layer_faces.hpp): surface faces, then the reference
    // edges that do not cancel (few: no progress of their own).
    const std::vector<double> faces = potential::two_kernel_sums_cpu<apart>(
        LayerFaceView{layer.geometry, surface, first}, count, stations, FaceGzKernel<Real>{},
        FaceRoundingKernel<Real>{layer.geometry.reference}, rounding, progress);
    const std::vector<ReferenceEdge> edges = reference_edges(layer, first, count);
    ProgressReporter silent("", 1, "", true);
    const std::vector<double> rim =
        potential::station_sums_cpu(potential::ListView<ReferenceEdge>{edges.data()},
                                    static_cast<std::int64_t>(edges.size()), stations,
                                    ReferenceEdgeGzKernel<Real>{layer.geometry.reference}, silent);
    return g_z_rows(faces, rim);
  }
  return potential::two_kernel_sums_cpu<apart>(LayerView{layer.geometry, surface, first}, count, stations,
                                               LayerFieldsKernel<Real, false>{{mask}}, RoundingKernel<Real>{},
                                               rounding, progress);
}

}  // namespace

void check_prism_layer(const PrismLayer& layer) {
  const LayerGeometry& g = layer.geometry;
  if (g.shape_e < 1 || g.shape_n < 1 || layer.surface.size() != static_cast<std::size_t>(g.shape_e * g.shape_n))
    throw InputError("prism layer: shape " + std::to_string(g.shape_e) + " x " + std::to_string(g.shape_n) +
                     " needs as many surface heights (" + std::to_string(layer.surface.size()) + " given)");
  if (!(std::isfinite(g.spacing_e) && g.spacing_e > 0) || !(std::isfinite(g.spacing_n) && g.spacing_n > 0))
    throw InputError("prism layer: spacings must be finite and positive (" + std::to_string(g.spacing_e) +
                     ", " + std::to_string(g.spacing_n) + " m)");
  if (!std::isfinite(g.west_centre) || !std::isfinite(g.south_centre) || !std::isfinite(g.reference) ||
      !std::isfinite(g.density_above) || !std::isfinite(g.density_below))
    throw InputError("prism layer: non-finite origin, reference or density");
  for (std::size_t c = 0; c < layer.surface.size(); ++c)
    if (std::isinf(layer.surface[c]))
      throw InputError("prism layer: infinite surface height at cell (" +
                       std::to_string(c % g.shape_e) + ", " + std::to_string(c / g.shape_e) + ")");
}

Box cells_box(const PrismLayer& layer, bool above, bool below) {
  const LayerGeometry& g = layer.geometry;
  Box box{HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
  for (std::size_t c = 0; c < layer.surface.size(); ++c) {
    const double height = layer.surface[c];
    if (!((above && height > g.reference) || (below && height < g.reference))) continue;
    const Prism p = layer_prism(g, static_cast<std::int64_t>(c), height);
    const double low[3] = {p.west, p.south, p.bottom}, high[3] = {p.east, p.north, p.top};
    for (int a = 0; a < 3; ++a) {
      box[2 * a] = std::min(box[2 * a], low[a]);
      box[2 * a + 1] = std::max(box[2 * a + 1], high[a]);
    }
  }
  return box;
}

std::size_t massive_cell_count(const PrismLayer& layer) {
  std::size_t count = 0;
  for (std::size_t c = 0; c < layer.surface.size(); ++c)
    if (layer_prism(layer.geometry, static_cast<std::int64_t>(c), layer.surface[c]).density != 0.0) ++count;
  return count;
}

std::vector<double> layer_sums_cpu(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                                   const std::vector<Station>& stations, unsigned mask, Precision precision,
                                   ProgressReporter& progress, std::vector<double>* rounding) {
  return precision == Precision::Single ? cpu_run<float>(layer, first, count, stations, mask, progress, rounding)
                                        : cpu_run<double>(layer, first, count, stations, mask, progress, rounding);
}

ForwardResult forward_model_layer(const PrismLayer& layer, const std::vector<Station>& stations,
                                  const std::vector<Field>& fields, const ForwardOptions& options) {
  if (fields.empty()) throw InputError("forward_model_layer: the field list is empty");
  if (options.parts < 1 || options.part < 0 || options.part >= options.parts)
    throw InputError("forward_model_layer: part " + std::to_string(options.part) + " of " +
                     std::to_string(options.parts) + " does not exist");
  check_prism_layer(layer);
  for (std::size_t i = 0; i < stations.size(); ++i)
    if (!std::isfinite(stations[i].easting) || !std::isfinite(stations[i].northing) ||
        !std::isfinite(stations[i].upward))
      throw InputError("forward_model_layer: station " + std::to_string(i) + " has a non-finite coordinate");
  const LayerShare share = layer_share(layer, options);
  const unsigned mask = field_mask(fields);
  // The station limits (part 0 alone turns them into the survey side's, for
  // the whole layer) and the model's box need no sums: a thread forms them
  // while the drivers sum.
  std::future<std::pair<StationLimits<1>, Box>> host_side = std::async(std::launch::async, [&] {
    return std::make_pair(
        options.part == 0 ? layer_station_limits<1>(layer.geometry, layer.surface, {layer.geometry.density_above},
                                                    {layer.geometry.density_below}, stations)
                          : StationLimits<1>{},
        cells_box(layer, layer.geometry.density_above != 0.0, layer.geometry.density_below != 0.0));
  });
  std::vector<double> bounds;
  std::vector<double> sums = layer_share_sums(
      "gravity prism layer", options, share, stations.size(),
      [&](ProgressReporter& progress) {
        return layer_sums_cuda(layer, share.first, share.count, stations, mask, options.precision, progress,
                               options.device_memory_limit_bytes, &bounds);
      },
      [&](ProgressReporter& progress) {
        return layer_sums_cpu(layer, share.first, share.count, stations, mask, options.precision, progress, &bounds);
      });
  const auto [limits, box] = host_side.get();
  return finish_result(std::move(sums), mask, stations, options, limits, std::move(bounds), box);
}

}  // namespace geobem::gravity

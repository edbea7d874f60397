// CUDA driver of the prism-list and grid paths: the source × station
// launcher (gpu/potential/station_sums_cuda.cuh) with FieldSumsKernel over a
// list of prisms or weighted grid nodes, with RoundingKernel in a pass of its
// own (double prisms: its tile bound) or in the same pass
// (potential::KernelPair). The prism kernels are compiled in
// several launch shapes (prism_shapes.hpp; CudaTuning::shape), timed by
// bench/gravity.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "gpu/core/input_error.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/prism_shapes.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/gravity/source_fields.hpp"
#include "gpu/potential/kernel_pair.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cuda.cuh"

namespace geobem::gravity {
namespace {

/// CudaTuning::out_of_line_pairs: one copy of each pair function in the
/// kernel, reached by calls.
struct OutOfLinePairs {
  template <typename Real>
  __device__ __noinline__ static Real log_pair(Real u1, Real u2, Real h, Real r1, Real r2, Real rho2) {
    return pair_log(u1, u2, h, r1, r2, rho2);
  }
  template <typename Real>
  __device__ __noinline__ static Real atan_pair(Real u1, Real u2, Real h, Real v, Real w, Real r1, Real r2) {
    return pair_atan(u1, u2, h, v, w, r1, r2);
  }
};

/// The shape of the node kernels and of out-of-line pairs.
using FixedShape = Shape<128, 0>;

/// Whether a shape is one of a tuple's.
template <typename... Shapes>
bool compiled_in(std::tuple<Shapes...>, const KernelShape& shape) {
  return (potential::same_shape(shape, Shapes::value) || ...);
}

/// The shape that runs: grid nodes and out-of-line pairs FixedShape; prisms
/// the tuning's shape, else default_prism_shape(). Throws
/// InputError for a shape that was not compiled.
template <typename Source>
KernelShape resolve_shape(const CudaTuning& tuning, bool single, bool gz_only, bool estimated) {
  const KernelShape fixed = FixedShape::value;
  if (!std::is_same<Source, Prism>::value) return fixed;
  if (tuning.shape.block_size == 0)
    return tuning.out_of_line_pairs ? fixed : default_prism_shape(single, gz_only, estimated);
  const bool compiled = estimated ? compiled_in(EstimatedPrismShapes{}, tuning.shape)
                                  : compiled_in(PrismShapes{}, tuning.shape);
  if (!compiled || (tuning.out_of_line_pairs && !potential::same_shape(tuning.shape, fixed)))
    throw InputError("forward_cuda: no prism kernel of shape " + std::to_string(tuning.shape.block_size) +
                     " threads, " + std::to_string(tuning.shape.max_registers) + " registers" +
                     (estimated ? " with the rounding estimate (cuda_estimated_kernel_shapes()" :
                                  " (cuda_kernel_shapes()") + "; out-of-line pairs: 128, 0)");
  return tuning.shape;
}

/// The launcher with `kernel` in `shape`: one of `shapes` for prisms
/// (resolve_shape() has checked it), FixedShape for grid nodes.
template <typename Shapes, typename Source, typename Kernel>
std::vector<double> launch(Shapes shapes, const KernelShape& shape, const std::vector<Source>& sources,
                           const std::vector<Station>& stations, const Kernel& kernel,
                           const potential::LaunchOptions& options, ProgressReporter& progress) {
  const potential::ListChunks list;
  if constexpr (!std::is_same<Source, Prism>::value) {
    return potential::station_sums_cuda<FixedShape::block, FixedShape::max_registers>(sources, stations, list, kernel,
                                                                                      options, progress);
  } else {
    std::vector<double> sums;
    potential::in_shape(shapes, shape, [&](auto compiled) {
      using S = decltype(compiled);
      sums = potential::station_sums_cuda<S::block, S::max_registers>(sources, stations, list, kernel, options,
                                                                      progress);
    });
    return sums;
  }
}

/// The field kernel in Real (pairs out of line or not), alone or with the
/// rounding estimate (its rows into *rounding): in a pass of its own
/// (rounding_pass_apart), else in the same pass.
template <typename Real, bool GzOnly, typename Source>
std::vector<double> sums_in_shape(const KernelShape& shape, bool out_of_line, const std::vector<Source>& sources,
                                  const std::vector<Station>& stations, unsigned mask,
                                  const potential::LaunchOptions& options, ProgressReporter& progress,
                                  std::vector<double>* rounding) {
  if (rounding) {
    if constexpr (rounding_pass_apart<Real, Source>) {
      ProgressReporter silent("", 1, "", true);  // progress counts the fields' pairs
      *rounding = potential::station_sums_cuda<RoundingPassShape::block, RoundingPassShape::max_registers>(
          sources, stations, potential::ListChunks{}, FieldRoundingKernel<Real, GzOnly>{}, options, silent);
    } else {
      using Pair = potential::KernelPair<FieldSumsKernel<Real, GzOnly>, FieldRoundingKernel<Real, GzOnly>>;
      std::vector<double> sums =
          launch(EstimatedPrismShapes{}, shape, sources, stations, Pair{{mask}, {}}, options, progress);
      return potential::split_rows(std::move(sums), field_count, stations.size(), *rounding);
    }
  }
  if constexpr (std::is_same<Source, Prism>::value)
    if (out_of_line)
      return potential::station_sums_cuda<FixedShape::block, FixedShape::max_registers>(
          sources, stations, potential::ListChunks{}, FieldSumsKernel<Real, GzOnly, OutOfLinePairs>{mask}, options,
          progress);
  return launch(PrismShapes{}, shape, sources, stations, FieldSumsKernel<Real, GzOnly>{mask}, options, progress);
}

}  // namespace

std::vector<KernelShape> cuda_kernel_shapes() { return potential::shape_values(PrismShapes{}); }

std::vector<KernelShape> cuda_estimated_kernel_shapes() { return potential::shape_values(EstimatedPrismShapes{}); }

template <typename Source>
std::vector<double> forward_cuda(const std::vector<Source>& sources, const std::vector<Station>& stations,
                                 unsigned mask, Precision precision, ProgressReporter& progress,
                                 const CudaTuning& tuning, std::vector<double>* rounding) {
  if (sources.empty() || stations.empty()) {
    if (rounding) rounding->assign(2 * rounding_groups * stations.size(), 0.0);
    return std::vector<double>(10 * stations.size(), 0.0);
  }
  const bool gz_only = mask == unsigned(bit_g_z), single = precision == Precision::Single;
  // The estimate in the fields' pass: single precision (rounding_pass_apart).
  const KernelShape shape = resolve_shape<Source>(tuning, single, gz_only, rounding != nullptr && single);
  const potential::LaunchOptions options{tuning.blocks_per_sm, tuning.memory_limit_bytes};
  const bool out_of_line = tuning.out_of_line_pairs;
  if (single)
    return gz_only
               ? sums_in_shape<float, true>(shape, out_of_line, sources, stations, mask, options, progress, rounding)
               : sums_in_shape<float, false>(shape, out_of_line, sources, stations, mask, options, progress, rounding);
  return gz_only
             ? sums_in_shape<double, true>(shape, out_of_line, sources, stations, mask, options, progress, rounding)
             : sums_in_shape<double, false>(shape, out_of_line, sources, stations, mask, options, progress, rounding);
}

template std::vector<double> forward_cuda(const std::vector<Prism>&, const std::vector<Station>&, unsigned,
                                          Precision, ProgressReporter&, const CudaTuning&, std::vector<double>*);
template std::vector<double> forward_cuda(const std::vector<GridNode>&, const std::vector<Station>&, unsigned,
                                          Precision, ProgressReporter&, const CudaTuning&, std::vector<double>*);

}  // namespace geobem::gravity

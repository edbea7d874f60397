// CUDA driver of the prism-list and grid paths: the source × station
// launcher (gpu/potential/station_sums_cuda.cuh) with FieldSumsKernel over a
// list of prisms or weighted grid nodes. The prism kernels are compiled in
// several launch shapes (threads per block, register cap; CudaTuning::shape),
// timed by bench/gravity.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>

#include "gpu/core/input_error.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/source_fields.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cuda.cuh"

namespace geobem::gravity {
namespace {

using potential::Shape;

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

/// Every shape of cuda_kernel_shapes(), the default first: block sizes alone,
/// and register caps that each give a whole number of blocks at 14–32
/// resident warps per SM (65,536 registers / (cap × 32) warps).
using PrismShapes = std::tuple<Shape<128, 0>, Shape<64, 0>, Shape<32, 0>, Shape<64, 144>, Shape<32, 136>,
                               Shape<128, 128>, Shape<32, 120>, Shape<64, 112>, Shape<128, 96>, Shape<128, 80>,
                               Shape<128, 64>>;

/// The shape a kernel runs in when CudaTuning::shape leaves it open: the
/// fastest of the H100 sweep on the paper's case (bench/RESULTS.md, "Gravity at scale"). All
/// ten fields in double: 96 registers (spilling 272 bytes of loads) give 20
/// resident warps instead of 12, 0.675 → 0.590 s; g_z in double: 64
/// registers, 0.247 → 0.233 s; single: 0.295 → 0.268 s and 0.115 → 0.111 s.
KernelShape default_shape(bool single, bool gz_only) {
  if (single) return gz_only ? KernelShape{32, 120} : KernelShape{64, 0};
  return gz_only ? KernelShape{128, 64} : KernelShape{128, 96};
}

/// The shape that runs: grid nodes and out-of-line pairs FixedShape; prisms
/// the tuning's shape, else default_shape(). Throws InputError for
/// a shape that was not compiled.
template <typename Source>
KernelShape resolve_shape(const CudaTuning& tuning, bool single, bool gz_only) {
  const KernelShape fixed = FixedShape::value;
  if (!std::is_same<Source, Prism>::value) return fixed;
  if (tuning.shape.block_size == 0) return tuning.out_of_line_pairs ? fixed : default_shape(single, gz_only);
  const auto shapes = cuda_kernel_shapes();
  const bool compiled = std::any_of(shapes.begin(), shapes.end(),
                                    [&](const KernelShape& s) { return potential::same_shape(s, tuning.shape); });
  if (!compiled || (tuning.out_of_line_pairs && !potential::same_shape(tuning.shape, fixed)))
    throw InputError("forward_cuda: no prism kernel of shape " + std::to_string(tuning.shape.block_size) +
                     " threads, " + std::to_string(tuning.shape.max_registers) +
                     " registers (cuda_kernel_shapes(); out-of-line pairs: 128, 0)");
  return tuning.shape;
}

/// The launcher in `shape` (one of PrismShapes for prisms, FixedShape
/// otherwise: resolve_shape() has checked it) with the kernel in Real.
template <typename Real, bool GzOnly, typename Source>
std::vector<double> sums_in_shape(const KernelShape& shape, bool out_of_line, const std::vector<Source>& sources,
                                  const std::vector<Station>& stations, unsigned mask,
                                  const potential::LaunchOptions& launch, ProgressReporter& progress) {
  const potential::ListChunks list;
  if constexpr (std::is_same<Source, Prism>::value) {
    if (out_of_line)
      return potential::station_sums_cuda<FixedShape::block, FixedShape::max_registers>(
          sources, stations, list, FieldSumsKernel<Real, GzOnly, OutOfLinePairs>{mask}, launch, progress);
    std::vector<double> sums;
    potential::in_shape(PrismShapes{}, shape, [&](auto compiled) {
      using S = decltype(compiled);
      sums = potential::station_sums_cuda<S::block, S::max_registers>(
          sources, stations, list, FieldSumsKernel<Real, GzOnly>{mask}, launch, progress);
    });
    return sums;
  } else {
    return potential::station_sums_cuda<FixedShape::block, FixedShape::max_registers>(
        sources, stations, list, FieldSumsKernel<Real, GzOnly>{mask}, launch, progress);
  }
}

template <typename Source>
std::vector<double> run(const std::vector<Source>& sources, const std::vector<Station>& stations, unsigned mask,
                        Precision precision, ProgressReporter& progress, const CudaTuning& tuning) {
  if (sources.empty() || stations.empty()) return std::vector<double>(10 * stations.size(), 0.0);
  const bool gz_only = mask == unsigned(bit_g_z), single = precision == Precision::Single;
  const KernelShape shape = resolve_shape<Source>(tuning, single, gz_only);
  const potential::LaunchOptions launch{tuning.blocks_per_sm, tuning.memory_limit_bytes};
  const bool out_of_line = tuning.out_of_line_pairs;
  if (single)
    return gz_only ? sums_in_shape<float, true>(shape, out_of_line, sources, stations, mask, launch, progress)
                   : sums_in_shape<float, false>(shape, out_of_line, sources, stations, mask, launch, progress);
  return gz_only ? sums_in_shape<double, true>(shape, out_of_line, sources, stations, mask, launch, progress)
                 : sums_in_shape<double, false>(shape, out_of_line, sources, stations, mask, launch, progress);
}

}  // namespace

std::vector<KernelShape> cuda_kernel_shapes() { return potential::shape_values(PrismShapes{}); }

std::vector<double> forward_cuda(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                                 unsigned mask, Precision precision, ProgressReporter& progress,
                                 const CudaTuning& tuning) {
  return run(prisms, stations, mask, precision, progress, tuning);
}

std::vector<double> forward_cuda(const std::vector<GridNode>& nodes, const std::vector<Station>& stations,
                                 unsigned mask, Precision precision, ProgressReporter& progress,
                                 const CudaTuning& tuning) {
  return run(nodes, stations, mask, precision, progress, tuning);
}

}  // namespace geobem::gravity

#pragma once
// The two drivers behind forward_model(): the source × station launcher
// (gpu/potential/station_sums_cpu.hpp in forward_cpu.cpp,
// station_sums_cuda.cuh in forward_cuda.cu) over the same kernel
// (source_fields.hpp: prisms for the general path, weighted grid nodes for the
// grid path). Exposed so that tests and benchmarks can call each directly.
#include <cstddef>
#include <vector>

#include "gpu/core/progress.hpp"
#include "gpu/gravity/forward_checks.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/grid_node_kernels.hpp"
#include "gpu/gravity/station_contact.hpp"
#include "gpu/potential/kernel_shape.hpp"

namespace geobem::gravity {

/// A launch shape of the CUDA prism kernels: both numbers are compile-time
/// parameters, so only the shapes of cuda_kernel_shapes() exist. Register
/// caps: the compiler's choice is 146 for all ten fields in double, 96 for g_z
/// (with the rounding estimate in the same pass: 168 and 122).
using KernelShape = potential::KernelShape;

/// The shapes compiled into the CUDA prism kernels (double and single, all
/// fields and g_z alone), {128, 0} first; bench/gravity times them.
std::vector<KernelShape> cuda_kernel_shapes();
/// The shapes of the CUDA prism kernels that sum the rounding estimate in
/// the same pass (forward_cuda with `rounding` in single precision; in double
/// the estimate runs in a pass of its own beside the field kernel, in
/// cuda_kernel_shapes()), {128, 0} first.
std::vector<KernelShape> cuda_estimated_kernel_shapes();

/// Launch choices of the CUDA driver, measured by bench/gravity (RESULTS.md).
struct CudaTuning {
  /// Call pair_log/pair_atan as out-of-line device functions: a kernel a few
  /// times smaller (fewer instruction-cache misses) at the cost of calls.
  bool out_of_line_pairs = false;
  /// Blocks of 128 threads launched per SM per launch (prisms split over
  /// grid y to get there; a shape with smaller blocks launches
  /// proportionally more): many short waves so the last, partial one costs
  /// little (H100, paper's case: 16/32/64 → 0.725/0.687/0.675 s all ten
  /// fields, 0.271/0.254/0.246 s g_z; RESULTS.md).
  int blocks_per_sm = 64;
  /// Device memory the driver may use, bytes; 0: no limit but the budget
  /// every method gets (device_memory_budget.hpp: 80% of the free memory).
  /// Sources and stations beyond it are streamed in chunks
  /// (gpu/potential/chunk_plan.hpp).
  std::size_t memory_limit_bytes = 0;
  /// Launch shape of the prism kernels, one of cuda_kernel_shapes() (with
  /// the rounding estimate in single precision: cuda_estimated_kernel_shapes(); else forward_cuda
  /// throws InputError); block_size 0: each kernel's fastest
  /// shape (prism_shapes.hpp, default_prism_shape). Out-of-line pairs (the
  /// fields alone) and the grid path's node kernels exist in the shape
  /// {128, 0} only.
  KernelShape shape{};
};

/// Raw sums Σ_sources weight·kernel (prisms: density × prism kernel; grid
/// nodes: weight × corner function) for the fields of `mask` (FieldBit):
/// sums[f * stations.size() + s] for Field index f (10 rows; rows not in the
/// mask are zero). Multiply by G and the unit factor (field_scale). The kernel
/// runs in `precision` (station-relative coordinates formed in double), the
/// sums are accumulated in double. `progress` advances in prism–station pairs.
/// With `rounding`, the drivers also sum the rounding estimate into
/// *rounding (the six rows of RoundingKernel, rounding_estimate.hpp): both
/// drivers in a pass of its own for prisms in double (the estimate's tile
/// bound, rounding_pass_apart), else in the same pass. forward_cpu uses all OpenMP threads;
/// forward_cuda the current CUDA device (throws geobem::DeviceError on a
/// failing CUDA call).
/// Source is Prism or GridNode (the two compiled).
template <typename Source>
std::vector<double> forward_cpu(const std::vector<Source>& sources, const std::vector<Station>& stations,
                                unsigned mask, Precision precision, ProgressReporter& progress,
                                std::vector<double>* rounding = nullptr);
template <typename Source>
std::vector<double> forward_cuda(const std::vector<Source>& sources, const std::vector<Station>& stations,
                                 unsigned mask, Precision precision, ProgressReporter& progress,
                                 const CudaTuning& tuning = {}, std::vector<double>* rounding = nullptr);

/// G times the unit factor of the field: 1 (J/kg), 1e5 (mGal) or 1e9 (Eötvös).
double field_scale(Field field);

/// A result from the drivers' raw sums of this part (10 rows): the station
/// limits applied (given on part 0 alone: station_contact.hpp), times
/// field_scale, warnings for fields undefined at stations (by the limits) and
/// for any other non-finite value (an overflow in the options' precision), and
/// the rounding budget of this part's sources (`bounds`, RoundingKernel's
/// rows, rounding_estimate.hpp) with the stations' distances from
/// `model_box`; complete (complete_estimates) when options.parts is 1.
ForwardResult finish_result(std::vector<double> sums, unsigned mask, const std::vector<Station>& stations,
                            const ForwardOptions& options, const StationLimits<1>& limits,
                            std::vector<double> bounds, const Box& model_box);

/// FieldBit mask of a field list.
unsigned field_mask(const std::vector<Field>& fields);

}  // namespace geobem::gravity

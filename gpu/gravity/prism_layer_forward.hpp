#pragma once
// Gravity of a prism layer straight from its surface grid (prism_layer.hpp):
// every driver forms each cell's prism from its height when it needs it, so
// memory stays O(cells + stations) however large the layer.
#include <cstdint>
#include <vector>

#include "gpu/core/progress.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/prism_layer.hpp"
#include "gpu/potential/kernel_shape.hpp"

namespace geobem::gravity {

using potential::KernelShape;

/// Gravity of the layer at the stations: the sum over its non-empty cells of
/// the prism closed forms of forward_model() (Nagy et al. 2000, 2002;
/// Fukushima 2020; g_z alone face by face, the same edge terms regrouped:
/// layer_faces.hpp), same fields, units, signs, estimates, warnings and
/// options (device, precision, memory limit streamed in chunks of cells and
/// stations, part/parts shares of the cells for MPI ranks). A station on the
/// terrain surface (--clearance 0) gets the limit from above it, on either
/// side of the reference (station_contact.hpp). Throws InputError
/// for an empty field list, a layer that fails check_prism_layer or a
/// non-finite station; InputError::usage as complete_estimates;
/// geobem::DeviceError for a failing CUDA call.
ForwardResult forward_model_layer(const PrismLayer& layer, const std::vector<Station>& stations,
                                  const std::vector<Field>& fields, const ForwardOptions& options);

/// The drivers behind it, over cells [first, first + count) of the layer:
/// raw sums Σ density·kernel, sums[f · stations + s] for Field index f (10
/// rows, rows outside `mask` zero), before field_scale. With `rounding`,
/// they also sum the cells' rounding estimate into *rounding (the rows of
/// RoundingKernel, rounding_estimate.hpp; in double in a pass of its own,
/// rounding_pass_apart, else in the same pass). The CUDA driver uses the
/// current device and at most memory_limit_bytes (0: the device memory
/// budget, 80% of the free memory); `shape` is the launch shape of the g_z
/// face kernel in double (one of cuda_layer_face_shapes(); {0, 0}: the
/// default, prism_shapes.hpp), the other kernels run {128, 0}.
/// Throws InputError for a shape that is not compiled.
std::vector<double> layer_sums_cpu(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                                   const std::vector<Station>& stations, unsigned mask, Precision precision,
                                   ProgressReporter& progress, std::vector<double>* rounding = nullptr);
std::vector<double> layer_sums_cuda(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                                    const std::vector<Station>& stations, unsigned mask, Precision precision,
                                    ProgressReporter& progress, std::size_t memory_limit_bytes = 0,
                                    std::vector<double>* rounding = nullptr, const KernelShape& shape = {});

/// The launch shapes compiled for layer_sums_cuda's g_z face kernel
/// (double), timed by terrain_bench --shapes.
std::vector<KernelShape> cuda_layer_face_shapes();

}  // namespace geobem::gravity

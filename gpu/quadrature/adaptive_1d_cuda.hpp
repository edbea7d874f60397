#pragma once
// The CUDA drivers of the block-cutting sweep, apart from the kernel that
// evaluates the integrand: the caller launches that one
// (adaptive_1d_kernels.cuh), so that a kernel compiled with the library and
// one NVRTC compiled around a user's expression share the drivers. Host code
// (CUDA runtime only). Throw geobem::DeviceError on CUDA failures.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "gpu/quadrature/adaptive_1d.hpp"

namespace geobem::quadrature {

/// Launches one single-mode step on the legacy default stream: `alpha`
/// blocks of `beta` threads with `shared_bytes` of dynamic shared memory,
/// running cuda_detail::block_subintervals(f, state, partials).
using Adaptive1DStepLaunch = std::function<void(const BlockCuttingState* state, KronrodSums* partials, int alpha,
                                                int beta, std::size_t shared_bytes)>;

/// Launches a batch on the legacy default stream: `count` blocks of `beta`
/// threads with `shared_bytes` of dynamic shared memory, running
/// cuda_detail::batch_sweep(integrands, states) with integral k's functor
/// at integrands[k].
using Adaptive1DBatchLaunch =
    std::function<void(BlockCuttingState* states, std::size_t count, int beta, std::size_t shared_bytes)>;

/// ∫_lower^upper f with α·β subintervals per block step, `launch` running the
/// integrand's kernel of each step; progress on stderr unless options.quiet.
Adaptive1DResult cuda_adaptive_1d_sweep(double lower, double upper, const Adaptive1DOptions& options,
                                        const Adaptive1DStepLaunch& launch);

/// Integral k over [lower[k], upper[k]] swept by thread block k, β
/// subintervals per step; results in order.
std::vector<Adaptive1DResult> cuda_adaptive_1d_batch_sweep(const std::vector<double>& lower,
                                                           const std::vector<double>& upper,
                                                           const Adaptive1DOptions& options,
                                                           const Adaptive1DBatchLaunch& launch);

}  // namespace geobem::quadrature

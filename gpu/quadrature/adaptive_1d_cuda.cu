// CUDA block-cutting sweep: single mode launches α thread blocks of β threads
// per block step (one subinterval per thread) and a one-block kernel that sums
// the partial results and takes the accept/cut/expand decision on the device,
// where the running estimate stays until the end; batched mode runs one
// integral's whole sweep per thread block (adaptive_1d_kernels.cuh).
#include "gpu/quadrature/adaptive_1d_cuda.hpp"

#include <cuda_runtime.h>

#include <vector>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/quadrature/adaptive_1d_kernels.cuh"

namespace geobem::quadrature {

namespace {

template <class F>
__global__ void block_subintervals_kernel(F f, const BlockCuttingState* state, KronrodSums* partials) {
  cuda_detail::block_subintervals(f, state, partials);
}

template <class F>
__global__ void batch_kernel(const F* integrands, BlockCuttingState* states) {
  cuda_detail::batch_sweep(integrands, states);
}

__global__ void decide_kernel(BlockCuttingState* state, const KronrodSums* partials, int count, int subintervals) {
  extern __shared__ KronrodSums shared_sums[];
  KronrodSums sum{};  // a contiguous run of the thread blocks' partials per thread, in order
  const int run = (count + blockDim.x - 1) / blockDim.x;
  for (int i = threadIdx.x * run; i < count && i < (threadIdx.x + 1) * run; ++i) add_kronrod_sums(sum, partials[i]);
  shared_sums[threadIdx.x] = sum;
  __syncthreads();
  cuda_detail::block_sum(shared_sums);
  if (threadIdx.x == 0) block_cutting_step(*state, shared_sums[0], subintervals);
}

}  // namespace

Adaptive1DResult cuda_adaptive_1d_sweep(double lower, double upper, const Adaptive1DOptions& options,
                                        const Adaptive1DStepLaunch& launch) {
  BlockCuttingState state = start_block_cutting(lower, upper, options.rel_tol, options.abs_tol,
                                                options.max_evaluations, options.expansion);
  DeviceBuffer<BlockCuttingState> d_state(1);
  DeviceBuffer<KronrodSums> d_partials(options.alpha);
  d_state.upload(&state, 1);
  const int subintervals = options.alpha * options.beta;
  const size_t shared = options.beta * sizeof(KronrodSums);
  constexpr int kDecideThreads = 256;
  // Progress as the swept fraction of the interval, in thousandths.
  ProgressReporter progress("adaptive 1d (cuda)", 1000, "permille swept", options.quiet);
  std::uint64_t reported = 0;
  while (state.running) {
    launch(d_state.data(), d_partials.data(), options.alpha, options.beta, shared);
    GEOBEM_CUDA_CHECK_LAUNCH();
    decide_kernel<<<1, kDecideThreads, kDecideThreads * sizeof(KronrodSums)>>>(d_state.data(), d_partials.data(),
                                                                              options.alpha, subintervals);
    GEOBEM_CUDA_CHECK_LAUNCH();
    d_state.download(&state, 1);
    const auto swept = static_cast<std::uint64_t>(1000.0 * (state.x - lower) / (upper - lower));
    if (swept > reported) progress.advance(swept - reported), reported = swept;
  }
  progress.finish();
  return adaptive_1d_result(state);
}

std::vector<Adaptive1DResult> cuda_adaptive_1d_batch_sweep(const std::vector<double>& lower,
                                                           const std::vector<double>& upper,
                                                           const Adaptive1DOptions& options,
                                                           const Adaptive1DBatchLaunch& launch) {
  std::vector<Adaptive1DResult> results(lower.size());
  if (lower.empty()) return results;
  std::vector<BlockCuttingState> states(lower.size());
  for (size_t i = 0; i < lower.size(); ++i)
    states[i] = start_block_cutting(lower[i], upper[i], options.rel_tol, options.abs_tol, options.max_evaluations,
                                    options.expansion);
  DeviceBuffer<BlockCuttingState> d_states(states);
  launch(d_states.data(), states.size(), options.beta, options.beta * sizeof(KronrodSums));
  GEOBEM_CUDA_CHECK_LAUNCH();
  d_states.download(states.data(), states.size());
  for (size_t i = 0; i < states.size(); ++i) results[i] = adaptive_1d_result(states[i]);
  return results;
}

Adaptive1DResult cuda_integrate_adaptive_1d(const Integrand1D& f, double lower, double upper,
                                            const Adaptive1DOptions& options) {
  return cuda_adaptive_1d_sweep(
      lower, upper, options,
      [&](const BlockCuttingState* state, KronrodSums* partials, int alpha, int beta, std::size_t shared) {
        block_subintervals_kernel<<<alpha, beta, shared>>>(f, state, partials);
      });
}

std::vector<Adaptive1DResult> cuda_integrate_adaptive_1d_batch(const std::vector<Problem1D>& problems,
                                                               const Adaptive1DOptions& options) {
  if (problems.empty()) return {};
  std::vector<Integrand1D> integrands;
  std::vector<double> lower, upper;
  for (const Problem1D& problem : problems) {
    integrands.push_back(problem.integrand);
    lower.push_back(problem.lower);
    upper.push_back(problem.upper);
  }
  const DeviceBuffer<Integrand1D> d_integrands(integrands);
  return cuda_adaptive_1d_batch_sweep(
      lower, upper, options, [&](BlockCuttingState* states, std::size_t count, int beta, std::size_t shared) {
        batch_kernel<<<static_cast<unsigned>(count), beta, shared>>>(d_integrands.data(), states);
      });
}

}  // namespace geobem::quadrature

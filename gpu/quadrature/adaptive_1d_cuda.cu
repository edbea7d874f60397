// CUDA block-cutting sweep: single mode launches α thread blocks of β threads
// per block step (one subinterval per thread) and a one-block kernel that sums
// the partial results and takes the accept/cut/expand decision on the device,
// where the running estimate stays until the end; batched mode runs one
// integral's whole sweep per thread block.
#include <cuda_runtime.h>

#include <vector>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/quadrature/adaptive_1d.hpp"
#include "gpu/quadrature/gauss_kronrod.hpp"

namespace geobem::quadrature {

namespace {

/// Tree sum of the block's Kronrod sums (blockDim.x a power of two, by
/// add_kronrod_sums); the total lands in sums[0].
__device__ void block_sum(KronrodSums* sums) {
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) add_kronrod_sums(sums[threadIdx.x], sums[threadIdx.x + stride]);
    __syncthreads();
  }
}

__global__ void block_subintervals_kernel(Integrand1D f, const BlockCuttingState* state, KronrodSums* partials) {
  extern __shared__ KronrodSums shared_sums[];
  double a, b;
  next_block(*state, &a, &b);
  const int subintervals = gridDim.x * blockDim.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const double h = (b - a) / subintervals;
  shared_sums[threadIdx.x] = gauss_kronrod_15(f, a + i * h, i + 1 == subintervals ? b : a + (i + 1) * h);
  __syncthreads();
  block_sum(shared_sums);
  if (threadIdx.x == 0) partials[blockIdx.x] = shared_sums[0];
}

__global__ void decide_kernel(BlockCuttingState* state, const KronrodSums* partials, int count, int subintervals) {
  extern __shared__ KronrodSums shared_sums[];
  KronrodSums sum{};
  for (int i = threadIdx.x; i < count; i += blockDim.x) add_kronrod_sums(sum, partials[i]);
  shared_sums[threadIdx.x] = sum;
  __syncthreads();
  block_sum(shared_sums);
  if (threadIdx.x == 0) block_cutting_step(*state, shared_sums[0], subintervals);
}

__global__ void batch_kernel(const Problem1D* problems, BlockCuttingState* states) {
  extern __shared__ KronrodSums shared_sums[];
  __shared__ BlockCuttingState state;
  const Integrand1D f = problems[blockIdx.x].integrand;
  if (threadIdx.x == 0) state = states[blockIdx.x];
  __syncthreads();
  while (state.running) {
    double a, b;
    next_block(state, &a, &b);
    const int i = threadIdx.x;
    const double h = (b - a) / blockDim.x;
    shared_sums[i] = gauss_kronrod_15(f, a + i * h, i + 1 == static_cast<int>(blockDim.x) ? b : a + (i + 1) * h);
    __syncthreads();
    block_sum(shared_sums);
    if (i == 0) block_cutting_step(state, shared_sums[0], blockDim.x);
    __syncthreads();
  }
  if (threadIdx.x == 0) states[blockIdx.x] = state;
}

}  // namespace

Adaptive1DResult cuda_integrate_adaptive_1d(const Integrand1D& f, double lower, double upper,
                                            const Adaptive1DOptions& options) {
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
    block_subintervals_kernel<<<options.alpha, options.beta, shared>>>(f, d_state.data(), d_partials.data());
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

std::vector<Adaptive1DResult> cuda_integrate_adaptive_1d_batch(const std::vector<Problem1D>& problems,
                                                               const Adaptive1DOptions& options) {
  std::vector<Adaptive1DResult> results(problems.size());
  if (problems.empty()) return results;
  std::vector<BlockCuttingState> states(problems.size());
  for (size_t i = 0; i < problems.size(); ++i)
    states[i] = start_block_cutting(problems[i].lower, problems[i].upper, options.rel_tol, options.abs_tol,
                                    options.max_evaluations, options.expansion);
  const DeviceBuffer<Problem1D> d_problems(problems);
  DeviceBuffer<BlockCuttingState> d_states(states);
  batch_kernel<<<static_cast<unsigned>(problems.size()), options.beta, options.beta * sizeof(KronrodSums)>>>(
      d_problems.data(), d_states.data());
  GEOBEM_CUDA_CHECK_LAUNCH();
  d_states.download(states.data(), states.size());
  for (size_t i = 0; i < problems.size(); ++i) results[i] = adaptive_1d_result(states[i]);
  return results;
}

}  // namespace geobem::quadrature

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

/// Tree sum of three values over the block (blockDim.x a power of two); the
/// totals land in a[0], b[0], c[0].
__device__ void block_sum3(double* a, double* b, double* c) {
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) {
      a[threadIdx.x] += a[threadIdx.x + stride];
      b[threadIdx.x] += b[threadIdx.x + stride];
      c[threadIdx.x] += c[threadIdx.x + stride];
    }
    __syncthreads();
  }
}

__global__ void block_subintervals_kernel(Integrand1D f, const BlockCuttingState* state, double* partial_estimate,
                                          double* partial_error, double* partial_rounding) {
  extern __shared__ double shared[];
  double* estimates = shared;
  double* errors = shared + blockDim.x;
  double* roundings = shared + 2 * blockDim.x;
  double a, b;
  next_block(*state, &a, &b);
  const int subintervals = gridDim.x * blockDim.x;
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const double h = (b - a) / subintervals;
  double e, r, u;
  gauss_kronrod_15(f, a + i * h, i + 1 == subintervals ? b : a + (i + 1) * h, &e, &r, &u);
  estimates[threadIdx.x] = e;
  errors[threadIdx.x] = r;
  roundings[threadIdx.x] = u;
  __syncthreads();
  block_sum3(estimates, errors, roundings);
  if (threadIdx.x == 0) {
    partial_estimate[blockIdx.x] = estimates[0];
    partial_error[blockIdx.x] = errors[0];
    partial_rounding[blockIdx.x] = roundings[0];
  }
}

__global__ void decide_kernel(BlockCuttingState* state, const double* partial_estimate, const double* partial_error,
                              const double* partial_rounding, int partials, int subintervals) {
  extern __shared__ double shared[];
  double* estimates = shared;
  double* errors = shared + blockDim.x;
  double* roundings = shared + 2 * blockDim.x;
  double e = 0.0, r = 0.0, u = 0.0;
  for (int i = threadIdx.x; i < partials; i += blockDim.x) {
    e += partial_estimate[i];
    r += partial_error[i];
    u += partial_rounding[i];
  }
  estimates[threadIdx.x] = e;
  errors[threadIdx.x] = r;
  roundings[threadIdx.x] = u;
  __syncthreads();
  block_sum3(estimates, errors, roundings);
  if (threadIdx.x == 0) block_cutting_step(*state, estimates[0], errors[0], roundings[0], subintervals);
}

__global__ void batch_kernel(const Problem1D* problems, BlockCuttingState* states) {
  extern __shared__ double shared[];
  double* estimates = shared;
  double* errors = shared + blockDim.x;
  double* roundings = shared + 2 * blockDim.x;
  __shared__ BlockCuttingState state;
  const Integrand1D f = problems[blockIdx.x].integrand;
  if (threadIdx.x == 0) state = states[blockIdx.x];
  __syncthreads();
  while (state.running) {
    double a, b;
    next_block(state, &a, &b);
    const int i = threadIdx.x;
    const double h = (b - a) / blockDim.x;
    double e, r, u;
    gauss_kronrod_15(f, a + i * h, i + 1 == static_cast<int>(blockDim.x) ? b : a + (i + 1) * h, &e, &r, &u);
    estimates[i] = e;
    errors[i] = r;
    roundings[i] = u;
    __syncthreads();
    block_sum3(estimates, errors, roundings);
    if (i == 0) block_cutting_step(state, estimates[0], errors[0], roundings[0], blockDim.x);
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
  DeviceBuffer<double> d_estimate(options.alpha), d_error(options.alpha), d_rounding(options.alpha);
  d_state.upload(&state, 1);
  const int subintervals = options.alpha * options.beta;
  const size_t shared = 3 * options.beta * sizeof(double);
  constexpr int kDecideThreads = 256;
  // Progress as the swept fraction of the interval, in thousandths.
  ProgressReporter progress("adaptive 1d (cuda)", 1000, "permille swept", options.quiet);
  std::uint64_t reported = 0;
  while (state.running) {
    block_subintervals_kernel<<<options.alpha, options.beta, shared>>>(f, d_state.data(), d_estimate.data(),
                                                                       d_error.data(), d_rounding.data());
    GEOBEM_CUDA_CHECK_LAUNCH();
    decide_kernel<<<1, kDecideThreads, 3 * kDecideThreads * sizeof(double)>>>(
        d_state.data(), d_estimate.data(), d_error.data(), d_rounding.data(), options.alpha, subintervals);
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
  batch_kernel<<<static_cast<unsigned>(problems.size()), options.beta, 3 * options.beta * sizeof(double)>>>(
      d_problems.data(), d_states.data());
  GEOBEM_CUDA_CHECK_LAUNCH();
  d_states.download(states.data(), states.size());
  for (size_t i = 0; i < problems.size(); ++i) results[i] = adaptive_1d_result(states[i]);
  return results;
}

}  // namespace geobem::quadrature

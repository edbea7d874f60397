#pragma once
// Device code of the block-cutting sweep for any integrand functor f(double)
// (GEOBEM_HD, or __device__ as NVRTC compiles a user's expression): the
// kernels' bodies as __device__ templates, so that the kernels built with the
// library (adaptive_1d_cuda.cu) and the ones NVRTC compiles around an
// expression (gpu/expression/expression_kernels.cu) run one code. Single
// mode: α thread blocks of β threads per block step, one subinterval per
// thread, each block's partial sums to `partials`. Batched mode: one
// integral's whole sweep per thread block. No host headers: NVRTC compiles it.
#include "gpu/quadrature/adaptive_1d_state.hpp"
#include "gpu/quadrature/gauss_kronrod.hpp"

namespace geobem::quadrature::cuda_detail {

/// Tree sum of the block's Kronrod sums (blockDim.x a power of two, by
/// add_kronrod_sums), each step joining adjacent runs of subintervals so that
/// their junctions are checked; the total lands in sums[0].
__device__ inline void block_sum(KronrodSums* sums) {
  for (int stride = 1; stride < static_cast<int>(blockDim.x); stride <<= 1) {
    if (threadIdx.x % (2 * stride) == 0) add_kronrod_sums(sums[threadIdx.x], sums[threadIdx.x + stride]);
    __syncthreads();
  }
}

/// Single mode: this thread block's β of the step's α·β subintervals of the
/// block next_block(*state); dynamic shared memory of β KronrodSums.
template <class F>
__device__ void block_subintervals(const F& f, const BlockCuttingState* state, KronrodSums* partials) {
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

/// Batched mode: thread block k sweeps integral k (integrands[k], from
/// states[k] to its end), β subintervals per step; dynamic shared memory of β KronrodSums.
template <class F>
__device__ void batch_sweep(const F* integrands, BlockCuttingState* states) {
  extern __shared__ KronrodSums shared_sums[];
  __shared__ BlockCuttingState state;
  const F f = integrands[blockIdx.x];
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

}  // namespace geobem::quadrature::cuda_detail

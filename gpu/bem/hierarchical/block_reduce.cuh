#pragma once
// Block-wide reductions for the hierarchical path's kernels (ACA, the
// low-rank matvec): every thread of the block takes part and gets the result;
// `values` / `scratch` / `indices` hold blockDim.x entries in shared memory.
#include <cuda_runtime.h>

namespace geobem::bem::hierarchical {

/// The sum of `value` over the block (all threads get it); `scratch` holds blockDim.x doubles.
__device__ inline double block_sum(double value, double* scratch) {
  scratch[threadIdx.x] = value;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) scratch[threadIdx.x] += scratch[threadIdx.x + stride];
    __syncthreads();
  }
  const double total = scratch[0];
  __syncthreads();
  return total;
}

/// The largest `value` over the block and its smallest index among equals
/// (−1 when every value is negative), in every thread.
__device__ inline void block_argmax(double value, int index, double* values, int* indices, double& best, int& best_index) {
  values[threadIdx.x] = value;
  indices[threadIdx.x] = index;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) {
      const double other = values[threadIdx.x + stride];
      const int other_index = indices[threadIdx.x + stride];
      if (other > values[threadIdx.x] ||
          (other == values[threadIdx.x] && other_index >= 0 && (indices[threadIdx.x] < 0 || other_index < indices[threadIdx.x]))) {
        values[threadIdx.x] = other;
        indices[threadIdx.x] = other_index;
      }
    }
    __syncthreads();
  }
  best = values[0];
  best_index = indices[0];
  __syncthreads();
}

}  // namespace geobem::bem::hierarchical

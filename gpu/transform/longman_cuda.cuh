#pragma once
// CUDA launcher for a batch of Longman integrals of one functor type: one
// thread per integral runs the same longman_integrate() as the CPU driver.
// (One thread per integral was kept over one warp per integral: a family's
// areas are cheap and few, so the batch, not the integral, gives the
// parallelism; see bench/RESULTS.md.) Include from a .cu file.
#include <cstddef>

#include "gpu/core/cuda_check.hpp"
#include "gpu/transform/longman.hpp"

namespace geobem::transform {

template <class F>
__global__ void longman_kernel(const F* __restrict__ items, std::size_t count, GaussRule rule, LongmanOptions options,
                               LongmanResult* __restrict__ results) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) results[i] = longman_integrate(items[i], rule, options);
}

/// results[i] = longman_integrate(items[i], rule, options) on the current CUDA
/// device; `items` and `results` are host arrays (copied in and out). Throws
/// geobem::DeviceError on a CUDA failure. `timings` (may be null) gets the
/// upload, kernel and download times.
template <class F>
void longman_integrate_cuda(const F* items, std::size_t count, const GaussRule& rule, const LongmanOptions& options,
                            LongmanResult* results, LongmanTimings* timings = nullptr) {
  if (count == 0) return;
  F* device_items = nullptr;
  LongmanResult* device_results = nullptr;
  cudaEvent_t events[4];
  for (auto& event : events) GEOBEM_CUDA_CHECK(cudaEventCreate(&event));
  GEOBEM_CUDA_CHECK(cudaMalloc(&device_items, count * sizeof(F)));
  GEOBEM_CUDA_CHECK(cudaMalloc(&device_results, count * sizeof(LongmanResult)));
  GEOBEM_CUDA_CHECK(cudaEventRecord(events[0]));
  GEOBEM_CUDA_CHECK(cudaMemcpy(device_items, items, count * sizeof(F), cudaMemcpyHostToDevice));
  GEOBEM_CUDA_CHECK(cudaEventRecord(events[1]));
  constexpr int block = 128;
  const unsigned grid = static_cast<unsigned>((count + block - 1) / block);
  longman_kernel<F><<<grid, block>>>(device_items, count, rule, options, device_results);
  GEOBEM_CUDA_CHECK_LAUNCH();
  GEOBEM_CUDA_CHECK(cudaEventRecord(events[2]));
  GEOBEM_CUDA_CHECK(cudaMemcpy(results, device_results, count * sizeof(LongmanResult), cudaMemcpyDeviceToHost));
  GEOBEM_CUDA_CHECK(cudaEventRecord(events[3]));
  GEOBEM_CUDA_CHECK(cudaEventSynchronize(events[3]));
  if (timings) {
    float ms[3];
    for (int k = 0; k < 3; ++k) GEOBEM_CUDA_CHECK(cudaEventElapsedTime(&ms[k], events[k], events[k + 1]));
    timings->upload_ms = ms[0];
    timings->kernel_ms = ms[1];
    timings->download_ms = ms[2];
  }
  GEOBEM_CUDA_CHECK(cudaFree(device_items));
  GEOBEM_CUDA_CHECK(cudaFree(device_results));
  for (auto& event : events) GEOBEM_CUDA_CHECK(cudaEventDestroy(event));
}

}  // namespace geobem::transform

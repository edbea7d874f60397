#pragma once
// CUDA launcher for a batch of Longman integrals of one functor type: one
// thread per integral runs the same longman_integrate() as the CPU driver.
// Batches are large (10^4..10^6 integrals) and each integral sequential in its
// areas, so the batch gives the parallelism; a warp-per-integral variant has
// not been built or measured. Include from a .cu file.
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

/// Builds each functor on the device from its parameter row
/// (F::from_parameters(const double*)), so the host sends the rows as they are.
template <class F>
__global__ void longman_rows_kernel(const double* __restrict__ rows, std::size_t stride, std::size_t count,
                                    GaussRule rule, LongmanOptions options, LongmanResult* __restrict__ results) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) results[i] = longman_integrate(F::from_parameters(rows + i * stride), rule, options);
}

namespace detail {

/// Copies `input_bytes` from the host to the device, calls
/// launch(device_input, device_results, grid, block), copies the results back,
/// frees both buffers (also when a check throws) and fills `timings`.
template <class Launch>
void run_on_device(const void* input, std::size_t input_bytes, std::size_t count, LongmanResult* results,
                   LongmanTimings* timings, Launch&& launch) {
  struct Buffers {
    void* input = nullptr;
    LongmanResult* results = nullptr;
    cudaEvent_t events[4] = {};
    ~Buffers() {  // best effort on the way out; errors here cannot be reported
      cudaFree(input);
      cudaFree(results);
      for (auto event : events)
        if (event) cudaEventDestroy(event);
    }
  } buffers;
  for (auto& event : buffers.events) GEOBEM_CUDA_CHECK(cudaEventCreate(&event));
  GEOBEM_CUDA_CHECK(cudaMalloc(&buffers.input, input_bytes));
  GEOBEM_CUDA_CHECK(cudaMalloc(&buffers.results, count * sizeof(LongmanResult)));
  GEOBEM_CUDA_CHECK(cudaEventRecord(buffers.events[0]));
  GEOBEM_CUDA_CHECK(cudaMemcpy(buffers.input, input, input_bytes, cudaMemcpyHostToDevice));
  GEOBEM_CUDA_CHECK(cudaEventRecord(buffers.events[1]));
  constexpr int block = 128;
  launch(buffers.input, buffers.results, static_cast<unsigned>((count + block - 1) / block), block);
  GEOBEM_CUDA_CHECK_LAUNCH();
  GEOBEM_CUDA_CHECK(cudaEventRecord(buffers.events[2]));
  GEOBEM_CUDA_CHECK(cudaMemcpy(results, buffers.results, count * sizeof(LongmanResult), cudaMemcpyDeviceToHost));
  GEOBEM_CUDA_CHECK(cudaEventRecord(buffers.events[3]));
  GEOBEM_CUDA_CHECK(cudaEventSynchronize(buffers.events[3]));
  if (timings) {
    float ms[3];
    for (int k = 0; k < 3; ++k) GEOBEM_CUDA_CHECK(cudaEventElapsedTime(&ms[k], buffers.events[k], buffers.events[k + 1]));
    *timings = LongmanTimings{ms[0], ms[1], ms[2]};
  }
}

}  // namespace detail

/// results[i] = longman_integrate(items[i], rule, options) on the current CUDA
/// device; `items` and `results` are host arrays (copied in and out). Throws
/// geobem::DeviceError on a CUDA failure. `timings` (may be null) gets the
/// upload, kernel and download times.
template <class F>
void longman_integrate_cuda(const F* items, std::size_t count, const GaussRule& rule, const LongmanOptions& options,
                            LongmanResult* results, LongmanTimings* timings = nullptr) {
  if (count == 0) return;
  detail::run_on_device(items, count * sizeof(F), count, results, timings,
                        [&](void* input, LongmanResult* output, unsigned grid, int block) {
                          longman_kernel<F><<<grid, block>>>(static_cast<const F*>(input), count, rule, options, output);
                        });
}

/// As longman_integrate_cuda, with integral i's functor built on the device by
/// F::from_parameters(rows + i * stride) from the host's row-major parameter
/// table (count x stride doubles): no host-side functor array.
template <class F>
void longman_integrate_cuda_rows(const double* rows, std::size_t stride, std::size_t count, const GaussRule& rule,
                                 const LongmanOptions& options, LongmanResult* results,
                                 LongmanTimings* timings = nullptr) {
  if (count == 0) return;
  detail::run_on_device(rows, count * stride * sizeof(double), count, results, timings,
                        [&](void* input, LongmanResult* output, unsigned grid, int block) {
                          longman_rows_kernel<F><<<grid, block>>>(static_cast<const double*>(input), stride, count,
                                                                  rule, options, output);
                        });
}

}  // namespace geobem::transform

#pragma once
// CUDA launcher for a batch of Longman integrals of one functor type: one
// thread per integral runs the same integrate_one() as the CPU driver.
// Batches are large (10^4..10^6 integrals) and each integral sequential in its
// areas, so the batch gives the parallelism; a warp-per-integral variant has
// not been built or measured. The batch goes through the device in chunks
// whose copies overlap the kernels (longman_cuda_pipeline.hpp). Include from
// a .cu file.
#include <cstddef>

#include "gpu/transform/longman.hpp"
#include "gpu/transform/longman_cuda_pipeline.hpp"

namespace geobem::transform {

template <class F>
__global__ void longman_kernel(const F* __restrict__ items, std::size_t count, GaussRule rule, LongmanOptions options,
                               LongmanResult* __restrict__ results) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) results[i] = integrate_one(items[i], rule, options);
}

/// Builds each functor on the device from its parameter row
/// (F::from_parameters(const double*)), so the host sends the rows as they are.
template <class F>
__global__ void longman_rows_kernel(const double* __restrict__ rows, std::size_t stride, std::size_t count,
                                    GaussRule rule, LongmanOptions options, LongmanResult* __restrict__ results) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < count) results[i] = integrate_one(F::from_parameters(rows + i * stride), rule, options);
}

/// Threads per block of the Longman kernels.
constexpr int kLongmanBlock = 128;

/// Blocks of kLongmanBlock threads for `count` integrals.
inline unsigned longman_grid(std::size_t count) {
  return static_cast<unsigned>((count + kLongmanBlock - 1) / kLongmanBlock);
}

/// results[i] = integrate_one(items[i], rule, options) on the current CUDA
/// device; `items` and `results` are host arrays (copied in and out). Throws
/// geobem::DeviceError on a CUDA failure. `timings` (may be null) gets the
/// upload, kernel and download times (detail::run_longman_pipeline).
template <class F>
void longman_integrate_cuda(const F* items, std::size_t count, const GaussRule& rule, const LongmanOptions& options,
                            LongmanResult* results, LongmanTimings* timings = nullptr) {
  if (count == 0) return;
  detail::run_longman_pipeline(
      items, sizeof(F), count, results, timings,
      [&](const unsigned char* input, std::size_t chunk, LongmanResult* output, cudaStream_t stream) {
        longman_kernel<F><<<longman_grid(chunk), kLongmanBlock, 0, stream>>>(reinterpret_cast<const F*>(input), chunk,
                                                                             rule, options, output);
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
  detail::run_longman_pipeline(
      rows, stride * sizeof(double), count, results, timings,
      [&](const unsigned char* input, std::size_t chunk, LongmanResult* output, cudaStream_t stream) {
        longman_rows_kernel<F><<<longman_grid(chunk), kLongmanBlock, 0, stream>>>(
            reinterpret_cast<const double*>(input), stride, chunk, rule, options, output);
      });
}

}  // namespace geobem::transform

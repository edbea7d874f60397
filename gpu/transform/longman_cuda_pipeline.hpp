#pragma once
// The device side of a Longman batch: the batch goes through the GPU in
// chunks of kLongmanChunk integrals, each chunk in one of kLongmanSlots
// slots (page-locked host staging, device buffers, a stream, events), so
// that the host's copy into the staging of one chunk, the upload of the
// next, the kernel of a third and the download of a fourth overlap. The
// slots of each device are made on first use and kept for the life of the
// process: a warm call allocates nothing. Their memory is bounded by the
// chunk size, whatever the batch size. Host code (CUDA runtime only); the
// kernels come from longman_cuda.cuh.
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <functional>
#include <mutex>

#include "gpu/core/cuda_event.hpp"
#include "gpu/core/cuda_stream.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/pinned_buffer.hpp"
#include "gpu/transform/longman.hpp"

namespace geobem::transform::detail {

/// Integrals per chunk: 2^18 threads of 128 fill an H100 (132 SMs × 16
/// resident blocks) about once, so a chunk's kernel is not starved, and a
/// 10^6 batch still splits into four chunks whose copies overlap the kernels.
constexpr std::size_t kLongmanChunk = std::size_t{1} << 18;
/// Chunks in flight: one being staged by the host, one uploading, one in
/// the kernel, one downloading fit in four.
constexpr std::size_t kLongmanSlots = 4;

/// One chunk in flight: its parameter rows (bytes) and results on the host
/// (page-locked) and on the device; the stream its copies and kernel run
/// on; events before the upload, after it, after the kernel and after the
/// download. `count` 0: the slot is free.
struct LongmanSlot {
  PinnedBuffer<unsigned char> host_input;
  PinnedBuffer<LongmanResult> host_results;
  DeviceBuffer<unsigned char> device_input;
  DeviceBuffer<LongmanResult> device_results;
  CudaStream stream;
  CudaEvent start, uploaded, computed, done;
  LongmanResult* destination = nullptr;  ///< where the chunk's results go on the host
  std::size_t count = 0;
};

/// The slots of one device; a call holds `mutex` for its whole batch.
/// batch_start and first_kernel: recorded before the first chunk's upload
/// and after it, the origins of the batch's spans (LongmanTimings).
struct LongmanSlots {
  std::mutex mutex;
  std::array<LongmanSlot, kLongmanSlots> slots;
  CudaEvent batch_start, first_kernel;
};

/// The slots of the current CUDA device, made on the first call for it.
/// Throws DeviceError when they cannot be made.
LongmanSlots& longman_slots();

/// Launches the kernel for `count` integrals whose input starts at
/// `device_input`, writing `device_results`, on `stream`.
using LongmanLaunch =
    std::function<void(const unsigned char* device_input, std::size_t count, LongmanResult* device_results,
                       cudaStream_t stream)>;

/// Runs `count` integrals of `input_bytes_per_integral` input bytes each
/// (host array `input`) through the slots of the current device; their
/// results land in the host array `results`. `timings` (may be null): the
/// upload, kernel and download times of the device, each summed over the
/// chunks (phases of different chunks overlap, so the sum may exceed the
/// wall time). Throws DeviceError; after a throw no slot is in use.
void run_longman_pipeline(const void* input, std::size_t input_bytes_per_integral, std::size_t count,
                          LongmanResult* results, LongmanTimings* timings, const LongmanLaunch& launch);

}  // namespace geobem::transform::detail

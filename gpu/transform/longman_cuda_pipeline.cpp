#include "gpu/transform/longman_cuda_pipeline.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>

#include "gpu/core/cuda_check.hpp"

namespace geobem::transform::detail {

namespace {

/// memcpy by all OpenMP threads in pieces of 256 KiB: one thread copies
/// from ordinary into page-locked memory at well under the host link's rate.
void copy_in_parallel(void* destination, const void* source, std::size_t bytes) {
  constexpr std::size_t piece = std::size_t{1} << 18;
  const auto pieces = static_cast<std::int64_t>((bytes + piece - 1) / piece);
  auto* to = static_cast<unsigned char*>(destination);
  const auto* from = static_cast<const unsigned char*>(source);
#pragma omp parallel for schedule(static) if (pieces > 1)
  for (std::int64_t p = 0; p < pieces; ++p) {
    const std::size_t begin = static_cast<std::size_t>(p) * piece;
    std::memcpy(to + begin, from + begin, std::min(piece, bytes - begin));
  }
}

/// Waits for the slot's chunk, adds its device times, copies its results to
/// their destination and frees the slot.
void retire(LongmanSlot& slot, const LongmanSlots& state, LongmanTimings* timings) {
  slot.done.synchronize();
  if (timings) {
    timings->upload_ms += elapsed_ms(slot.start, slot.uploaded);
    timings->kernel_ms += elapsed_ms(slot.uploaded, slot.computed);
    timings->download_ms += elapsed_ms(slot.computed, slot.done);
    timings->kernel_span_ms = std::max<double>(timings->kernel_span_ms, elapsed_ms(state.first_kernel, slot.computed));
    timings->device_span_ms = std::max<double>(timings->device_span_ms, elapsed_ms(state.batch_start, slot.done));
  }
  copy_in_parallel(slot.destination, slot.host_results.data(), slot.count * sizeof(LongmanResult));
  slot.count = 0;
}

}  // namespace

LongmanSlots& longman_slots() {
  static std::mutex devices_mutex;
  static std::map<int, std::unique_ptr<LongmanSlots>> devices;
  int device = 0;
  GEOBEM_CUDA_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(devices_mutex);
  auto& slots = devices[device];
  if (!slots) slots = std::make_unique<LongmanSlots>();
  return *slots;
}

void run_longman_pipeline(const void* input, std::size_t input_bytes_per_integral, std::size_t count,
                          LongmanResult* results, LongmanTimings* timings, const LongmanLaunch& launch) {
  LongmanSlots& state = longman_slots();
  const std::lock_guard<std::mutex> lock(state.mutex);
  if (timings) *timings = LongmanTimings{};
  const auto* rows = static_cast<const unsigned char*>(input);
  std::size_t chunk = 0;
  try {
    for (std::size_t first = 0; first < count; first += kLongmanChunk, ++chunk) {
      LongmanSlot& slot = state.slots[chunk % kLongmanSlots];
      if (slot.count) retire(slot, state, timings);
      const std::size_t n = std::min(kLongmanChunk, count - first), bytes = n * input_bytes_per_integral;
      const cudaStream_t stream = slot.stream.get();
      // Buffers grow to one chunk on first use and are reused from then on.
      slot.host_input.resize_discard(bytes);
      slot.device_input.resize_discard(bytes);
      slot.host_results.resize_discard(n);
      slot.device_results.resize_discard(n);
      copy_in_parallel(slot.host_input.data(), rows + first * input_bytes_per_integral, bytes);
      slot.start.record(stream);
      if (first == 0) state.batch_start.record(stream);
      slot.device_input.upload_async(slot.host_input.data(), bytes, stream);
      slot.uploaded.record(stream);
      if (first == 0) state.first_kernel.record(stream);
      launch(slot.device_input.data(), n, slot.device_results.data(), stream);
      GEOBEM_CUDA_CHECK_LAUNCH();
      slot.computed.record(stream);
      slot.device_results.download_async(slot.host_results.data(), n, stream);
      slot.done.record(stream);
      slot.destination = results + first;
      slot.count = n;
    }
    for (std::size_t k = 0; k < kLongmanSlots; ++k) {  // the chunks still in flight, oldest first
      LongmanSlot& slot = state.slots[(chunk + k) % kLongmanSlots];
      if (slot.count) retire(slot, state, timings);
    }
  } catch (...) {
    // Leave no chunk in flight that a later call would retire into this
    // call's results; errors here repeat the one being thrown.
    for (LongmanSlot& slot : state.slots) {
      (void)cudaStreamSynchronize(slot.stream.get());
      slot.count = 0;
    }
    throw;
  }
}

}  // namespace geobem::transform::detail

#pragma once
// How much device memory one method may plan to take: the one rule every
// CUDA driver asks (gravity's chunks, cubature's spill records, the BEM's
// frequency batches, the Longman batch). This header needs no CUDA.
//
// The rule: a method asks once it holds its fixed buffers and plans the
// rest within device_memory_share (80%) of the memory then free on its
// device, or within the user's limit if that is smaller. The fifth left
// free is what the method takes without planning it (cuFFT and cuSOLVER
// work areas, CUB scratch, the local memory the runtime reserves at launch
// for register spills of every resident thread) and room for another
// process or MPI rank on the same device; the free figure is a snapshot.
#include <cstddef>

namespace geobem {

/// Share of the free device memory one method may plan to take.
constexpr double device_memory_share = 0.8;

/// device_memory_share × `free_bytes`, or `limit_bytes` when that is smaller
/// and not 0 (0: no limit of the user's), in bytes.
constexpr std::size_t memory_budget(std::size_t free_bytes, std::size_t limit_bytes = 0) {
  // The double 0.8 lies just above 4/5, so the product truncates to
  // floor(0.8 · free_bytes) for every size below 2^53 bytes.
  const auto share = static_cast<std::size_t>(device_memory_share * static_cast<double>(free_bytes));
  return limit_bytes > 0 && limit_bytes < share ? limit_bytes : share;
}

/// memory_budget() of the memory free now on the current CUDA device
/// (cudaMemGetInfo). Throws geobem::DeviceError when the query fails.
std::size_t device_memory_budget(std::size_t limit_bytes = 0);

}  // namespace geobem

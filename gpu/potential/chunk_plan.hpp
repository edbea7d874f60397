#pragma once
// How the source × station launcher (station_sums_cuda.cuh) streams a problem
// larger than the device memory: the stored source data and the stations go to
// the device in chunks sized from a memory budget. Host-only arithmetic,
// tested on the CPU.
#include <cstddef>

namespace geobem::potential {

/// Chunk sizes of one run: every station chunk meets every source chunk.
struct ChunkPlan {
  std::size_t sources_per_chunk = 0;
  std::size_t stations_per_chunk = 0;
};

/// Chunk sizes for `sources` sources of `source_bytes` bytes each and
/// `stations` stations of `station_bytes` device bytes each (coordinates and
/// sums) within `budget_bytes` of device memory: everything at once when it
/// fits; otherwise at most half the budget for stations and the rest for
/// sources, a multiple of `source_multiple` of them (the launcher's tiles).
/// Both counts are ≥ 1 and no larger than the totals. Throws ResourceError
/// naming the budget when it cannot hold one station and one source
/// (source_multiple sources where the sources take chunks).
ChunkPlan plan_chunks(std::size_t sources, std::size_t source_bytes, std::size_t stations, std::size_t station_bytes,
                      std::size_t budget_bytes, std::size_t source_multiple = 1);

}  // namespace geobem::potential

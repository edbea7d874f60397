#pragma once
// How the CUDA driver streams a problem larger than the device memory: the
// sources (prisms or grid nodes) and the stations go to the device in chunks
// sized from a memory budget. Host-only arithmetic, tested on the CPU.
#include <cstddef>

namespace geobem::gravity {

/// Chunk sizes of one forward run: every station chunk meets every source chunk.
struct ChunkPlan {
  std::size_t sources_per_chunk = 0;
  std::size_t stations_per_chunk = 0;
};

/// Device bytes per station: its coordinates and 10 double sums.
std::size_t station_device_bytes();

/// Chunk sizes for `sources` sources of `source_bytes` bytes each and
/// `stations` stations within `budget_bytes` of device memory: everything at
/// once when it fits; otherwise at most half the budget for stations and the
/// rest for sources. Both counts are ≥ 1 and no larger than the totals.
/// Throws std::invalid_argument naming the budget when it cannot hold one
/// source and one station.
ChunkPlan plan_chunks(std::size_t sources, std::size_t source_bytes, std::size_t stations, std::size_t budget_bytes);

}  // namespace geobem::gravity

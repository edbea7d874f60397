#include "gpu/gravity/chunk_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpu/gravity/prism.hpp"

namespace geobem::gravity {

std::size_t station_device_bytes() { return sizeof(Station) + 10 * sizeof(double); }

ChunkPlan plan_chunks(std::size_t sources, std::size_t source_bytes, std::size_t stations, std::size_t budget_bytes) {
  const std::size_t per_station = station_device_bytes();
  if (budget_bytes < source_bytes + per_station)
    throw std::invalid_argument("device memory budget of " + std::to_string(budget_bytes) +
                                " bytes cannot hold one source and one station (" +
                                std::to_string(source_bytes + per_station) + " bytes)");
  sources = std::max<std::size_t>(sources, 1);
  stations = std::max<std::size_t>(stations, 1);
  // Compare in bytes divided out, so that no product overflows.
  if (sources <= budget_bytes / source_bytes &&
      stations <= (budget_bytes - sources * source_bytes) / per_station)
    return {sources, stations};
  ChunkPlan plan;
  plan.stations_per_chunk = std::clamp<std::size_t>(budget_bytes / 2 / per_station, 1, stations);
  plan.sources_per_chunk =
      std::clamp<std::size_t>((budget_bytes - plan.stations_per_chunk * per_station) / source_bytes, 1, sources);
  return plan;
}

}  // namespace geobem::gravity

#include "gpu/potential/chunk_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpu/core/resource_error.hpp"

namespace geobem::potential {

ChunkPlan plan_chunks(std::size_t sources, std::size_t source_bytes, std::size_t stations, std::size_t station_bytes,
                      std::size_t budget_bytes, std::size_t source_multiple) {
  if (budget_bytes < source_bytes + station_bytes)
    throw ResourceError("device memory budget of " + std::to_string(budget_bytes) +
                        " bytes cannot hold one source and one station (" +
                        std::to_string(source_bytes + station_bytes) + " bytes)");
  sources = std::max<std::size_t>(sources, 1);
  stations = std::max<std::size_t>(stations, 1);
  // Compare in bytes divided out, so that no product overflows.
  if (sources <= budget_bytes / source_bytes && stations <= (budget_bytes - sources * source_bytes) / station_bytes)
    return {sources, stations};
  ChunkPlan plan;
  plan.stations_per_chunk = std::clamp<std::size_t>(budget_bytes / 2 / station_bytes, 1, stations);
  plan.sources_per_chunk =
      std::clamp<std::size_t>((budget_bytes - plan.stations_per_chunk * station_bytes) / source_bytes, 1, sources);
  if (plan.sources_per_chunk < sources && source_multiple > 1) {
    plan.sources_per_chunk -= plan.sources_per_chunk % source_multiple;
    if (plan.sources_per_chunk == 0)
      throw ResourceError("device memory budget of " + std::to_string(budget_bytes) + " bytes cannot hold " +
                          std::to_string(source_multiple) + " sources and one station (" +
                          std::to_string(source_multiple * source_bytes + station_bytes) + " bytes)");
  }
  return plan;
}

}  // namespace geobem::potential

#pragma once
// The CUDA side of rounding_sums (rounding_estimate.hpp): the launcher
// on the current device, sources and stations streamed in chunks within
// memory_limit_bytes (0: the device memory budget).
#include <cstdint>
#include <vector>

#include "gpu/gravity/rounding_estimate.hpp"

namespace geobem::gravity {

std::vector<double> rounding_sums_cuda(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                                          Precision precision, std::size_t memory_limit_bytes);
std::vector<double> rounding_sums_cuda(const std::vector<GridNode>& nodes, const std::vector<Station>& stations,
                                          Precision precision, std::size_t memory_limit_bytes);
std::vector<double> rounding_sums_cuda(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                                          const std::vector<Station>& stations, Precision precision,
                                          std::size_t memory_limit_bytes);

}  // namespace geobem::gravity

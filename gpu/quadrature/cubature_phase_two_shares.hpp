#pragma once
// How the cubature's phase two divides its work (cubature.hpp): the live
// phase-one regions in chunks dealt out to the ranks, and each region's share
// of the error budget and of the evaluations left. The same formulas on the
// CPU and in the CUDA kernels, NVRTC-compiled ones included (no host headers).
#include <cstddef>
#include <cstdint>

#include "gpu/core/host_device.hpp"

namespace geobem::quadrature {

/// Phase two works on chunks of this many consecutive live phase-one regions:
/// chunk c goes to rank c mod ranks, and each chunk's sums are taken in
/// region order, so every split over ranks gives the same bits.
constexpr std::size_t kPhaseTwoChunk = 4096;

/// Number of chunks of kPhaseTwoChunk among `live_regions` regions.
inline std::size_t phase_two_chunk_count(std::uint64_t live_regions) {
  return static_cast<std::size_t>((live_regions + kPhaseTwoChunk - 1) / kPhaseTwoChunk);
}

/// How phase two shares the error budget and the evaluation cap among the
/// live phase-one regions; the same formulas on the CPU and in the CUDA
/// kernel, and independent of which rank refines which region.
struct PhaseTwoShares {
  double budget = 0.0;      ///< 0.9·target less the retired error
  double live_error = 0.0;  ///< sum of the live regions' errors
  double remaining = 0.0;   ///< evaluations left for refining all live regions
  double count = 1.0;       ///< live regions
  /// Whether a region that reaches its evaluation cap gets the degree-9
  /// check of its final regions (add_degree9_check): the evaluations it
  /// takes were set aside beside `remaining` (phase_two_shares).
  bool check = false;
  /// The unit of the rules' absolute sums in FinalRegionSums::check_scale_squared
  /// (degree9_check_unit), so that their squares neither overflow nor underflow.
  double check_unit = 1.0;

  /// A region's error budget: `budget` in proportion to the regions' errors.
  GEOBEM_HD double region_budget(double error) const {
    return live_error > 0.0 ? budget * (error / live_error) : budget / count;
  }
  /// A region's evaluation cap: `remaining` shared half evenly, half in
  /// proportion to the errors, so that no region can take all of it and the
  /// hardest get the most.
  GEOBEM_HD std::uint64_t region_cap(double error) const {
    const double share = 0.5 / count + (live_error > 0.0 ? 0.5 * error / live_error : 0.5 / count);
    return static_cast<std::uint64_t>(share * remaining);
  }
};

}  // namespace geobem::quadrature

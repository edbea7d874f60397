#pragma once
// CPU driver of the two-phase cubature for any GEOBEM_HD integrand functor:
// OpenMP over regions, the Genz–Malik rule of genz_malik_rule.hpp applied
// sequentially inside each region. Compile with -fopenmp (g++).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <vector>

#include "gpu/core/progress.hpp"
#include "gpu/quadrature/cubature.hpp"
#include "gpu/quadrature/genz_malik_degree9_rule.hpp"

namespace geobem::quadrature {

/// Phase one on the CPU: apply the rule to every live region, retire those
/// within their share (retirement_density), stop when the total meets the
/// tolerance or when ≥ min_regions regions live, else split the live ones.
template <class Integrand>
CubaturePhaseOne cpu_cubature_phase_one(const Integrand& f, const CubatureOptions& options) {
  PhaseOneStart start = start_phase_one(options);
  const int n = options.dim;
  const std::uint64_t points = start.points;
  int levels = start.levels;
  std::vector<CubatureRegion> live = std::move(start.regions);
  CubaturePhaseOne out;
  std::vector<double> parent_estimates;
  CompensatedSum retired_estimate;
  while (true) {
    if (out.evaluations + points * live.size() > options.max_evaluations) {
      out.capped = true;
      break;
    }
    const long count = static_cast<long>(live.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (long r = 0; r < count; ++r) apply_genz_malik(f, n, start.weights, live[r]);
    for (std::size_t r = 0; r < parent_estimates.size(); ++r)
      apply_two_level_error(parent_estimates[r], live[2 * r], live[2 * r + 1]);
    out.evaluations += points * live.size();
    CompensatedSum estimate;
    double error = 0.0, volume = 0.0, change = 0.0, rounding = 0.0;
    for (const auto& region : live) {
      estimate.add(region.estimate);
      change += region.change;
      error += region.error;
      volume += region_volume(n, region);
      rounding += region.rounding;
    }
    out.estimate = out.retired_estimate + estimate.value();
    out.error = out.retired_error + error;
    out.live_change = change;
    out.live_rounding = rounding;
    out.counted_retired_error = out.retired_error;
    out.levels = levels;
    out.live_regions = live.size();
    out.converged = levels >= minimum_levels(options) && out.error <= cubature_target(options, out.estimate);
    if (out.converged) break;
    const double density = retirement_density(options, levels, out.estimate, out.retired_error, volume);
    std::vector<CubatureRegion> kept;
    for (const auto& region : live) {
      if (region.error <= density * region_volume(n, region)) {
        retired_estimate.add(region.estimate);
        out.retired_estimate = retired_estimate.value();
        out.retired_error += region.error;
        ++out.retired_regions;
      } else {
        kept.push_back(region);
      }
    }
    out.live_regions = kept.size();
    if (kept.empty()) {  // everything retired within its share
      out.converged = out.error <= cubature_target(options, out.estimate);
      break;
    }
    // Phase two takes over at L_max live regions, or when splitting them all
    // would pass the refinement cap (phase two shares what is left by region).
    if (kept.size() >= options.min_regions || out.evaluations + 2 * points * kept.size() > refinement_cap(options)) {
      for (const auto& region : kept) out.live_error += region.error;
      out.regions = std::move(kept);
      break;
    }
    live.assign(2 * kept.size(), CubatureRegion{});
    parent_estimates.resize(kept.size());
    ++levels;
    for (std::size_t r = 0; r < kept.size(); ++r) {
      split_region(n, kept[r], live[2 * r], live[2 * r + 1]);
      parent_estimates[r] = kept[r].estimate;
    }
  }
  return out;
}

/// Phase two on the CPU: every region of the chunks of `rank` of `ranks`
/// refined on its own (largest error first, kept in a heap) until its error
/// is within its budget or it reaches its evaluation cap (phase_two_shares);
/// a region stopped by its cap gets the degree-9 check of its final regions
/// where the shares allow it.
template <class Integrand>
CubaturePhaseTwo cpu_cubature_phase_two(const Integrand& f, const CubatureOptions& options,
                                        const CubaturePhaseOne& phase_one, int rank, int ranks,
                                        std::uint64_t evaluation_cap) {
  const int n = options.dim;
  const std::uint64_t points = genz_malik_point_count(n);
  const std::uint64_t check_points = degree9_point_count(n);
  const std::size_t total = phase_one.regions.size();
  const std::size_t chunks = phase_two_chunk_count(total);
  const PhaseTwoShares shares = phase_two_shares(phase_one, options, evaluation_cap);
  const GenzMalikWeights weights = genz_malik_weights(n);
  const Degree9Rule check_rule = degree9_rule(n);
  std::vector<std::size_t> mine;  // this rank's regions, in region order
  for (std::size_t c = rank; c < chunks; c += ranks)
    for (std::size_t r = c * kPhaseTwoChunk; r < std::min(total, (c + 1) * kPhaseTwoChunk); ++r) mine.push_back(r);
  std::vector<FinalRegionSums> outcomes(mine.size());
  std::uint64_t evaluations_sum = 0, regions_sum = 0, checked_sum = 0;
  std::atomic<bool> capped{false};
  ProgressReporter progress("cubature phase two", mine.size(), "regions", options.quiet);
  const auto by_error = [](const CubatureRegion& a, const CubatureRegion& b) { return a.error < b.error; };
  const long count = static_cast<long>(mine.size());
#pragma omp parallel for schedule(dynamic, 1) reduction(+ : evaluations_sum, regions_sum, checked_sum)
  for (long k = 0; k < count; ++k) {
    std::vector<CubatureRegion> heap{phase_one.regions[mine[k]]};
    double error = heap.front().error;
    const double budget = shares.region_budget(error);
    const std::uint64_t cap = shares.region_cap(error);
    std::uint64_t evaluations = 0;
    bool region_capped = false;
    while (error > budget) {
      if (evaluations + 2 * points > cap) {
        region_capped = true;
        break;
      }
      std::pop_heap(heap.begin(), heap.end(), by_error);
      const CubatureRegion parent = heap.back();
      heap.pop_back();
      CubatureRegion lower, upper;
      split_region(n, parent, lower, upper);
      apply_genz_malik(f, n, weights, lower);
      apply_genz_malik(f, n, weights, upper);
      apply_two_level_error(parent.estimate, lower, upper);
      heap.push_back(lower);
      std::push_heap(heap.begin(), heap.end(), by_error);
      heap.push_back(upper);
      std::push_heap(heap.begin(), heap.end(), by_error);
      error += lower.error + upper.error - parent.error;
      evaluations += 2 * points;
    }
    if (region_capped) capped = true;
    const bool check = region_capped && shares.check;
    FinalRegionSums sums;
    for (const auto& region : heap) {
      sums.add_region(region);
      if (check) {
        double absolute = 0.0;
        const double q9 = apply_degree9(f, n, check_rule, region, &absolute);
        add_degree9_check(q9, absolute, region, shares.check_unit, sums);
      } else {
        sums.unchecked_error += region.error;
      }
    }
    if (check) {
      evaluations += check_points * heap.size();
      checked_sum += heap.size();
    }
    outcomes[k] = sums;
    evaluations_sum += evaluations;
    regions_sum += heap.size();
    progress.advance(1);
  }
  progress.finish();
  CubaturePhaseTwo out;
  out.chunks.assign(chunks, FinalRegionSums{});
  for (std::size_t k = 0; k < mine.size(); ++k)  // region order within each chunk
    out.chunks[mine[k] / kPhaseTwoChunk].add(outcomes[k]);
  out.evaluations = evaluations_sum;
  out.regions = regions_sum;
  out.checked_regions = checked_sum;
  out.capped = capped;
  return out;
}

/// Both phases on the CPU for any functor (the library's CubatureIntegrand
/// goes through integrate_cubature instead).
template <class Integrand>
CubatureResult cpu_integrate_cubature(const Integrand& f, const CubatureOptions& options) {
  const CubaturePhaseOne one = cpu_cubature_phase_one(f, options);
  if (one.converged || one.capped) return combine_phases(one, CubaturePhaseTwo{}, options);
  return combine_phases(one, cpu_cubature_phase_two(f, options, one, 0, 1, options.max_evaluations - one.evaluations),
                        options);
}

}  // namespace geobem::quadrature

#pragma once
// CPU driver of the two-phase cubature for any GEOBEM_HD integrand functor:
// OpenMP over regions, the Genz–Malik rule of genz_malik_rule.hpp applied
// sequentially inside each region. Compile with -fopenmp (g++).
#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

#include "gpu/core/progress.hpp"
#include "gpu/quadrature/cubature.hpp"

namespace geobem::quadrature {

/// Phase one on the CPU: apply the rule to every live region, stop when the
/// sum meets the tolerance or when ≥ min_regions regions live, else split all.
template <class Integrand>
CubaturePhaseOne cpu_cubature_phase_one(const Integrand& f, const CubatureOptions& options) {
  check_cubature_options(options);
  const int n = options.dim;
  const std::uint64_t points = genz_malik_point_count(n);
  CubaturePhaseOne out;
  std::vector<CubatureRegion> live{initial_region(options)};
  int levels = 0;
  while (true) {
    if (out.evaluations + points * live.size() > options.max_evaluations) {
      out.capped = true;
      break;
    }
    const long count = static_cast<long>(live.size());
#pragma omp parallel for schedule(dynamic, 16)
    for (long r = 0; r < count; ++r) apply_genz_malik(f, n, live[r]);
    if (levels > 0)
      for (long r = 0; r < count / 2; ++r) apply_two_level_error(out.regions[r], live[2 * r], live[2 * r + 1]);
    out.evaluations += points * live.size();
    out.estimate = out.error = 0.0;
    for (const auto& region : live) {
      out.estimate += region.estimate;
      out.error += region.error;
    }
    out.regions = live;
    out.converged = levels >= minimum_levels(options) && out.error <= cubature_target(options, out.estimate);
    if (out.converged || live.size() >= options.min_regions) break;
    std::vector<CubatureRegion> children(2 * live.size());
    ++levels;
    for (std::size_t r = 0; r < live.size(); ++r) split_region(n, live[r], children[2 * r], children[2 * r + 1]);
    live.swap(children);
  }
  return out;
}

/// Phase two on the CPU: every listed region refined on its own (largest
/// error first, kept in a heap) until its error is within its budget.
template <class Integrand>
CubaturePhaseTwo cpu_cubature_phase_two(const Integrand& f, const CubatureOptions& options,
                                        const CubaturePhaseOne& phase_one, const std::vector<std::size_t>& indices,
                                        std::uint64_t evaluation_cap) {
  const int n = options.dim;
  const std::uint64_t points = genz_malik_point_count(n);
  const std::size_t total = phase_one.regions.size();
  const std::vector<double> budgets = phase_two_budgets(phase_one, options);
  CubaturePhaseTwo out;
  out.estimate.assign(total, 0.0);
  out.error.assign(total, 0.0);
  out.evaluations.assign(total, 0);
  out.regions.assign(total, 0);
  std::atomic<std::uint64_t> used{0};
  std::atomic<bool> capped{false};
  ProgressReporter progress("cubature phase two", indices.size(), "regions", options.quiet);
  const auto by_error = [](const CubatureRegion& a, const CubatureRegion& b) { return a.error < b.error; };
  const long count = static_cast<long>(indices.size());
#pragma omp parallel for schedule(dynamic, 1)
  for (long k = 0; k < count; ++k) {
    const std::size_t r = indices[k];
    std::vector<CubatureRegion> heap{phase_one.regions[r]};
    double error = heap.front().error;
    std::uint64_t evaluations = 0;
    while (error > budgets[r]) {
      if (used.fetch_add(2 * points) + 2 * points > evaluation_cap) {
        capped = true;
        break;
      }
      std::pop_heap(heap.begin(), heap.end(), by_error);
      const CubatureRegion parent = heap.back();
      heap.pop_back();
      CubatureRegion lower, upper;
      split_region(n, parent, lower, upper);
      apply_genz_malik(f, n, lower);
      apply_genz_malik(f, n, upper);
      apply_two_level_error(parent, lower, upper);
      heap.push_back(lower);
      std::push_heap(heap.begin(), heap.end(), by_error);
      heap.push_back(upper);
      std::push_heap(heap.begin(), heap.end(), by_error);
      error += lower.error + upper.error - parent.error;
      evaluations += 2 * points;
    }
    double estimate_sum = 0.0, error_sum = 0.0;
    for (const auto& region : heap) {
      estimate_sum += region.estimate;
      error_sum += region.error;
    }
    out.estimate[r] = estimate_sum;
    out.error[r] = error_sum;
    out.evaluations[r] = evaluations;
    out.regions[r] = heap.size();
    progress.advance(1);
  }
  progress.finish();
  out.capped = capped;
  return out;
}

/// Both phases on the CPU for any functor (the library's CubatureIntegrand
/// goes through integrate_cubature instead).
template <class Integrand>
CubatureResult cpu_integrate_cubature(const Integrand& f, const CubatureOptions& options) {
  const CubaturePhaseOne one = cpu_cubature_phase_one(f, options);
  if (one.converged || one.capped) return combine_phases(one, CubaturePhaseTwo{}, options);
  std::vector<std::size_t> all(one.regions.size());
  for (std::size_t r = 0; r < all.size(); ++r) all[r] = r;
  return combine_phases(one, cpu_cubature_phase_two(f, options, one, all, options.max_evaluations - one.evaluations),
                        options);
}

}  // namespace geobem::quadrature

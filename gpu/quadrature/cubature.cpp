#include "gpu/quadrature/cubature.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "gpu/core/input_error.hpp"
#include "gpu/quadrature/cubature_cpu.hpp"
#include "gpu/quadrature/cubature_cuda.hpp"
#include "gpu/quadrature/genz_malik_degree9_rule.hpp"

namespace geobem::quadrature {

void check_cubature_options(const CubatureOptions& o) {
  if (o.dim < kMinCubatureDim || o.dim > kMaxCubatureDim)
    throw InputError::usage("dimension " + std::to_string(o.dim) + " out of range " +
                            std::to_string(kMinCubatureDim) + ".." + std::to_string(kMaxCubatureDim));
  if (!(o.rel_tol >= 0.0) || !(o.abs_tol >= 0.0) || !std::isfinite(o.rel_tol) || !std::isfinite(o.abs_tol))
    throw InputError::usage("tolerances must be finite and >= 0 (rel_tol " + std::to_string(o.rel_tol) +
                            ", abs_tol " + std::to_string(o.abs_tol) + ")");
  if (o.rel_tol == 0.0 && o.abs_tol == 0.0) throw InputError::usage("rel_tol and abs_tol are both 0");
  if (!o.lower.empty() || !o.upper.empty()) {
    if (o.lower.size() != static_cast<std::size_t>(o.dim) || o.upper.size() != o.lower.size())
      throw InputError::usage("box bounds need " + std::to_string(o.dim) + " lower and upper values");
    for (int i = 0; i < o.dim; ++i)
      if (!std::isfinite(o.lower[i]) || !std::isfinite(o.upper[i]) || !(o.lower[i] < o.upper[i]))
        throw InputError::usage("box side " + std::to_string(i) + " [" + std::to_string(o.lower[i]) + ", " +
                                std::to_string(o.upper[i]) + "] is not a finite interval with lower < upper");
  }
  if (o.max_evaluations < static_cast<std::uint64_t>(genz_malik_point_count(o.dim)))
    throw InputError::usage("max_evaluations " + std::to_string(o.max_evaluations) +
                            " is below one rule application (" +
                            std::to_string(genz_malik_point_count(o.dim)) + " points)");
  if (o.min_regions == 0) throw InputError::usage("min_regions must be >= 1");
  if (!o.breakpoints.empty() && o.breakpoints.size() != static_cast<std::size_t>(o.dim))
    throw InputError::usage("breakpoints need one list per axis (" + std::to_string(o.dim) + "), got " +
                            std::to_string(o.breakpoints.size()));
  for (const auto& axis : o.breakpoints)
    for (double x : axis)
      if (!std::isfinite(x)) throw InputError::usage("breakpoint " + std::to_string(x) + " is not finite");
}

int minimum_levels(const CubatureOptions& options) {
  int levels = 0;
  const int wanted = kMaxMinimumLevels;
  while (levels < wanted && (std::size_t{2} << levels) <= options.min_regions) ++levels;
  return levels;
}

double cubature_target(const CubatureOptions& options, double estimate) {
  return std::max(options.abs_tol, options.rel_tol * std::fabs(estimate));
}

double retirement_density(const CubatureOptions& options, int levels, double total_estimate, double retired_error,
                          double live_volume) {
  if (levels < minimum_levels(options) || !(live_volume > 0.0)) return -1.0;
  return (0.9 * cubature_target(options, total_estimate) - retired_error) / live_volume;
}

PhaseTwoShares phase_two_shares(const CubaturePhaseOne& phase_one, const CubatureOptions& options,
                                std::uint64_t remaining) {
  PhaseTwoShares shares;
  shares.budget = std::max(0.0, 0.9 * cubature_target(options, phase_one.estimate) - phase_one.retired_error);
  shares.live_error = phase_one.live_error;
  shares.count = static_cast<double>(std::max<std::uint64_t>(1, phase_one.live_regions));
  const double p7 = genz_malik_point_count(options.dim), p9 = static_cast<double>(degree9_point_count(options.dim));
  const double left = static_cast<double>(remaining);
  shares.check = left > p9 * shares.count;
  shares.check_unit = degree9_check_unit(phase_one);
  shares.remaining = shares.check ? std::floor((left - p9 * shares.count) * 2.0 * p7 / (2.0 * p7 + p9)) : left;
  return shares;
}

double degree9_check_unit(const CubaturePhaseOne& phase_one) {
  const double unit = phase_one.live_rounding / kRuleRoundingUlps;
  return std::isfinite(unit) && unit > 0.0 ? unit : 1.0;
}

std::uint64_t refinement_cap(const CubatureOptions& options) {
  const double p7 = genz_malik_point_count(options.dim), p9 = static_cast<double>(degree9_point_count(options.dim));
  return static_cast<std::uint64_t>(static_cast<double>(options.max_evaluations) * 2.0 * p7 / (2.0 * p7 + p9));
}

std::vector<CubatureRegion> live_regions_on_host(const CubaturePhaseOne& phase_one) {
#if GEOBEM_WITH_CUDA
  if (phase_one.device_regions) return cuda_copy_regions_to_host(*phase_one.device_regions);
#endif
  return phase_one.regions;
}

CubatureResult combine_phases(const CubaturePhaseOne& one, const CubaturePhaseTwo& two,
                              const CubatureOptions& options) {
  CubatureResult result;
  result.evaluations = one.evaluations;
  double change = one.live_change, rounding = one.live_rounding, retired_error = one.counted_retired_error;
  FinalRegionSums final_regions;
  if (two.chunks.empty()) {
    result.estimate = one.estimate;
    result.error = one.error;
    result.regions = one.retired_regions + one.live_regions;
  } else {
    for (const FinalRegionSums& chunk : two.chunks) final_regions.add(chunk);
    result.estimate = one.retired_estimate + final_regions.estimate.value();
    result.error = one.retired_error + final_regions.error;
    change = final_regions.change;
    rounding = final_regions.rounding;
    retired_error = one.retired_error;
    result.evaluations += two.evaluations;
    result.regions = one.retired_regions + two.regions;
  }
  const double target = cubature_target(options, result.estimate);
  const double two_level = two_level_error(options.dim, retired_error, change, rounding);
  double degree9 = INFINITY;
  if (two.checked_regions > 0) {
    result.checked_regions = two.checked_regions;
    result.check_change = final_regions.check_change;
    result.check_abs_change = final_regions.check_abs_change;
    result.unchecked_error = one.retired_error + final_regions.unchecked_error;
    const double unit = degree9_check_unit(one);
    result.check_rounding = degree9_rounding(final_regions.check_scale,
                                             unit * std::sqrt(final_regions.check_scale_squared), result.estimate);
    result.check_credit = degree9_cancellation_credit(final_regions.check_null, final_regions.check_abs_null,
                                                      final_regions.check_scale, result.estimate);
    degree9 = degree9_error(result.unchecked_error, result.check_change, result.check_abs_change,
                            result.check_credit, result.check_rounding);
  }
  if (!std::isfinite(result.estimate) || !std::isfinite(result.error)) {
    result.status = IntegrationStatus::NonFinite;
  } else if (result.error <= target) {
    result.status = IntegrationStatus::Converged;
  } else if (one.levels >= minimum_levels(options) && two_level <= target) {
    result.status = IntegrationStatus::Converged;
    result.error = two_level;
  } else if (one.levels >= minimum_levels(options) && degree9 <= target) {
    result.status = IntegrationStatus::Converged;
    result.error = degree9;
  } else if (std::fmin(degree7_rounding(rounding / kRuleRoundingUlps, result.estimate), result.check_rounding) >
             target) {  // check_rounding is NaN where nothing was checked: fmin takes the other
    result.status = IntegrationStatus::RoundingLimited;
  } else if (one.capped || two.capped) {
    result.status = IntegrationStatus::EvaluationCapReached;
  } else {
    result.status = IntegrationStatus::NotConverged;
  }
  return result;
}

double degree7_rounding(double absolute_sum, double estimate) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  return eps * absolute_sum + 2.0 * eps * std::fabs(estimate);
}

double degree9_rounding(double check_scale, double check_scale_quadrature, double estimate) {
  constexpr double eps = std::numeric_limits<double>::epsilon();
  return degree7_rounding(check_scale, estimate) + 3.0 * eps * check_scale_quadrature;
}

double degree9_error(double settled_error, double check_change, double check_abs_change, double credit,
                     double rounding) {
  return settled_error + kDegree9Margin * std::max(std::fabs(check_change), check_abs_change / credit) + rounding;
}

double degree9_cancellation_credit(double check_null, double check_abs_null, double check_scale, double estimate) {
  const auto cancellation = [](double absolute, double sum) {
    if (sum != 0.0) return absolute / std::fabs(sum);
    return absolute > 0.0 ? INFINITY : 1.0;
  };
  const double smaller = std::min(cancellation(check_abs_null, check_null), cancellation(check_scale, estimate));
  return std::isnan(smaller) ? kDegree9Cancellation : std::max(kDegree9Cancellation, smaller / kDegree9CreditShare);
}

double two_level_error(int dim, double retired_error, double change, double rounding) {
  return retired_error + 4.0 * dim * change + rounding;
}

CubatureRegion initial_region(const CubatureOptions& options) {
  CubatureRegion region{};
  region.change = NAN;  // no parent
  for (int i = 0; i < options.dim; ++i) {
    const double lower = options.lower.empty() ? 0.0 : options.lower[i];
    const double upper = options.upper.empty() ? 1.0 : options.upper[i];
    region.center[i] = 0.5 * (lower + upper);
    region.halfwidth[i] = 0.5 * (upper - lower);
  }
  return region;
}

PhaseOneStart start_phase_one(const CubatureOptions& options) {
  check_cubature_options(options);
  const CubatureRegion box = initial_region(options);
  std::vector<CubatureRegion> cells{box};
  for (int axis = 0; axis < options.dim && !options.breakpoints.empty(); ++axis) {
    const double lower = box.center[axis] - box.halfwidth[axis], upper = box.center[axis] + box.halfwidth[axis];
    std::vector<double> cuts{lower};
    for (double x : options.breakpoints[axis])
      if (x > lower && x < upper) cuts.push_back(x);
    cuts.push_back(upper);
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::vector<CubatureRegion> split;
    for (const CubatureRegion& cell : cells)
      for (std::size_t k = 0; k + 1 < cuts.size(); ++k) {
        CubatureRegion piece = cell;
        piece.center[axis] = 0.5 * (cuts[k] + cuts[k + 1]);
        piece.halfwidth[axis] = 0.5 * (cuts[k + 1] - cuts[k]);
        split.push_back(piece);
      }
    cells = std::move(split);
  }
  int levels = 0;
  while ((std::size_t{2} << levels) <= cells.size()) ++levels;
  return {static_cast<std::uint64_t>(genz_malik_point_count(options.dim)), genz_malik_weights(options.dim),
          std::move(cells), levels};
}

CubaturePhaseOne cubature_phase_one(const CubatureIntegrand& f, const CubatureOptions& options,
                                    ComputeDevice device) {
  check_cubature_options(options);
  CubatureOptions with_breakpoints = options;
  if (with_breakpoints.breakpoints.empty()) with_breakpoints.breakpoints = cubature_breakpoints(f, options.dim);
  return run_on(
      device, "cubature", [&] { return cuda_cubature_phase_one(f, with_breakpoints); },
      [&] { return cpu_cubature_phase_one(f, with_breakpoints); });
}

CubaturePhaseTwo cubature_phase_two(const CubatureIntegrand& f, const CubatureOptions& options,
                                    const CubaturePhaseOne& phase_one, int rank, int ranks,
                                    std::uint64_t evaluation_cap, ComputeDevice device) {
  if (ranks < 1 || rank < 0 || rank >= ranks)
    throw InputError("phase two: rank " + std::to_string(rank) + " of " + std::to_string(ranks));
  return run_on(
      device, "cubature", [&] { return cuda_cubature_phase_two(f, options, phase_one, rank, ranks, evaluation_cap); },
      [&] {
        if (!phase_one.device_regions) return cpu_cubature_phase_two(f, options, phase_one, rank, ranks, evaluation_cap);
        CubaturePhaseOne on_host = phase_one;  // a CUDA phase one refined on the CPU
        on_host.regions = live_regions_on_host(phase_one);
        return cpu_cubature_phase_two(f, options, on_host, rank, ranks, evaluation_cap);
      });
}

CubatureResult integrate_cubature(const CubatureIntegrand& f, const CubatureOptions& options, ComputeDevice device) {
  const CubaturePhaseOne one = cubature_phase_one(f, options, device);
  if (one.converged || one.capped) return combine_phases(one, CubaturePhaseTwo{}, options);
  return combine_phases(one, cubature_phase_two(f, options, one, 0, 1, options.max_evaluations - one.evaluations, device),
                        options);
}

}  // namespace geobem::quadrature

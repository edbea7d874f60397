#pragma once
// Two-phase adaptive cubature over a box (Arumugam, Godunov, Ranjan, Terzić &
// Zubair, "A memory efficient algorithm for adaptive multidimensional
// integration with multiple GPUs", HiPC 2013): phase one splits every region
// breadth-first until at least `min_regions` (L_max) regions live or the
// tolerance is met; phase two refines each of those regions on its own
// (one CUDA thread block, or one OpenMP task, per region) until the region's
// error is within its share of the tolerance. The rule is the degree-7
// Genz–Malik rule (genz_malik_rule.hpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/quadrature/cubature_integrands.hpp"
#include "gpu/quadrature/genz_malik_rule.hpp"

namespace geobem::quadrature {

/// Why the integration stopped.
enum class CubatureStatus {
  Converged,             ///< error estimate ≤ max(abs_tol, rel_tol·|estimate|)
  EvaluationCapReached,  ///< stopped at max_evaluations; the estimate did not meet the tolerance
  NotConverged,          ///< every region met its share but the total did not (rare; rerun tighter)
};

/// "converged", "evaluation_cap_reached", "not_converged".
std::string to_string(CubatureStatus status);

struct CubatureOptions {
  int dim = 3;                          ///< n, kMinCubatureDim…kMaxCubatureDim
  std::vector<double> lower, upper;     ///< box; empty = [0,1]^n
  double rel_tol = 1e-6;                ///< relative tolerance (≥ 0)
  double abs_tol = 0.0;                 ///< absolute tolerance (≥ 0); not both 0
  std::uint64_t max_evaluations = 2'000'000'000ULL;  ///< integrand evaluations cap (whole run, all ranks)
  std::size_t min_regions = 2048;       ///< L_max: phase one stops at ≥ this many regions
  std::size_t spill_records = 4096;     ///< CUDA phase two: global-memory records per thread block (≤ 40% of free memory in all)
  bool quiet = true;                    ///< no progress lines on stderr
};

/// Throws std::invalid_argument naming the offending value: dim out of
/// range, a tolerance < 0 or both 0, non-finite or empty box sides, max_evaluations
/// below one rule application, min_regions = 0.
void check_cubature_options(const CubatureOptions& options);

struct CubatureResult {
  double estimate = 0.0;
  double error = 0.0;              ///< error estimate (sum of the regions' |I7 − I5|)
  std::uint64_t evaluations = 0;   ///< integrand evaluations
  std::uint64_t regions = 0;       ///< regions at the end (leaves of the subdivision)
  CubatureStatus status = CubatureStatus::NotConverged;
};

/// Phase one's outcome: the live regions (rule already applied) and totals.
struct CubaturePhaseOne {
  std::vector<CubatureRegion> regions;
  double estimate = 0.0, error = 0.0;
  std::uint64_t evaluations = 0;
  bool converged = false;   ///< the tolerance is met: phase two is not needed
  bool capped = false;      ///< the evaluation cap stopped phase one
};

/// Phase two's outcome per phase-one region (zeros for regions not handled here).
struct CubaturePhaseTwo {
  std::vector<double> estimate, error;
  std::vector<std::uint64_t> evaluations, regions;
  bool capped = false;
};

/// Splitting levels phase one completes before it may stop on convergence:
/// min(dim, log2(min_regions)), so every axis is halved once and a feature
/// between the first rule's points has a chance to show.
int minimum_levels(const CubatureOptions& options);

/// max(abs_tol, rel_tol·|estimate|).
double cubature_target(const CubatureOptions& options, double estimate);

/// Each phase-one region's error budget for phase two: regions already below
/// target/L keep their error; the rest of the target is shared evenly by the others.
std::vector<double> phase_two_budgets(const CubaturePhaseOne& phase_one, const CubatureOptions& options);

/// Sums phase two's per-region results in region order (so any split of the
/// regions over ranks gives the same bits) and sets the status.
CubatureResult combine_phases(const CubaturePhaseOne& phase_one, const CubaturePhaseTwo& phase_two,
                              const CubatureOptions& options);

/// The initial region: the box of the options (or [0,1]^n), rule not applied.
CubatureRegion initial_region(const CubatureOptions& options);

/// Integrates a catalogue integrand over the box of `options` on `device`.
/// Throws std::invalid_argument for bad options (check_cubature_options) and
/// geobem::DeviceError for CUDA failures.
CubatureResult integrate_cubature(const CubatureIntegrand& integrand, const CubatureOptions& options,
                                  ComputeDevice device);

/// Phase one on `device` (the MPI driver runs it on every rank).
CubaturePhaseOne cubature_phase_one(const CubatureIntegrand& integrand, const CubatureOptions& options,
                                    ComputeDevice device);

/// Phase two on `device` for the phase-one regions listed in `indices`, with
/// at most `evaluation_cap` evaluations in all.
CubaturePhaseTwo cubature_phase_two(const CubatureIntegrand& integrand, const CubatureOptions& options,
                                    const CubaturePhaseOne& phase_one, const std::vector<std::size_t>& indices,
                                    std::uint64_t evaluation_cap, ComputeDevice device);

}  // namespace geobem::quadrature

#pragma once
// Two-phase adaptive cubature over a box (Arumugam, Godunov, Ranjan, Terzić &
// Zubair, "A memory efficient algorithm for adaptive multidimensional
// integration with multiple GPUs", HiPC 2013): phase one splits the live
// regions breadth-first until at least `min_regions` (L_max) regions live or
// the tolerance is met, retiring on the way every region whose error is
// within its volume's share of the tolerance (its estimate and error are
// final; it costs nothing more, as in PAGANI, Sakiotis et al. SC'21); phase two
// refines each live region on its own (one CUDA thread block, or one OpenMP
// task, per region) until its error is within its budget (its share of the
// remaining tolerance, proportional to its error) or its own evaluation cap.
// The rule is the degree-7 Genz–Malik rule with CUHRE's error estimate
// (genz_malik_rule.hpp); a run whose summed errors miss the tolerance may
// still meet it by the two-level changes (two_level_error) or, where phase
// two reached regions' caps, by a degree-9 check of their final regions
// (degree9_error).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/integration_status.hpp"
#include "gpu/quadrature/compensated_sum.hpp"
#include "gpu/quadrature/cubature_integrands.hpp"
#include "gpu/quadrature/cubature_phase_two_shares.hpp"
#include "gpu/quadrature/final_region_sums.hpp"
#include "gpu/quadrature/genz_malik_rule.hpp"

namespace geobem::quadrature {

using geobem::IntegrationStatus;

struct CubatureOptions {
  int dim = 3;                          ///< n, kMinCubatureDim…kMaxCubatureDim
  std::vector<double> lower, upper;     ///< box; empty = [0,1]^n
  double rel_tol = 1e-6;                ///< relative tolerance (≥ 0)
  double abs_tol = 0.0;                 ///< absolute tolerance (≥ 0); not both 0
  std::uint64_t max_evaluations = 2'000'000'000ULL;  ///< integrand evaluations cap (whole run, all ranks)
  std::size_t min_regions = 1 << 20;    ///< L_max: phase one stops at ≥ this many live regions
  std::size_t spill_records = 4096;     ///< CUDA phase two: global-memory records per thread block (within device_memory_budget() in all)
  /// Per axis (empty, or dim lists): interior abscissae where f has a kink or
  /// a jump. Phase one starts from the cells between them, so that no rule
  /// straddles one (the breakpoints of QUADPACK's QAGP, Piessens et al. 1983):
  /// a rule whose points all lie on one side of a jump sees a smooth function
  /// and no null rule can tell. The catalogue's continuous and discontinuous
  /// families supply theirs (cubature_breakpoints).
  std::vector<std::vector<double>> breakpoints;
  bool quiet = true;                    ///< no progress lines on stderr
};

/// Throws InputError::usage naming the offending value: dim out of
/// range, a tolerance non-finite, < 0 or both 0, non-finite or empty box
/// sides, max_evaluations below one rule application, min_regions = 0,
/// breakpoints not empty or one list per axis, or not finite.
void check_cubature_options(const CubatureOptions& options);

struct CubatureResult {
  double estimate = 0.0;
  /// Error estimate: the regions' CUHRE errors summed, two_level_error or degree9_error.
  double error = 0.0;
  std::uint64_t evaluations = 0;   ///< integrand evaluations (the degree-9 check's included)
  std::uint64_t regions = 0;       ///< regions at the end (leaves of the subdivision)
  IntegrationStatus status = IntegrationStatus::NotConverged;
  /// The degree-9 check's parts (degree9_error), NaN where no region was
  /// checked: Σ (Q9 − Q7) with and without signs over the checked final
  /// regions, the cancellation credited to the signed sum
  /// (degree9_cancellation_credit), their rounding term, and the CUHRE errors
  /// of the other final regions (retired ones included).
  double check_change = NAN, check_abs_change = NAN, check_credit = NAN, check_rounding = NAN, unchecked_error = NAN;
  std::uint64_t checked_regions = 0;  ///< final regions the degree-9 check saw
};

/// Live regions that a CUDA phase one left on its device for phase two
/// (defined in cubature_cuda.cuh; freed with the last CubaturePhaseOne holding them).
struct CubatureDeviceRegions;

/// Phase one's outcome: the live regions (rule already applied; kept only
/// when phase two follows) and totals, retired regions included. The CPU
/// path keeps the regions in `regions`; the CUDA path leaves them on the
/// device (`device_regions`, `regions` empty), since copying millions of them
/// to the host and back cost more than phase one itself (live_regions_on_host
/// copies them when the host needs them).
struct CubaturePhaseOne {
  std::vector<CubatureRegion> regions;
  std::shared_ptr<const CubatureDeviceRegions> device_regions;
  double estimate = 0.0, error = 0.0;      ///< retired plus live regions
  double retired_estimate = 0.0, retired_error = 0.0;
  double live_error = 0.0;                 ///< sum of the kept live regions' errors (when kept)
  /// The last evaluated generation's regions, which `estimate` and `error`
  /// count beside the regions retired before it: Σ change (NaN where one
  /// has no parent), Σ rounding floor, and that retired error.
  double live_change = 0.0, live_rounding = 0.0, counted_retired_error = 0.0;
  int levels = 0;           ///< splitting levels of the last evaluated generation
  std::uint64_t retired_regions = 0;
  std::uint64_t live_regions = 0;          ///< live at the end (the kept regions, when kept)
  std::uint64_t evaluations = 0;
  bool converged = false;   ///< the tolerance is met: phase two is not needed
  bool capped = false;      ///< the evaluation cap stopped phase one
};

/// Phase two's outcome: per chunk of kPhaseTwoChunk live regions the sums
/// over its final regions (zeros for chunks not handled here), and the
/// evaluations (the degree-9 check's included), final regions and checked
/// final regions of the chunks handled here.
struct CubaturePhaseTwo {
  std::vector<FinalRegionSums> chunks;
  std::uint64_t evaluations = 0, regions = 0, checked_regions = 0;
  bool capped = false;
};

/// Splitting levels phase one completes before a region may retire or the run
/// stop on convergence: min(kMaxMinimumLevels, log2(min_regions)), 4096
/// regions in every dimension (every axis halved twice up to 6D; 7e4
/// evaluations in 2D, 1.6e6 in 8D). With one halving a Gaussian peak's tail
/// (Genz's family, a = 29.5 in 3D) fell in a region whose rule points, and
/// its parent's, all missed it: no null rule or two-level check can see that,
/// only a finer grid. With two halvings (2·dim levels) it still happened in
/// 2–4D (a = 46 in 3D: converged 85× off its tolerance at 1e-6; a = 35 in 4D:
/// a region retired at 1e-3 holding 0.8% of the integral); 4096 regions
/// resolve those.
constexpr int kMaxMinimumLevels = 12;
int minimum_levels(const CubatureOptions& options);

/// max(abs_tol, rel_tol·|estimate|).
double cubature_target(const CubatureOptions& options, double estimate);

/// Phase one's retirement rule for one generation: a live region retires
/// when its error ≤ density·volume, density = (0.9·target − retired error) /
/// (volume of the live regions), so retired regions never take more than
/// their volume's share of the tolerance. Negative (nothing retires) before
/// minimum_levels splits.
double retirement_density(const CubatureOptions& options, int levels, double total_estimate, double retired_error,
                          double live_volume);

/// Phase two's shares after `phase_one` (its kept live regions) with
/// `remaining` evaluations left. Where they suffice, part of them is set
/// aside for the degree-9 check (shares.check): P9 per final region, that
/// is per live region and per split of 2·P7 evaluations, so that refining
/// takes (remaining − P9·live)·2P7/(2P7 + P9) and the checks the rest;
/// P7, P9 the points of the degree-7 and degree-9 rules.
PhaseTwoShares phase_two_shares(const CubaturePhaseOne& phase_one, const CubatureOptions& options,
                                std::uint64_t remaining);

/// The evaluations phase one may take before phase two takes over, so that
/// the degree-9 check of the final regions still fits under the cap:
/// max_evaluations·2P7/(2P7 + P9) (each split costs 2·P7 and adds one final
/// region, whose check costs P9).
std::uint64_t refinement_cap(const CubatureOptions& options);

/// The live regions of a phase one on the host: `regions`, or a copy of
/// `device_regions` (geobem::DeviceError on CUDA failures).
std::vector<CubatureRegion> live_regions_on_host(const CubaturePhaseOne& phase_one);

/// A second error estimate of a run's final regions, for a run whose
/// summed CUHRE errors miss the tolerance: retired_error + 4n·Σ change +
/// Σ rounding, where `change` and `rounding` sum the final regions' shares
/// of their pairs' two-level changes |I_lower + I_upper − I_parent|
/// (apply_two_level_error) and their rules' rounding floors
/// (CubatureRegion::rounding), and `retired_error` is the CUHRE error of
/// the regions retired within their share.
/// Why: a pair's change is the part of the parent's degree-7 error that the
/// split removed — the quantity DCUHRE's two-level estimate rests on
/// (Berntsen, Espelid & Genz, ACM TOMS 17 (1991) 437–451, section 4) —
/// whereas a region's CUHRE error is E1, the degree-5 rule's difference,
/// 1e2–1e4 times the degree-7 rule's error in small smooth regions (the
/// runs that reach the evaluation cap). What the split leaves to the
/// children is at most γ·change while the split contracts their error by
/// a factor ≤ γ/(1 + γ); halving one of n axes removes about 1/n of the
/// degree-8 error terms where the split axis carries its share (Lyness,
/// Math. Comp. 19 (1965) 260–276, for the error expansion; the axis of
/// largest fourth difference), hence γ ≈ n − 1, and γ = 4n for safety
/// (Genz's product peak at u = 1 in 6D kept 6.9·change after its split);
/// in the full Genz batteries (bench/RESULTS.md) every row it declared
/// converged was within its tolerance and this estimate. The changes are added without their signs: summed with signs they
/// cancelled where the true errors did not (that product peak: 670× below
/// its error). NaN where a final region has no parent; used only once the
/// minimum grid is complete.
double two_level_error(int dim, double retired_error, double change, double rounding);

/// A third error estimate of a run whose regions reached their evaluation
/// caps in phase two: the degree-7 total's error from the degree-9 check of
/// those regions' final regions r,
///   settled_error + kDegree9Margin·max(|Σ_r d_r|, Σ_r |d_r| / credit) + rounding,
/// d_r = Q9_r − Q7_r,
/// where settled_error sums the CUHRE errors of the regions not checked
/// (retired in phase one, or within their budget in phase two), credit is
/// degree9_cancellation_credit and rounding is degree9_rounding. The
/// degree-9 rule is Genz & Malik's (SIAM J. Numer. Anal. 20 (1983) 580–588;
/// genz_malik_degree9_rule.hpp).
/// Why: where both rules are in their asymptotic regime Q9 − Q7 is Q7's
/// error to O(h²), and its signed sum sees the cancellation between regions
/// that a sum of |region errors| cannot count on (bench/RESULTS.md: the true
/// error of a capped run is 0.95–1.02 times |Σ (Q9 − Q7)| in the quartiles).
/// Where regions are too large for Q9, Q9 and Q7 err alike and the signed
/// sum cancels where the errors do not (Genz's continuous family, a = 20 in
/// 5D: |Σ d| = 3.5e-12, Σ |d| = 3.5e-10, true error 3.6e-10), so no more
/// cancellation is credited than the integrand's own derivatives can give.
/// The difference cannot see errors the two rules share (the integrand's
/// values), hence the rounding term.
double degree9_error(double settled_error, double check_change, double check_abs_change, double credit,
                     double rounding);

/// How far degree9_error lets Σ (Q9 − Q7) cancel over the checked final
/// regions: max(kDegree9Cancellation, min(C_null, C_f) / kDegree9CreditShare),
/// where C_null = Σ|N1| / |Σ N1| over those regions (N1 their degree-5 null
/// rule values: check_null, check_abs_null) and C_f = Σ a7 / |estimate|
/// (check_scale: the degree-7 rules' absolute sums, about ∫|f| there); a
/// ratio whose sum is 0 counts as no cancellation where its absolute sum is
/// 0 too, else as unbounded.
/// Why: a degree-7 rule's error on a region is, to leading order, a sum of
/// integrals of f's eighth derivatives over it (Lyness, Math. Comp. 19 (1965)
/// 260–276), so the regions' errors cancel only as far as those derivatives
/// change sign across the domain. N1 measures the sixth-derivative content
/// the same way (null rules annihilate polynomials, so adding one to f
/// changes nothing), and C_f how far f itself cancels: an oscillating f
/// (Genz's oscillatory family: C ≈ 10²–10⁶) has derivatives that oscillate
/// with it, while a positive f whose derivatives keep their sign (the
/// continuous family: C_f ≤ 1) has none, and there a cancelling Σ d is the
/// mark of Q9 erring like Q7. With the flat tenfold credit alone, 6–9% of the
/// oscillatory rows flagged on the batteries were within their tolerance,
/// their true errors matching |Σ d| to 1% while Σ |d| was 10³–10⁵ times larger.
double degree9_cancellation_credit(double check_null, double check_abs_null, double check_scale, double estimate);

/// The factor on degree9_error's difference term, for Q9's own error; the
/// cancellation it credits at least; and the share of the integrand's
/// cancellation it credits. Chosen on two Genz batteries of 12,000 rows each
/// (bench/RESULTS.md), one drawn for the purpose, and checked on a third:
/// at a margin of 1.1 four rows converged outside their tolerance or
/// estimate, at 1.2 one; without a limit on the cancellation one converged
/// 36× off its tolerance; with the share 1 on C_null alone a product-peak
/// row converged above its estimate, and at 10 the oscillatory rows at 1e-6
/// still cried wolf in 6% of their flags.
constexpr double kDegree9Margin = 1.2;
constexpr double kDegree9Cancellation = 10.0;
constexpr double kDegree9CreditShare = 3.0;

/// degree9_error's rounding term: ε·Σ_r a7_r + 3ε·√(Σ_r (a7_r² + a9_r²)) +
/// 2ε·|estimate| over the checked final regions r, where check_scale =
/// Σ_r a7_r and check_scale_quadrature = √(Σ_r (a7_r² + a9_r²)): the degree-7
/// weights' rounding (ε/2 of each, the same in every region) and a bias of
/// the integrand's values (systematic part); the rule sums' rounding, added
/// in quadrature over the regions (Higham, Accuracy and Stability of
/// Numerical Algorithms, 2002, §2.8); the final sum (the estimates are summed
/// with Neumaier's compensation). a7, a9 are the rules' absolute sums
/// Σ|w_k f(x_k)|.
double degree9_rounding(double check_scale, double check_scale_quadrature, double estimate);

/// The rounding of a degree-7 total `estimate` whose rules' absolute sums
/// add up to absolute_sum = Σ a7 (CubatureRegion::rounding is
/// kRuleRoundingUlps·a7): ε·Σ a7 + 2ε·|estimate|, the linear part of
/// degree9_rounding. Above the target, no error estimate can certify it.
double degree7_rounding(double absolute_sum, double estimate);

/// The unit of the absolute sums whose squares phase two adds up
/// (PhaseTwoShares::check_unit): Σ a7 over phase one's last generation
/// (about ∫|f|), or 1 where that is 0 or not finite.
double degree9_check_unit(const CubaturePhaseOne& phase_one);

/// Adds phase two's chunk sums in chunk order (so any split of the chunks
/// over ranks gives the same bits) and sets the status: converged when the
/// summed CUHRE errors meet the tolerance or, after the minimum grid, when
/// two_level_error or degree9_error does (then the error column is that
/// estimate); else rounding-limited when degree7_rounding, or
/// degree9_rounding where regions were checked, exceeds the tolerance alone,
/// which no refinement lowers (both scale with ∫|f|); else capped or not
/// converged.
CubatureResult combine_phases(const CubaturePhaseOne& phase_one, const CubaturePhaseTwo& phase_two,
                              const CubatureOptions& options);

/// The initial region: the box of the options (or [0,1]^n), rule not applied.
CubatureRegion initial_region(const CubatureOptions& options);

/// What phase one starts from on either device: the Genz–Malik rule in
/// options.dim dimensions and the first generation.
struct PhaseOneStart {
  std::uint64_t points;     ///< the rule's points per region
  GenzMalikWeights weights;  ///< genz_malik_weights(options.dim)
  /// The cells of the box between its breakpoints (those strictly inside the
  /// box), rule not applied; one region without breakpoints.
  std::vector<CubatureRegion> regions;
  int levels;  ///< the splitting levels the cells stand for, ⌊log2(cells)⌋, which count toward minimum_levels
};

/// Checks the options (check_cubature_options) and returns phase one's start.
PhaseOneStart start_phase_one(const CubatureOptions& options);

/// Integrates a catalogue integrand over the box of `options` on `device`.
/// Throws InputError::usage for bad options (check_cubature_options) and
/// geobem::DeviceError for CUDA failures.
CubatureResult integrate_cubature(const CubatureIntegrand& integrand, const CubatureOptions& options,
                                  ComputeDevice device);

/// Phase one on `device` (the MPI driver runs it on every rank).
CubaturePhaseOne cubature_phase_one(const CubatureIntegrand& integrand, const CubatureOptions& options,
                                    ComputeDevice device);

/// Phase two on `device` for the chunks of phase-one regions that belong to
/// `rank` of `ranks` (chunk c to rank c mod ranks; 0 of 1 for all);
/// `evaluation_cap` is what remains for ALL phase-one regions (every rank
/// passes the same), shared out by phase_two_shares. Throws
/// InputError for a rank outside 0..ranks−1, geobem::DeviceError
/// for CUDA failures.
CubaturePhaseTwo cubature_phase_two(const CubatureIntegrand& integrand, const CubatureOptions& options,
                                    const CubaturePhaseOne& phase_one, int rank, int ranks,
                                    std::uint64_t evaluation_cap, ComputeDevice device);

}  // namespace geobem::quadrature

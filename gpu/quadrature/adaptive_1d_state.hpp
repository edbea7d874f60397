#pragma once
// GEOBEM_HD pieces of the block-cutting sweep shared by the CPU and CUDA
// drivers: the built-in 1D integrands (one trait per family, registered in
// Integrand1DFamilies) and the accept/cut/expand decision.
#include <cmath>
#include <cstdint>
#if !defined(__CUDACC_RTC__)  // names and parsing are host code; NVRTC-compiled kernels (gpu/expression) see the rest
#include <string>
#endif

#include "gpu/core/family_list.hpp"
#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/quadrature/gauss_kronrod.hpp"

namespace geobem::quadrature {

/// e^{t} for t = t_high + t_low (|t_low| ≤ ulp(t_high)): first order in t_low.
GEOBEM_HD inline double exp_compensated(double t_high, double t_low) { return exp(t_high) * (1.0 + t_low); }

/// p·x for x = x_high + x_low as t_high + t_low: the product's rounding error
/// recovered exactly by an FMA (Ogita, Rump & Oishi, Accurate sum and dot
/// product, SIAM J. Sci. Comput. 26, 2005: TwoProduct), plus p·x_low.
GEOBEM_HD inline void product_compensated(double p, double x_high, double x_low, double* t_high, double* t_low) {
  *t_high = p * x_high;
  *t_low = fma(p, x_high, -*t_high) + p * x_low;
}

/// sin(π t) (sine = true) or cos(π t) for t = t_high + t_low: t_high − n/2
/// with n = rint(2 t_high) is exact, so t = n/2 + r with |r| ≤ 1/4, and π·r is
/// formed with π in two doubles; the phase then errs by ~ε·|π r|, and the
/// value stays accurate relative to itself near its zeros (the quadrant
/// n mod 4 picks ±sin or ±cos of π r, one of them evaluated).
GEOBEM_HD inline double sin_or_cos_pi(double t_high, double t_low, bool sine) {
  constexpr double kPiLow = 1.2246467991473532e-16;  // π − kPi
  const double n = rint(2.0 * t_high);
  const double r = (t_high - 0.5 * n) + t_low;
  const double phase = fma(kPi, r, kPiLow * r);
  // sin(π t) = sin(π r + q π/2), cos(π t) = sin(π r + (q + 1) π/2), q = n mod 4
  // (also for n < 0, two's complement).
  const long long quadrant = (static_cast<long long>(n) + (sine ? 0 : 1)) & 3;
  const double value = (quadrant & 1) ? cos(phase) : sin(phase);
  return quadrant >= 2 ? -value : value;
}

/// value, with *magnitude = |value|: the size its rounding is relative to
/// where no terms cancel.
GEOBEM_HD inline double with_magnitude(double value, double* magnitude) {
  *magnitude = fabs(value);
  return value;
}

/// The parameter ranges a family is documented (and measured) for: |p_k| ≤
/// max[k] (max[k] = 0: p_k unused and must be 0); min_magnitude[k] is the low
/// end of the decades the batteries draw from (0: drawn uniformly over
/// [−max, max]); signed_parameter[k]: negative values allowed. The limits lie
/// within ±kMaxLimit1D and within ±kMaxPhase1D/rate (exp_family_limit), rate
/// the largest |exponent or angular frequency| of the family (its trait's
/// rate): at most ~160 oscillations over the interval, where relative
/// tolerances down to 1e-12 are measured to hold (bench/RESULTS.md); and for
/// the exponential families within ±kMaxExponent1D/|p0|, so that e^{±p0 x}
/// stays far from overflow.
struct Integrand1DRanges {
  double min_magnitude[3];
  double max[3];
  bool signed_parameter[3];
  bool exponential;  ///< e^{±p0 x}: the limits also within ±kMaxExponent1D/|p0|
};

/// What --help says of a family beside its name: f and its rate, in words.
struct Integrand1DHelp {
  const char* formula;  ///< "e^{p0 x} sin(p1 x)"
  const char* rate;     ///< "max(|p0|,|p1|)"
};

// The four functions of Kern & Alaghband's Table 2 as families with
// parameters p, one trait each, registered in Integrand1DFamilies below:
//   static constexpr const char* name;             // as the stage spells it
//   static constexpr Integrand1DHelp help;         // f and its rate in words, for --help
//   static constexpr double table2[3];             // the paper's parameters (the defaults)
//   static constexpr Integrand1DRanges ranges;     // the documented range
//   GEOBEM_HD static double rate(const double* p); // largest |exponent or angular frequency|
//   GEOBEM_HD static double value(const double* p, double x_high, double x_low, double* magnitude);
// value is f(x_high + x_low), the node carried in two doubles
// (gauss_kronrod.hpp): exponents and phases are formed to ~ε relative of the
// exact node instead of ε·|p·x| absolute, so that the integral's rounding
// error stays at ε·∫|f| however far the limits lie from 0 or however fast f
// oscillates; *magnitude is the size the value's rounding is relative to.

/// e^{p0 x} sin(p1 x), Table 2: (2, 3).
struct ExpSin {
  static constexpr const char* name = "exp_sin";
  static constexpr Integrand1DHelp help{"e^{p0 x} sin(p1 x)", "max(|p0|,|p1|)"};
  static constexpr double table2[3] = {2.0, 3.0, 0.0};
  static constexpr Integrand1DRanges ranges{{1e-3, 1e-3, 0.0}, {50.0, 1000.0, 0.0}, {true, true, false}, true};
  GEOBEM_HD static double rate(const double* p) { return fmax(fabs(p[0]), fabs(p[1])); }
  GEOBEM_HD static double value(const double* p, double x_high, double x_low, double* magnitude) {
    double t, t_low, s, c;
    product_compensated(p[1], x_high, x_low, &t, &t_low);
    sincos(t, &s, &c);
    const double wave = s + c * t_low;  // sin(t + t_low) to first order
    product_compensated(p[0], x_high, x_low, &s, &c);
    return with_magnitude(exp_compensated(s, c) * wave, magnitude);
  }
};

/// p0 x cos(p1 x) − (x − p2)², Table 2: (4, 2, 2). *magnitude is
/// |p0 x cos(p1 x)| + (x − p2)², as the two terms may cancel.
struct PolyCos {
  static constexpr const char* name = "poly_cos";
  static constexpr Integrand1DHelp help{"p0 x cos(p1 x) - (x - p2)^2", "|p1|"};
  static constexpr double table2[3] = {4.0, 2.0, 2.0};
  static constexpr Integrand1DRanges ranges{{1e-3, 1e-3, 0.0}, {1000.0, 1000.0, 100.0}, {true, true, true}, false};
  GEOBEM_HD static double rate(const double* p) { return fabs(p[1]); }
  GEOBEM_HD static double value(const double* p, double x_high, double x_low, double* magnitude) {
    double t, t_low, s, c;
    product_compensated(p[1], x_high, x_low, &t, &t_low);
    sincos(t, &s, &c);
    const double shifted = (x_high - p[2]) + x_low;
    const double wave = p[0] * (x_high + x_low) * (c - s * t_low), parabola = shifted * shifted;
    *magnitude = fabs(wave) + parabola;
    return wave - parabola;
  }
};

/// e^{−p0 x} cos(p1 π x), Table 2: (3, 5).
struct ExpCos {
  static constexpr const char* name = "exp_cos";
  static constexpr Integrand1DHelp help{"e^{-p0 x} cos(p1 pi x)", "max(|p0|, pi|p1|)"};
  static constexpr double table2[3] = {3.0, 5.0, 0.0};
  static constexpr Integrand1DRanges ranges{{1e-3, 1e-3, 0.0}, {50.0, 1000.0, 0.0}, {true, true, false}, true};
  GEOBEM_HD static double rate(const double* p) { return fmax(fabs(p[0]), kPi * fabs(p[1])); }
  GEOBEM_HD static double value(const double* p, double x_high, double x_low, double* magnitude) {
    double t, t_low, s, c;
    product_compensated(-p[0], x_high, x_low, &s, &c);
    const double decay = exp_compensated(s, c);
    product_compensated(p[1], x_high, x_low, &t, &t_low);
    return with_magnitude(decay * sin_or_cos_pi(t, t_low, false), magnitude);
  }
};

/// sin(p0 π x)/(π x), Table 2: (10).
struct Sinc {
  static constexpr const char* name = "sinc";
  static constexpr Integrand1DHelp help{"sin(p0 pi x)/(pi x)", "pi|p0|"};
  static constexpr double table2[3] = {10.0, 0.0, 0.0};
  static constexpr Integrand1DRanges ranges{{1e-3, 0.0, 0.0}, {1000.0, 0.0, 0.0}, {true, false, false}, false};
  GEOBEM_HD static double rate(const double* p) { return kPi * fabs(p[0]); }
  GEOBEM_HD static double value(const double* p, double x_high, double x_low, double* magnitude) {
    if (x_high == 0.0 && x_low == 0.0) return with_magnitude(p[0], magnitude);
    double t, t_low;
    product_compensated(p[0], x_high, x_low, &t, &t_low);
    return with_magnitude(sin_or_cos_pi(t, t_low, true) / (kPi * (x_high + x_low)), magnitude);
  }
};

/// The built-in families, registered: their order fixes the Integrand1DFamily values.
using Integrand1DFamilies = FamilyList<ExpSin, PolyCos, ExpCos, Sinc>;

/// A built-in family: its position in Integrand1DFamilies. Name one by its
/// trait, integrand_1d_family<ExpSin>, or parse its name.
enum class Integrand1DFamily : int {};
template <class Family>
constexpr Integrand1DFamily integrand_1d_family =
    static_cast<Integrand1DFamily>(FamilyIndex<Family, Integrand1DFamilies>::value);

/// A built-in family with its parameters (defaults: exp_sin with the paper's).
struct Integrand1D {
  Integrand1DFamily family = integrand_1d_family<ExpSin>;
  double p[3] = {2.0, 3.0, 0.0};

  GEOBEM_HD double operator()(double x) const {
    double magnitude;
    return (*this)(x, 0.0, &magnitude);
  }

  /// f(x_high + x_low) and *magnitude (the family's value, above).
  GEOBEM_HD double operator()(double x_high, double x_low, double* magnitude) const {
    double value = 0.0;
    *magnitude = 0.0;
    visit_family_at(Integrand1DFamilies{}, static_cast<int>(family),
                    [&](auto tag) { value = decltype(tag)::type::value(p, x_high, x_low, magnitude); });
    return value;
  }
};

#if !defined(__CUDACC_RTC__)
/// "exp_sin", "poly_cos", "exp_cos", "sinc"; parse throws InputError::usage listing them.
std::string to_string(Integrand1DFamily family);
Integrand1DFamily parse_integrand_1d_family(const std::string& name);

/// The family with the paper's parameters.
Integrand1D table2_integrand(Integrand1DFamily family);
#endif

/// Width of the next block after one passes (the paper's variants):
/// Double = twice the passed width, Keep = the passed width, Reset = the whole interval.
enum class ExpansionRule { Double, Keep, Reset };
#if !defined(__CUDACC_RTC__)
std::string to_string(ExpansionRule rule);
ExpansionRule parse_expansion_rule(const std::string& name);
#endif

/// Sweep state of one integral.
struct BlockCuttingState {
  double lower, upper;   ///< limits
  double x;              ///< left end of the next block
  double width;          ///< width of the next block
  double rel_tol, abs_tol;
  double estimate, compensation;  ///< sum over the accepted blocks in two doubles (TwoSum)
  double error;                   ///< sum of the accepted blocks' truncation errors
  double rounding_squared;        ///< sum of their intervals' squared rounding bounds (gauss_kronrod.hpp)
  double rounding_density;        ///< sum of their intervals' rounding_squared / width: a grid of width h gives Σ r² ≈ h·this
  double argument_rounding;       ///< sum of their argument-rounding bounds (functors of one double only)
  double rest;             ///< estimate of ∫ over [x, upper] from the latest block that reached `upper`
  double fixed_target;     ///< > 0: the truncation target of a restarted sweep
  double max_width;        ///< > 0: no block wider than this (a restarted sweep that averages the roundings down)
  double halved_density;   ///< error per width of the block last halved; 0 after an acceptance
  double stalled_error;    ///< sum of the errors of blocks accepted because halving no longer lowered them
  double lower_density;    ///< error per width of the last block at `lower` that failed; 0 before one
  double upper_density;    ///< error per width of the last block at `upper` that failed; 0 before one
  double right_value, right_gap, right_roughness;  ///< the last accepted block's right end (KronrodSums), for its junction with the next
  std::uint64_t evaluations, blocks, max_evaluations;
  int running;           ///< 1 while sweeping
  int capped;            ///< the evaluation cap stopped the sweep (its last block took the whole remainder)
  int finishing;         ///< the next block is the remainder [x, upper], accepted whatever its error
  int resweeps;          ///< sweeps restarted with a tighter target
  int expansion;         ///< ExpansionRule as int
};

GEOBEM_HD inline BlockCuttingState start_block_cutting(double lower, double upper, double rel_tol, double abs_tol,
                                                       std::uint64_t max_evaluations, ExpansionRule expansion) {
  BlockCuttingState s{};
  s.lower = lower;
  s.upper = upper;
  s.x = lower;
  s.width = upper - lower;
  s.rel_tol = rel_tol;
  s.abs_tol = abs_tol;
  s.max_evaluations = max_evaluations;
  s.running = 1;
  s.expansion = static_cast<int>(expansion);
  return s;
}

/// The block of the next step: [*a, *b] = [x, min(x + width, upper)]. A
/// width of upper − x (the whole interval, a finishing remainder) reaches
/// upper even where x + (upper − x) rounds below it: else the first block
/// would not count as the whole integral, the target would stay at abs_tol
/// until the sweep came within an ulp of upper.
GEOBEM_HD inline void next_block(const BlockCuttingState& s, double* a, double* b) {
  const double width = s.max_width > 0.0 && !s.finishing ? fmin(s.width, s.max_width) : s.width;
  *a = s.x;
  *b = s.x + width >= s.upper || width >= s.upper - s.x ? s.upper : s.x + width;
}

/// max(abs_tol, rel_tol·|estimate|).
GEOBEM_HD inline double block_cutting_target(const BlockCuttingState& s, double estimate) {
  return fmax(s.abs_tol, s.rel_tol * fabs(estimate));
}

/// The accepted blocks' estimate: the running sum plus its compensation.
GEOBEM_HD inline double block_cutting_estimate(const BlockCuttingState& s) { return s.estimate + s.compensation; }

/// The rounding part of the error: 3·√(Σ r²) over the nodes of the
/// accepted intervals (gauss_kronrod.hpp: r = ε·w_j·m_j·(b − a)/2), plus
/// 2ε·|estimate| for the last-place rounding of the result and of the rule's
/// tabulated nodes and weights. The roundings of the function values are
/// independent, so their total is ~ √(Σ r²) (Higham 2002, §2.8); 3 is the
/// coverage, measured on the 1D batteries (bench/RESULTS.md): rows whose error
/// is all rounding err by at most ~1/2 of it. A functor of one double adds
/// its argument_rounding (gauss_kronrod.hpp). The errors of blocks accepted
/// because halving them no longer lowered their error (block_cutting_step)
/// are rounding too, and are added.
constexpr double kRoundingCoverage = 3.0;
GEOBEM_HD inline double block_cutting_rounding(const BlockCuttingState& s) {
  constexpr double kEpsilon = 2.220446049250313e-16;
  return kRoundingCoverage * sqrt(s.rounding_squared) + 2.0 * kEpsilon * fabs(block_cutting_estimate(s)) +
         s.argument_rounding + s.stalled_error;
}

/// At the end of a sweep whose truncation plus rounding exceeds the target
/// of its final estimate, restarts it once where that can meet the target
/// within the evaluation cap:
/// - rounding below 0.9 of the target: the truncation target is held at
///   0.9·(target − rounding);
/// - else, where the part of the rounding that averages out (the function
///   values' roundings, kRoundingCoverage·√(Σ r²)) is what exceeds it: no
///   block wider than a grid of width h whose Σ r² ≈ h·rounding_density
///   (Σ r² of an interval grows with the square of its width, so it halves
///   with the width of the grid, Higham 2002 §2.8), the averaged part then
///   at half of what the rest of the rounding leaves of the target, and the
///   truncation target at 0.4 of it. A sweep of 15·(upper − lower)/h
///   evaluations is only started where twice that fits under the cap; the
///   rest of the rounding (2ε·|estimate|, argument rounding, stalled blocks)
///   no grid lowers, and a target below it ends rounding_limited.
/// `cost`: evaluations per block of the sweep just ended.
GEOBEM_HD inline void plan_resweep(BlockCuttingState& s, double cost, int subintervals) {
  const double final_target = block_cutting_target(s, block_cutting_estimate(s));
  const double rounding = block_cutting_rounding(s);
  if (s.error + rounding <= final_target) return;
  double fixed_target = 0.0, max_width = 0.0, sweep_cost = 2.0 * cost;
  if (rounding < 0.9 * final_target) {
    fixed_target = 0.9 * (final_target - rounding);
  } else {
    const double averaged = kRoundingCoverage * sqrt(s.rounding_squared);
    const double room = final_target - (rounding - averaged);
    if (!(room > 0.0) || !(s.rounding_density > 0.0)) return;
    const double grid = (0.5 * room / kRoundingCoverage) * (0.5 * room / kRoundingCoverage) / s.rounding_density;
    fixed_target = 0.4 * room;
    max_width = grid * subintervals;
    sweep_cost += 2.0 * 15.0 * (s.upper - s.lower) / grid;
  }
  if (static_cast<double>(s.evaluations) + sweep_cost > static_cast<double>(s.max_evaluations)) return;
  s.resweeps = 1;
  s.running = 1;
  s.fixed_target = fixed_target;
  s.max_width = max_width;
  s.x = s.lower;
  s.width = s.upper - s.lower;
  s.estimate = s.compensation = s.error = s.rounding_squared = s.rounding_density = s.argument_rounding =
      s.stalled_error = s.lower_density = s.upper_density = 0.0;
  s.blocks = 0;
}

/// Share of the target a block at a limit may take where f is singular there.
constexpr double kEndpointShare = 0.05;
/// Narrowest block, relative to the whole interval, that is halved: below
/// it a block is taken as it is (1e-250: the nodes of a block at a limit 0
/// stay normal doubles, and x^{-a} finite at them).
constexpr double kNarrowestBlock = 1e-250;

/// The width of the block after an accepted block [a, b], by the expansion rule.
GEOBEM_HD inline double expanded_width(const BlockCuttingState& s, double a, double b) {
  if (s.expansion == static_cast<int>(ExpansionRule::Double)) return 2.0 * (b - a);
  if (s.expansion == static_cast<int>(ExpansionRule::Keep)) return b - a;
  return s.upper - s.lower;
}

/// Adds the accepted block [a, b] to the sweep: its sums, its error (to the
/// stalled errors where it passed only as rounding noise above its share),
/// the junction with the block before it, and its rounding; moves on to b
/// with the next width. Ends the sweep at upper, or at a non-finite sum.
GEOBEM_HD inline void accept_block(BlockCuttingState& s, const KronrodSums& block, double a, double b,
                                   int subintervals, bool stalled_above_share, double cost) {
  double low;
  two_sum(s.estimate, block.estimate, &s.estimate, &low);
  s.compensation += low + block.estimate_low;
  if (stalled_above_share)
    s.stalled_error += block.error;
  else
    s.error += block.error;
  if (s.blocks > 0)
    s.error += junction_error(s.right_value, block.left_value, fmax(s.right_gap, block.left_gap),
                              s.argument_rounding + block.argument_rounding, s.right_roughness + block.left_roughness);
  s.right_value = block.right_value;
  s.right_gap = block.right_gap;
  s.right_roughness = block.right_roughness;
  s.rounding_squared += block.rounding_squared;
  s.rounding_density += block.rounding_squared / ((b - a) / subintervals);
  s.argument_rounding += block.argument_rounding;
  s.halved_density = 0.0;
  s.rest -= block.estimate + block.estimate_low;
  s.blocks += 1;
  s.x = b;
  // A non-finite block passes only once it cannot be halved; the sweep ends
  // there with the status non_finite (going on through a region where f is
  // NaN would only spend the evaluation cap on blocks of rounding's width).
  if (!(fabs(s.estimate) <= 1.7976931348623157e308)) {
    s.running = 0;
    return;
  }
  s.width = expanded_width(s, a, b);
  if (b >= s.upper) {
    s.running = 0;
    s.capped = s.finishing;
    if (!s.finishing && s.resweeps == 0) plan_resweep(s, cost, subintervals);
  }
}

/// Decides on the block just integrated (its Kronrod sums over `subintervals` subintervals):
/// accept and expand, or halve the width (Kern & Alaghband's block cutting).
/// A block passes when its truncation error is within its share of the
/// target, the target following the running estimate of the whole integral
/// (accepted blocks plus the latest estimate of the rest). A sweep that ends with truncation
/// plus rounding above the target of its final estimate restarts once where
/// that can meet it (plan_resweep). A block whose error per width is
/// not below half that of the block it was halved from, and within what the
/// function values' rounding can make of QUADPACK's estimate, is accepted:
/// its error is rounding noise in K15 − G7, which grows as the block shrinks,
/// and halving further would only crawl at rounding's width to the cap; its
/// error joins the rounding term, so a total above the target reads
/// rounding_limited.
/// A block at a limit where f has an integrable singularity (x^{−a} with
/// a < 1, log x) has an error that shrinks like w^{1−a} with its width w,
/// slower than its share, which shrinks like w: it would be halved without
/// end (to blocks of denormal width whose nodes reach the singular point).
/// Where a block at the lower or upper limit shows that (its error per width
/// no smaller than that of the last block at the same limit that failed:
/// the block it was halved from at the lower limit, the previous
/// remainder at the upper one), it passes once its error is within
/// kEndpointShare of the target, which the block's error estimate bounds
/// (gauss_kronrod_15's null-rule estimate: x^{−a} for a ≤ 0.98, log x) and
/// which a geometric sequence of halvings reaches: the singular part of the
/// integral lies in the block's first (last) subinterval, whose error
/// falls by 2^{a−1} per halving. This is the graded mesh towards the
/// singularity that QUADPACK's QAGS builds by bisection (Piessens et al.
/// 1983, sec. 2.2), without QAGS's extrapolation: a ≤ 0.9 converges at
/// 1e-12 within kNarrowestBlock (bench/RESULTS.md), a stronger singularity
/// ends not_converged. When the next two blocks would pass the evaluation
/// cap, the last one takes the whole remainder, so that the result and its
/// error cover [lower, upper].
GEOBEM_HD inline void block_cutting_step(BlockCuttingState& s, const KronrodSums& block, int subintervals) {
  const double block_estimate = block.estimate + block.estimate_low;
  double a, b;
  next_block(s, &a, &b);
  const double cost = 15.0 * subintervals;
  s.evaluations += 15ULL * subintervals;
  if (b >= s.upper) s.rest = block_estimate;
  const double target =
      s.fixed_target > 0.0 ? s.fixed_target : block_cutting_target(s, block_cutting_estimate(s) + s.rest);
  const double share = target * (b - a) / (s.upper - s.lower);
  // A block that cannot be halved any more in double precision is accepted
  // as it is; the final status then tells whether the total met the tolerance.
  const bool unsplittable =
      a + 0.5 * (b - a) / subintervals <= a || b - a < kNarrowestBlock * (s.upper - s.lower);
  // A functor of one double has values that carry its argument's rounding:
  // a block whose truncation error is within that noise cannot be resolved
  // by halving it (Integrand1D has none: argument_rounding is 0).
  const bool within_argument_noise = block.error <= block.argument_rounding;
  // Rounding noise δ in K15 − G7 gives QUADPACK's estimate at most 200·δ
  // (where the deviation I_asc equals 200·δ; it is min(I_asc, I_asc^{-1/2}·(200 δ)^{3/2})),
  // and δ is a few ε·Σ w_j m_j·(b − a)/2 ≤ √(15·subintervals·Σ r²) (Cauchy–Schwarz).
  const double density = block.error / (b - a);
  const double noise_reach = 1000.0 * sqrt(15.0 * subintervals * block.rounding_squared);
  const bool stalled = s.halved_density > 0.0 && density > 0.5 * s.halved_density && block.error <= noise_reach;
  const bool at_lower = a == s.lower, at_upper = b >= s.upper;
  const bool endpoint_singular = (at_lower && s.lower_density > 0.0 && density >= s.lower_density) ||
                                 (at_upper && s.upper_density > 0.0 && density >= s.upper_density);
  const bool endpoint_passes = endpoint_singular && block.error <= kEndpointShare * target;
  if (block.error <= share || endpoint_passes || within_argument_noise || stalled || unsplittable || s.finishing) {
    accept_block(s, block, a, b, subintervals, stalled && block.error > share, cost);
  } else {
    s.halved_density = density;
    if (at_lower) s.lower_density = density;
    if (at_upper) s.upper_density = density;
    s.width = 0.5 * (b - a);
  }
  if (s.running && !s.finishing && static_cast<double>(s.evaluations) + 2.0 * cost > s.max_evaluations) {
    s.finishing = 1;
    s.width = s.upper - s.x;
  }
}

}  // namespace geobem::quadrature

#pragma once
// GEOBEM_HD pieces of the block-cutting sweep shared by the CPU and CUDA
// drivers: the built-in 1D integrands and the accept/cut/expand decision.
#include <cmath>
#include <cstdint>
#include <string>

#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"

namespace geobem::quadrature {

/// The four functions of Kern & Alaghband's Table 2 as families with
/// parameters p (defaults = the paper's):
///   ExpSin  e^{p0 x} sin(p1 x)            (2, 3)
///   PolyCos p0 x cos(p1 x) − (x − p2)²    (4, 2, 2)
///   ExpCos  e^{−p0 x} cos(p1 π x)         (3, 5)
///   Sinc    sin(p0 π x)/(π x)             (10)
enum class Integrand1DFamily { ExpSin, PolyCos, ExpCos, Sinc };

struct Integrand1D {
  Integrand1DFamily family = Integrand1DFamily::ExpSin;
  double p[3] = {2.0, 3.0, 0.0};

  GEOBEM_HD double operator()(double x) const {
    switch (family) {
      case Integrand1DFamily::ExpSin: return exp(p[0] * x) * sin(p[1] * x);
      case Integrand1DFamily::PolyCos: return p[0] * x * cos(p[1] * x) - (x - p[2]) * (x - p[2]);
      case Integrand1DFamily::ExpCos: return exp(-p[0] * x) * cos(p[1] * kPi * x);
      case Integrand1DFamily::Sinc: return x == 0.0 ? p[0] : sin(p[0] * kPi * x) / (kPi * x);
    }
    return 0.0;
  }
};

/// "exp_sin", "poly_cos", "exp_cos", "sinc"; parse throws geobem::UsageError listing them.
std::string to_string(Integrand1DFamily family);
Integrand1DFamily parse_integrand_1d_family(const std::string& name);

/// The family with the paper's parameters.
Integrand1D table2_integrand(Integrand1DFamily family);

/// Width of the next block after one passes (the paper's variants):
/// Double = twice the passed width, Keep = the passed width, Reset = the whole interval.
enum class ExpansionRule { Double, Keep, Reset };
std::string to_string(ExpansionRule rule);
ExpansionRule parse_expansion_rule(const std::string& name);

/// Sweep state of one integral.
struct BlockCuttingState {
  double lower, upper;   ///< limits
  double x;              ///< left end of the next block
  double width;          ///< width of the next block
  double rel_tol, abs_tol;
  double estimate, error;  ///< sums over the accepted blocks
  double rounding;         ///< their rounding term 50·ε·∫|f| (QUADPACK's), part of `error`
  double rest;             ///< estimate of ∫ over [x, upper] from the latest block that reached `upper`
  double swept_target;     ///< the loosest target a block of this sweep was accepted against
  double fixed_target;     ///< > 0: the target of a restarted sweep, from the first sweep's final estimate
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

/// The block of the next step: [*a, *b] = [x, min(x + width, upper)].
GEOBEM_HD inline void next_block(const BlockCuttingState& s, double* a, double* b) {
  *a = s.x;
  *b = s.x + s.width >= s.upper ? s.upper : s.x + s.width;
}

/// max(abs_tol, rel_tol·|estimate|).
GEOBEM_HD inline double block_cutting_target(const BlockCuttingState& s, double estimate) {
  return fmax(s.abs_tol, s.rel_tol * fabs(estimate));
}

/// Decides on the block just integrated (its summed estimate, error and
/// rounding term over `subintervals` subintervals): accept and expand, or
/// halve the width (Kern & Alaghband's block cutting). The target follows the
/// running estimate of the whole integral, accepted blocks plus the latest
/// estimate of the rest; a sweep that ends with its error above the target of
/// its final estimate (its early blocks were judged against a looser one)
/// restarts once against that target, held fixed. A block whose error is mostly its
/// rounding term is accepted: halving it cannot lower that term. When the
/// next two blocks would pass the evaluation cap, the last one takes the whole
/// remainder, so that the result and its error cover [lower, upper].
GEOBEM_HD inline void block_cutting_step(BlockCuttingState& s, double block_estimate, double block_error,
                                         double block_rounding, int subintervals) {
  double a, b;
  next_block(s, &a, &b);
  const double cost = 15.0 * subintervals;
  s.evaluations += 15ULL * subintervals;
  if (b >= s.upper) s.rest = block_estimate;
  const double target = s.fixed_target > 0.0 ? s.fixed_target : block_cutting_target(s, s.estimate + s.rest);
  const double share = target * (b - a) / (s.upper - s.lower);
  // A block that cannot be halved any more in double precision is accepted
  // as it is; the final status then tells whether the total met the tolerance.
  const bool unsplittable = a + 0.5 * (b - a) / subintervals <= a;
  if (block_error <= share || block_error <= 2.0 * block_rounding || unsplittable || s.finishing) {
    s.estimate += block_estimate;
    s.error += block_error;
    s.rounding += block_rounding;
    s.rest -= block_estimate;
    s.swept_target = fmax(s.swept_target, target);
    s.blocks += 1;
    s.x = b;
    // A non-finite block passes only once it cannot be halved; the sweep ends
    // there with the status non_finite (going on through a region where f is
    // NaN would only spend the evaluation cap on blocks of rounding's width).
    if (!(fabs(s.estimate) <= 1.7976931348623157e308)) {
      s.running = 0;
      return;
    }
    if (s.expansion == static_cast<int>(ExpansionRule::Double))
      s.width = 2.0 * (b - a);
    else if (s.expansion == static_cast<int>(ExpansionRule::Keep))
      s.width = b - a;
    else
      s.width = s.upper - s.lower;
    if (b >= s.upper) {
      s.running = 0;
      s.capped = s.finishing;
      const double final_target = block_cutting_target(s, s.estimate);
      if (!s.finishing && s.resweeps == 0 && s.error > final_target && s.swept_target > final_target &&
          s.error > 2.0 * s.rounding && static_cast<double>(s.evaluations) + 2.0 * cost <= s.max_evaluations) {
        s.resweeps = 1;
        s.running = 1;
        s.fixed_target = 0.95 * final_target;
        s.x = s.lower;
        s.width = s.upper - s.lower;
        s.estimate = s.error = s.rounding = s.swept_target = 0.0;
        s.blocks = 0;
      }
    }
  } else {
    s.width = 0.5 * (b - a);
  }
  if (s.running && !s.finishing && static_cast<double>(s.evaluations) + 2.0 * cost > s.max_evaluations) {
    s.finishing = 1;
    s.width = s.upper - s.x;
  }
}

}  // namespace geobem::quadrature

#pragma once
// Adaptive 1D quadrature by block cutting (Kern & Alaghband, parallel
// block-cutting adaptive quadrature, PBCAQ): the integral is swept from the
// lower to the upper limit in blocks; a block of width w is cut into α·β equal
// subintervals that are integrated in parallel (one launch of α thread blocks
// of β threads, or one OpenMP loop); the block passes when its summed error is
// within its share of the tolerance, target·w/(b − a), and is then accepted and
// the width expanded for the next block; otherwise the width is halved and the
// block retried. The paper's trapezoid/Simpson pair is replaced by the
// Gauss–Kronrod 7/15 pair (gauss_kronrod.hpp). Batched mode: many integrals,
// each swept on its own by one thread block (β subintervals per step).
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/integration_status.hpp"
#include "gpu/quadrature/adaptive_1d_state.hpp"
#include "gpu/quadrature/cubature.hpp"

namespace geobem::quadrature {

struct Adaptive1DOptions {
  double rel_tol = 1e-10;   ///< relative tolerance (≥ 0)
  double abs_tol = 0.0;     ///< absolute tolerance (≥ 0); not both 0
  int alpha = 64;           ///< thread blocks per launch (single mode)
  int beta = 128;           ///< subintervals per thread block (a power of two, ≤ 1024)
  ExpansionRule expansion = ExpansionRule::Double;
  std::uint64_t max_evaluations = 1'000'000'000ULL;  ///< per integral
  bool quiet = true;
};

/// Throws InputError::usage naming the value: tolerances non-finite, < 0
/// or both 0, α < 1, β not a power of two in 1…1024, max_evaluations below
/// two blocks (2·15·α·β: the last block of a capped sweep takes the remainder).
void check_adaptive_1d_options(const Adaptive1DOptions& options);

/// One integral of the batch.
struct Problem1D {
  Integrand1D integrand;
  double lower = 0.0, upper = 1.0;
};

constexpr double kMaxLimit1D = 100.0;
constexpr double kMaxPhase1D = 1000.0;
constexpr double kMaxExponent1D = 300.0;
Integrand1DRanges integrand_1d_ranges(Integrand1DFamily family);

/// The family's rate (its trait's rate, see Integrand1DRanges) and the largest |x| its limits may reach.
double integrand_1d_rate(const Integrand1D& integrand);
double exp_family_limit(const Integrand1D& integrand);

/// Throws InputError::usage naming the value and the limit it breaks:
/// non-finite limits or parameters, lower ≥ upper, a parameter or a limit
/// outside the documented range; `where` prefixes the message.
void check_problem_1d(const Problem1D& problem, const std::string& where);

/// A built-in family as --help describes it (from its trait).
struct Integrand1DDescription {
  Integrand1DFamily family;
  std::string name;     ///< "exp_sin"
  std::string formula;  ///< "e^{p0 x} sin(p1 x)"
  std::string table2;   ///< the paper's parameters, "2,3"
  std::string rate;     ///< "max(|p0|,|p1|)"
  bool exponential;     ///< limits also within kMaxExponent1D/|p0|
};
/// All built-in families, in registration order.
const std::vector<Integrand1DDescription>& integrand_1d_families();

/// "p0 in [-50, 50], p1 in [-1000, 1000]" for a family's --help text.
std::string describe_integrand_1d_ranges(Integrand1DFamily family);

struct Adaptive1DResult {
  double estimate = 0.0;
  double error = 0.0;     ///< accepted blocks' QUADPACK truncation errors plus `rounding`, remainder of a capped sweep included
  double rounding = 0.0;  ///< the rounding part of `error` (block_cutting_rounding, adaptive_1d_state.hpp)
  std::uint64_t evaluations = 0;  ///< integrand evaluations
  std::uint64_t blocks = 0;       ///< accepted blocks
  /// Converged: error ≤ max(abs_tol, rel_tol·|estimate|); EvaluationCapReached:
  /// the cap stopped the sweep, its last block took the unswept remainder and
  /// the error includes that block's; RoundingLimited: the rounding part alone
  /// exceeds the target, also after a sweep on a grid fine enough to average
  /// the function values' roundings down where the cap allowed one
  /// (plan_resweep); NonFinite: the integrand
  /// gave NaN or ±∞; NotConverged otherwise.
  IntegrationStatus status = IntegrationStatus::NotConverged;
};

/// ∫_lower^upper f on `device`, α·β subintervals per step. Throws
/// InputError::usage for bad options or a problem outside its family's
/// documented range (check_problem_1d).
Adaptive1DResult integrate_adaptive_1d(const Integrand1D& f, double lower, double upper,
                                       const Adaptive1DOptions& options, geobem::ComputeDevice device);

/// Every problem integrated on its own (β subintervals per step); results in
/// problem order. Throws InputError::usage naming the first bad problem.
std::vector<Adaptive1DResult> integrate_adaptive_1d_batch(const std::vector<Problem1D>& problems,
                                                          const Adaptive1DOptions& options,
                                                          geobem::ComputeDevice device);

/// The CUDA paths (adaptive_1d_cuda.cu); the checks are done by the callers above.
Adaptive1DResult cuda_integrate_adaptive_1d(const Integrand1D& f, double lower, double upper,
                                            const Adaptive1DOptions& options);
std::vector<Adaptive1DResult> cuda_integrate_adaptive_1d_batch(const std::vector<Problem1D>& problems,
                                                               const Adaptive1DOptions& options);

/// Result of a finished sweep state.
Adaptive1DResult adaptive_1d_result(const BlockCuttingState& state);

}  // namespace geobem::quadrature

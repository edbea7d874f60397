#pragma once
// One status vocabulary for every integrator (Longman, adaptive 1D, n-D
// cubature): the enum the kernels return and the word the stages write in a
// CSV `status` column. `Converged` is a promise: the value is within the
// requested tolerance and within its own reported error estimate.
#include <cstdint>
#if !defined(__CUDACC_RTC__)  // the words are host code; NVRTC-compiled kernels (gpu/expression) see the enum only
#include <stdexcept>
#include <string>

#include "gpu/core/input_error.hpp"
#endif

namespace geobem {

enum class IntegrationStatus : std::int32_t {
  Converged = 0,                ///< error estimate ≤ max(abs_tol, rel_tol·|value|)
  EvaluationCapReached = 1,     ///< stopped at its evaluation/area cap; the error column bounds what is left
  NotConverged = 2,             ///< stopped for another reason without meeting the tolerance
  RoundingLimited = 3,          ///< the rounding floor alone exceeds the tolerance; the error column includes that floor
  ExtrapolationUnreliable = 4,  ///< the series acceleration disagrees with itself; the error column says by how much
  NonFinite = 5,                ///< the integrand or the sum was NaN or infinite
};

#if !defined(__CUDACC_RTC__)
/// The CSV word: "converged", "evaluation_cap_reached", "not_converged",
/// "rounding_limited", "extrapolation_unreliable", "non_finite".
inline std::string to_string(IntegrationStatus status) {
  switch (status) {
    case IntegrationStatus::Converged: return "converged";
    case IntegrationStatus::EvaluationCapReached: return "evaluation_cap_reached";
    case IntegrationStatus::NotConverged: return "not_converged";
    case IntegrationStatus::RoundingLimited: return "rounding_limited";
    case IntegrationStatus::ExtrapolationUnreliable: return "extrapolation_unreliable";
    case IntegrationStatus::NonFinite: return "non_finite";
  }
  throw InputError("unknown integration status " + std::to_string(static_cast<int>(status)));
}
#endif

}  // namespace geobem

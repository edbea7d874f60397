#pragma once
// The three integrators run on a user's expression: Longman's method with a
// stated oscillating factor (oscillatory_integrand.hpp), the block-cutting
// adaptive 1D quadrature and the two-phase cubature, one integral per
// parameter row, on the CPU (the checked expression's program) or the GPU
// (its CUDA source compiled by NVRTC, expression_kernels.hpp). The
// integrators' own templates do the work; statuses and error estimates are
// theirs (gpu/core/integration_status.hpp), and an expression that is NaN or
// infinite where it is evaluated gives the status non_finite.
#include <cstddef>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/expression/expression.hpp"
#include "gpu/expression/oscillatory_integrand.hpp"
#include "gpu/quadrature/adaptive_1d.hpp"
#include "gpu/quadrature/cubature.hpp"
#include "gpu/transform/longman.hpp"

namespace geobem::expression {

/// `--oscillation KIND:PARAM`: the factor cos/sin/J0/J1 of (PARAM x).
struct Oscillation {
  OscillationKind kind = OscillationKind::Cos;
  std::string parameter;  ///< the column holding the angular frequency omega
};

/// Parses "KIND:PARAM" (KIND cos, sin, J0, J1); throws InputError::usage
/// naming the text otherwise.
Oscillation parse_oscillation(const std::string& text);
std::string to_string(OscillationKind kind);

/// How the GPU kernel of an expression was obtained (the first integration in
/// a process compiles it, or reads it from the disk cache; later ones reuse it).
struct KernelCompileReport {
  double seconds = 0.0;     ///< NVRTC's compile time; 0 when read from the cache or reused
  bool from_cache = false;  ///< read from the disk cache or reused in this process
  std::string cache_file;   ///< the cached image; empty when there is no cache
  std::string architecture; ///< e.g. "sm_90"
  std::string log;          ///< NVRTC's warnings, empty when none
  std::string cache_warning;  ///< why the disk cache was not used (a tampered entry, a folder others can write)
};

/// Longman's method for `count` integrals int_0^inf factor(omega x) rest(x) dx,
/// `rest` the checked expression in x. `rows` is row-major count x (2 + P):
/// omega (> 0), the decay rate (>= 0; 0: none), then the expression's P
/// parameters in Expression::parameters order; checked by check_longman_row.
/// Options as transform::integrate_family. On the GPU the expression's kernel
/// is compiled by NVRTC (expression_kernels.hpp); `compile` (may be null)
/// says how long that took. Throws geobem::DeviceError for CUDA failures and
/// NvrtcCompileError (the log in its message) if the generated source does
/// not compile.
std::vector<transform::LongmanResult> integrate_longman_expression(
    const Expression& rest, OscillationKind kind, const std::vector<double>& rows, std::size_t count,
    const transform::LongmanOptions& options, int quadrature_order, ComputeDevice device, bool progress_quiet = true,
    transform::LongmanTimings* timings = nullptr, KernelCompileReport* compile = nullptr);

/// Empty when a Longman row (omega, decay rate, parameters...) is valid, else
/// the problem: omega not finite and > 0, the decay rate not finite and >= 0,
/// a parameter not finite (its name from `rest`).
std::string check_longman_row(const Expression& rest, const double* row);

/// Empty when an adaptive 1D row (lower, upper, parameters...) is valid, else
/// the problem: limits not finite with lower < upper, a parameter not finite.
std::string check_adaptive_row(const Expression& f, const double* row);

/// Empty when every parameter of a row (one per Expression::parameters) is
/// finite, else the first that is not, by name.
std::string check_parameter_row(const Expression& f, const double* parameters);

/// How the adaptive 1D quadrature of expressions spreads its work.
/// PerRow: each row swept on its own with β subintervals per block step (one
/// OpenMP thread, or one CUDA thread block, per row), so that a row's result
/// is the same bytes whatever the other rows of its batch, and whether it
/// is alone or not. Spread: one integral (count 1), α·β subintervals per
/// block step over all threads (the single integral of --lower/--upper).
enum class AdaptiveSweep { PerRow, Spread };

/// The adaptive 1D quadrature of `count` integrals int_lower^upper f(x) dx;
/// `rows` is count x (2 + P): lower, upper, then the parameters, swept as
/// `sweep` says (Spread needs count 1). On the GPU the kernels
/// are compiled by NVRTC (expression_kernels.hpp); `compile` (may be null)
/// says how. Throws InputError::usage for bad options or a row whose limits
/// are not finite with lower < upper or whose parameters are not finite,
/// DeviceError for CUDA failures, NvrtcCompileError with NVRTC's log.
std::vector<quadrature::Adaptive1DResult> integrate_adaptive_expression(
    const Expression& f, const std::vector<double>& rows, std::size_t count, const quadrature::Adaptive1DOptions& options,
    ComputeDevice device, KernelCompileReport* compile = nullptr, AdaptiveSweep sweep = AdaptiveSweep::PerRow);

/// The two-phase cubature of `count` integrals of f(x1..xn) over the box of
/// `options`, one after the other; `parameters` is count x P. GPU and
/// errors as integrate_adaptive_expression.
std::vector<quadrature::CubatureResult> integrate_cubature_expression(const Expression& f,
                                                                      const std::vector<double>& parameters,
                                                                      std::size_t count,
                                                                      const quadrature::CubatureOptions& options,
                                                                      ComputeDevice device,
                                                                      KernelCompileReport* compile = nullptr);

}  // namespace geobem::expression

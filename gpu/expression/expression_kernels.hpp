#pragma once
// The GPU side of user integrands: each integrator's kernel written as CUDA
// source around the expression's generated functor (expression_cuda_source.hpp),
// compiled once per run by NVRTC with the integrator's own GEOBEM_HD headers
// (embedded as strings at build time), cached on disk
// (nvrtc_compile_cached), loaded as a CudaLibrary and launched by handle.
// The kernel source is what the built-in families' kernels are, the
// family's functor replaced by the expression's, so the speed is theirs.
#include <string>
#include <vector>

#include "gpu/core/nvrtc_program.hpp"
#include "gpu/expression/expression_integrate.hpp"

namespace geobem::expression {

/// The headers the generated kernels include, embedded at build time, with
/// the few standard headers they name replaced by what NVRTC needs of them.
const std::vector<NvrtcHeader>& device_headers();

/// Name of the Longman kernel in longman_kernel_source.
inline constexpr const char* kLongmanKernelName = "geobem_longman_expression";

/// CUDA source of a Longman kernel for int_0^inf factor(omega x) rest(x) dx:
/// extern "C" kernel(const double* rows, unsigned long long count,
/// transform::GaussRule, transform::LongmanOptions, transform::LongmanResult*),
/// one thread per row of (omega, decay rate, parameters...).
std::string longman_kernel_source(const Expression& rest, OscillationKind kind);

/// Names of the adaptive 1D kernels in adaptive_kernel_source.
inline constexpr const char* kAdaptiveStepKernelName = "geobem_adaptive_expression_step";
inline constexpr const char* kAdaptiveBatchKernelName = "geobem_adaptive_expression_batch";

/// CUDA source of the block-cutting sweep's kernels for int f(x) dx, the
/// expression's functor `Integrand` holding its P parameters (double[max(P, 1)]):
/// extern "C" step(Integrand, const BlockCuttingState*, KronrodSums*) and
/// batch(const Integrand*, BlockCuttingState*), the bodies of
/// quadrature/adaptive_1d_kernels.cuh.
std::string adaptive_kernel_source(const Expression& f);

/// Names of the cubature kernels in cubature_kernel_source.
inline constexpr const char* kApplyRuleKernelName = "geobem_cubature_expression_apply_rule";
inline constexpr const char* kRefineKernelName = "geobem_cubature_expression_refine";

/// CUDA source of the cubature's two integrand kernels for f(x1..xn), n the
/// expression's variable count: extern "C" apply_rule and refine with the
/// parameters of quadrature/cubature_cuda.cuh's apply_rule_kernel<., n> and
/// refine_kernel, the functor first (double[max(P, 1)]).
std::string cubature_kernel_source(const Expression& f);

namespace detail {

/// The CUDA path of integrate_longman_expression (expression_kernels.cpp).
void longman_expression_cuda(const Expression& rest, OscillationKind kind, const std::vector<double>& rows,
                             std::size_t count, const transform::GaussRule& rule,
                             const transform::LongmanOptions& options, transform::LongmanResult* results,
                             transform::LongmanTimings* timings, KernelCompileReport* report);

/// The CUDA path of integrate_adaptive_expression: rows count x (2 + P), checked.
std::vector<quadrature::Adaptive1DResult> adaptive_expression_cuda(const Expression& f, const std::vector<double>& rows,
                                                                   std::size_t count,
                                                                   const quadrature::Adaptive1DOptions& options,
                                                                   AdaptiveSweep sweep, KernelCompileReport* report);

/// The CUDA path of integrate_cubature_expression: parameters count x P, checked.
std::vector<quadrature::CubatureResult> cubature_expression_cuda(const Expression& f,
                                                                 const std::vector<double>& parameters,
                                                                 std::size_t count,
                                                                 const quadrature::CubatureOptions& options,
                                                                 KernelCompileReport* report);

}  // namespace detail

}  // namespace geobem::expression

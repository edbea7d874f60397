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

namespace detail {

/// The CUDA path of integrate_longman_expression (expression_kernels.cpp).
void longman_expression_cuda(const Expression& rest, OscillationKind kind, const std::vector<double>& rows,
                             std::size_t count, const transform::GaussRule& rule,
                             const transform::LongmanOptions& options, transform::LongmanResult* results,
                             transform::LongmanTimings* timings, KernelCompileReport* report);

}  // namespace detail

}  // namespace geobem::expression

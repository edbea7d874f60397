#pragma once
// Batched Longman integration of the built-in families (families.hpp) on the
// CPU or the GPU, with the parameter checks and names the stage uses. A new
// family needs no change here: call longman_integrate_cpu / _cuda
// (longman_cpu.hpp, longman_cuda.cuh) with its functor directly.
#include <cstddef>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/transform/longman.hpp"

namespace geobem::transform {

enum class TransformFamily { ExponentialCosine, ExponentialSine, LorentzianCosine, LorentzianSine, HankelExponential, HalfSpaceDisk };

struct FamilyDescription {
  TransformFamily family;
  std::string name;                     ///< as on the command line, e.g. "exp-cos"
  std::vector<std::string> parameters;  ///< CSV column names, in functor order
  std::string integral;                 ///< the integral, for --help
};

/// All built-in families.
const std::vector<FamilyDescription>& transform_families();
/// The description of `family`.
const FamilyDescription& describe(TransformFamily family);
/// Parses a family name; throws std::invalid_argument naming it and listing the known ones.
TransformFamily parse_transform_family(const std::string& name);

/// "euler", "epsilon", "mw"; throws std::invalid_argument naming the value otherwise.
Accelerator parse_accelerator(const std::string& name);
std::string to_string(Accelerator accelerator);
/// "converged", "cap-reached", "non-finite", "rounding-limited".
std::string to_string(LongmanStatus status);

/// Gauss-Legendre rule of `order` points (gpu/core/gauss_legendre); throws
/// std::invalid_argument unless 1 <= order <= kMaxGaussOrder.
GaussRule make_gauss_rule(int order);

/// Throws std::invalid_argument naming the option for tolerances that are not
/// finite or not > 0 (absolute may be 0), or areas outside 1 <= min <= max <= kMaxAreas.
void validate_options(const LongmanOptions& options);

/// Empty when the parameters (describe(family).parameters.size() values) are
/// valid for the family, else a message naming the bad parameter and value
/// (non-finite, out of range).
std::string check_parameters(TransformFamily family, const double* parameters);

/// Integrates `count` integrals of `family`; `parameters` is row-major
/// count x describe(family).parameters.size(). Parameters must have passed
/// check_parameters and options validate_options. `progress_quiet` silences
/// the CPU progress line; `timings` (may be null) gets the device times.
/// Throws geobem::DeviceError on a CUDA failure.
std::vector<LongmanResult> integrate_family(TransformFamily family, const std::vector<double>& parameters,
                                            std::size_t count, const LongmanOptions& options, int quadrature_order,
                                            ComputeDevice device, bool progress_quiet = true,
                                            LongmanTimings* timings = nullptr);

}  // namespace geobem::transform

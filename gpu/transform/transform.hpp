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
  std::string range;                    ///< the documented range (parameter_range), for --help
};

/// The documented parameter range of a family, over which its status is
/// measured honest (bench/transform/longman_battery, tests/transform): a scale
/// and a dimensionless ratio, both inclusive.
///   exp-cos, exp-sin: scale omega, ratio lambda/omega (the damping; lambda = a for exp-sin);
///   lorentzian-cos, -sin: ratio omega (scale unused, 1);
///   hankel-exp: scale r, ratio a/r; with m = 0, a/r may go down to 0 (below
///     ratio_min only m = 1 is refused: k e^{-ak} J_nu(kr) then cancels to
///     a/r^3 and rounding exceeds 1e-12);
///   halfspace-disk: scale a, ratio r/a (r = 0 also allowed).
/// Below ratio_min for exp-cos/exp-sin (weak damping) the integral lambda/omega^2
/// is a small remainder of areas of size 2/omega and rounding exceeds 1e-12.
struct ParameterRange {
  double scale_min, scale_max, ratio_min, ratio_max;
};
/// The documented range of `family`.
ParameterRange parameter_range(TransformFamily family);

/// All built-in families.
const std::vector<FamilyDescription>& transform_families();
/// The description of `family`.
const FamilyDescription& describe(TransformFamily family);
/// Parses a family name; throws geobem::UsageError naming it and listing the known ones.
TransformFamily parse_transform_family(const std::string& name);

/// "euler", "epsilon", "mw"; throws geobem::UsageError naming the value otherwise.
Accelerator parse_accelerator(const std::string& name);
std::string to_string(Accelerator accelerator);

/// Gauss-Legendre rule of `order` points (gpu/core/gauss_legendre); throws
/// geobem::UsageError unless 1 <= order <= kMaxGaussOrder.
GaussRule make_gauss_rule(int order);

/// Throws geobem::UsageError naming the option for tolerances that are not
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

/// As above, into `results` (resized to `count`): a caller that keeps the
/// vector from batch to batch allocates and first-touches no host memory on
/// later batches (a fresh 10^6 result vector is 24 MB of page faults and
/// zeroing on the host before the first upload).
void integrate_family(TransformFamily family, const std::vector<double>& parameters, std::size_t count,
                      const LongmanOptions& options, int quadrature_order, ComputeDevice device,
                      std::vector<LongmanResult>& results, bool progress_quiet = true,
                      LongmanTimings* timings = nullptr);

}  // namespace geobem::transform

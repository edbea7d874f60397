#pragma once
// Batched Longman integration of the built-in families (families.hpp) on the
// CPU or the GPU, with the parameter checks and names the stage uses, all
// generated from the family list (LongmanFamilies): a family registered there
// needs no change here. A family of one's own needs no registration either:
// call longman_integrate_cpu / _cuda (longman_cpu.hpp, longman_cuda.cuh) with
// its functor directly.
#include <cstddef>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/transform/families.hpp"
#include "gpu/transform/longman.hpp"

namespace geobem::transform {

/// A built-in family: its position in LongmanFamilies (families.hpp). Name one
/// by its trait, transform_family<ExponentialCosine>, or parse its name.
enum class TransformFamily : int {};
template <class Family>
constexpr TransformFamily transform_family = static_cast<TransformFamily>(FamilyIndex<Family, LongmanFamilies>::value);

struct FamilyDescription {
  TransformFamily family;
  std::string name;                     ///< as on the command line, e.g. "exp-cos"
  std::vector<std::string> parameters;  ///< CSV column names, in functor order
  std::string integral;                 ///< the integral, for --help
  std::string range;                    ///< the documented range (parameter_range), for --help
};

/// The documented range of `family` (its trait's range; which parameters are
/// the scale and the ratio is said there).
ParameterRange parameter_range(TransformFamily family);

/// All built-in families.
const std::vector<FamilyDescription>& transform_families();
/// The description of `family`; throws InputError for a value
/// outside the list.
const FamilyDescription& describe(TransformFamily family);
/// Parses a family name; throws InputError::usage naming it and listing the known ones.
TransformFamily parse_transform_family(const std::string& name);

/// "euler", "epsilon", "mw"; throws InputError::usage naming the value otherwise.
Accelerator parse_accelerator(const std::string& name);
std::string to_string(Accelerator accelerator);

/// Gauss-Legendre rule of `order` points (gpu/core/gauss_legendre); throws
/// InputError::usage unless 1 <= order <= kMaxGaussOrder.
GaussRule make_gauss_rule(int order);

/// Throws InputError::usage naming the option for tolerances that are not
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

#pragma once
// What a built-in Longman family declares beside its functor (the concept in
// longman.hpp) to be listed in LongmanFamilies (families.hpp), from which the
// family identifiers, names, --help texts, range checks and the CPU and CUDA
// dispatch of transform.hpp are generated:
//   static constexpr const char* name;               // as on the command line, e.g. "exp-cos"
//   static constexpr const char* parameter_names[];  // CSV columns, in from_parameters order
//   static constexpr const char* integral;           // the integral and its closed form, for --help
//   static constexpr ParameterRange range;           // the documented range
//   static constexpr const char* range_text;         // the same in words, for --help
//   static std::string check(const double* row);     // "" or a message naming the parameter
//                                                    // outside the range (row finite)
#if !defined(__CUDACC_RTC__)  // messages are host code; NVRTC-compiled kernels (gpu/expression) see the rest
#include <string>
#endif

namespace geobem::transform {

/// The documented parameter range of a family, over which its status is
/// measured honest (bench/transform/longman_battery, tests/transform): a scale
/// and a dimensionless ratio, both inclusive; each family says which
/// parameters they are.
struct ParameterRange {
  double scale_min, scale_max, ratio_min, ratio_max;
};

#if !defined(__CUDACC_RTC__)
/// "<name> = <value> <requirement>", the form of every parameter message.
std::string describe_value(const std::string& name, double value, const std::string& requirement);
/// "" when lo <= value <= hi, else "<name> = <value> is outside the documented
/// range [lo, hi]<why>".
std::string outside_range(const std::string& name, double value, double lo, double hi, const char* why = "");
#endif

}  // namespace geobem::transform

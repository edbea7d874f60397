#pragma once
// The accuracy measure of every comparison of fields in the tests, the
// benchmarks and bench/RESULTS.md: the largest |a − reference| over the
// largest |reference|, so that a field's zeros do not inflate it.
#include <algorithm>
#include <cmath>
#include <cstddef>

namespace geobem {

/// max_i |a[i] − reference[i]| / max_i |reference[i]| over n values: 0 when
/// they are equal, +inf (or NaN for two zero arrays) when the reference is all
/// zero.
inline double largest_relative_difference(const double* a, const double* reference, std::size_t n) {
  double largest = 0.0, difference = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    largest = std::max(largest, std::abs(reference[i]));
    difference = std::max(difference, std::abs(a[i] - reference[i]));
  }
  return difference / largest;
}

}  // namespace geobem

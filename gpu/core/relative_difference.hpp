#pragma once
// The accuracy measure of every comparison of fields in the tests, the
// benchmarks and bench/RESULTS.md: the largest |a − reference| over the
// largest |reference|, so that a field's zeros do not inflate it.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/core/input_error.hpp"

namespace geobem {

/// max_i |a[i] − reference[i]| / max_i |reference[i]| over n values, real or
/// complex (any T whose abs() is found by argument-dependent lookup): 0 when
/// they are equal, +inf (or NaN for two zero arrays) when the reference is all
/// zero.
template <class T>
double largest_relative_difference(const T* a, const T* reference, std::size_t n) {
  using std::abs;
  double largest = 0.0, difference = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    largest = std::max(largest, static_cast<double>(abs(reference[i])));
    difference = std::max(difference, static_cast<double>(abs(a[i] - reference[i])));
  }
  return difference / largest;
}

/// The same over two whole vectors; throws InputError naming both
/// lengths when they differ.
template <class T>
double largest_relative_difference(const std::vector<T>& a, const std::vector<T>& reference) {
  if (a.size() != reference.size())
    throw InputError("largest_relative_difference: " + std::to_string(a.size()) + " values against " +
                     std::to_string(reference.size()) + " of the reference");
  return largest_relative_difference(a.data(), reference.data(), a.size());
}

}  // namespace geobem

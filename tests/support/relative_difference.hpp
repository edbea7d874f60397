#pragma once
// How far apart two computations of one vector are, as the tests measure it.
#include <algorithm>
#include <cmath>
#include <vector>

namespace geobem::test {

/// max_k |a_k − b_k| / max_k |b_k| of two vectors of real or complex values
/// (b the reference); 1e300 when their lengths differ, so that any bound fails.
template <class T>
double relative_difference(const std::vector<T>& a, const std::vector<T>& b) {
  using std::abs;  // and the abs of a complex type, found by argument-dependent lookup
  double diff = 0, scale = 0;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
    diff = std::max(diff, static_cast<double>(abs(a[k] - b[k])));
    scale = std::max(scale, static_cast<double>(abs(b[k])));
  }
  return a.size() == b.size() ? diff / scale : 1e300;
}

}  // namespace geobem::test

#pragma once
// The relative L2 difference the tests measure time series and fields by.
#include <cmath>
#include <cstddef>
#include <vector>

namespace geobem::test {

/// Relative L2 difference of two series of one length:
/// ||a - reference||_2 / ||reference||_2.
inline double relative_l2_difference(const std::vector<double>& a, const std::vector<double>& reference) {
  double difference = 0.0, norm = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    difference += (a[k] - reference[k]) * (a[k] - reference[k]);
    norm += reference[k] * reference[k];
  }
  return std::sqrt(difference / norm);
}

}  // namespace geobem::test

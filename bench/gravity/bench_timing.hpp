#pragma once
// The wall-clock timing of the gravity benchmarks: the best of several calls
// (the least disturbed by the rest of the machine).
#include <algorithm>
#include <chrono>
#include <functional>

#include "gpu/core/seconds_since.hpp"

namespace geobem::bench {

/// The shortest wall time of `repeat` calls of `call`, seconds.
inline double best_time(int repeat, const std::function<void()>& call) {
  double best = 1e300;
  for (int i = 0; i < repeat; ++i) {
    const auto start = std::chrono::steady_clock::now();
    call();
    best = std::min(best, seconds_since(start));
  }
  return best;
}

}  // namespace geobem::bench

#pragma once
// The wall-clock timing of the gravity benchmarks: seconds since a moment,
// and the best of several calls (the least disturbed by the rest of the
// machine).
#include <algorithm>
#include <chrono>
#include <functional>

namespace geobem::bench {

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

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

#pragma once
// The wall-clock timing of the gravity benchmarks: the best of several calls
// (the least disturbed by the rest of the machine).
#include <algorithm>
#include <chrono>
#include <functional>
#include <string>

#include "gpu/core/input_error.hpp"
#include "gpu/core/seconds_since.hpp"

namespace geobem::bench {

/// Checks a benchmark's --repeat right after the parse, before the set-up:
/// throws InputError::usage naming the value unless it is at least 1.
inline void check_repeat(int repeat) {
  if (repeat < 1) throw InputError::usage("--repeat " + std::to_string(repeat) + ": expected 1 or more");
}

/// The shortest wall time of `repeat` calls of `call` (repeat >= 1, see
/// check_repeat), seconds.
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

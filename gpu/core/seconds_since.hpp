#pragma once
// The one wall-clock measure of the stages' phase lines, the solvers'
// timings and the benchmarks.
#include <chrono>

namespace geobem {

/// Seconds of std::chrono::steady_clock elapsed since `start`.
inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace geobem

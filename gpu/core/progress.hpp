#pragma once
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>

namespace geobem {

/// Reports progress of a long run on stderr: "LABEL: 42.0% (DONE/TOTAL UNIT),
/// 12.3 s elapsed, about 17.0 s left". Lines come at most every `interval`
/// seconds plus one at the end; `quiet` silences all of them. Thread-safe.
class ProgressReporter {
 public:
  ProgressReporter(std::string label, std::uint64_t total, std::string unit, bool quiet,
                   double interval_seconds = 2.0);
  /// Adds `amount` units of finished work; may print a line.
  void advance(std::uint64_t amount);
  /// Prints the closing line (total time) unless quiet. Idempotent.
  void finish();
  /// Seconds since construction.
  double elapsed_seconds() const;

 private:
  void print_line(bool final_line);
  std::string label_, unit_;
  std::uint64_t total_, done_ = 0;
  bool quiet_, finished_ = false;
  double interval_;
  std::chrono::steady_clock::time_point start_, last_print_;
  std::mutex mutex_;
};

}  // namespace geobem

#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>

namespace geobem {

/// Where progress goes and how. On a terminal one line is rewritten in place
/// (carriage return, at most every `interval_seconds`) and cleared at the
/// end; anywhere else (a log file, a pipe) each report is a line of its own,
/// at most one per `interval_seconds`.
struct ProgressSink {
  std::FILE* stream = stderr;
  bool terminal = false;
  double interval_seconds = 10.0;

  /// stderr: a line rewritten every 0.5 s when it is a terminal, else a
  /// plain line every 10 s.
  static ProgressSink standard_error();
};

/// Reports progress of a long run: "LABEL: 42.0% (DONE/TOTAL UNIT), 12.3 s
/// elapsed, about 17 s left", as the sink says, then one closing line with
/// the total time; `quiet` silences all of them. Thread-safe.
class ProgressReporter {
 public:
  ProgressReporter(std::string label, std::uint64_t total, std::string unit, bool quiet,
                   ProgressSink sink = ProgressSink::standard_error());
  /// Clears a rewritten line left on the terminal (a run that ended by an
  /// exception), so that the error message starts a line of its own.
  ~ProgressReporter();
  ProgressReporter(const ProgressReporter&) = delete;
  ProgressReporter& operator=(const ProgressReporter&) = delete;

  /// Adds `amount` units of finished work; may report.
  void advance(std::uint64_t amount);
  /// Clears the rewritten line and prints the closing line (total time)
  /// unless quiet. Idempotent.
  void finish();
  /// Seconds since construction.
  double elapsed_seconds() const;

 private:
  void report();
  void clear_line();
  std::string label_, unit_;
  std::uint64_t total_, done_ = 0;
  bool quiet_, finished_ = false;
  ProgressSink sink_;
  std::size_t shown_width_ = 0;  ///< characters of the rewritten line on the terminal
  std::chrono::steady_clock::time_point start_, last_report_;
  std::mutex mutex_;
};

/// A duration for people: "12.3 s", "4 min 05 s", "2 h 07 min".
std::string duration_text(double seconds);

}  // namespace geobem

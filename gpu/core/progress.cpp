#include "gpu/core/progress.hpp"

#include <unistd.h>

#include <cmath>

#include "gpu/core/seconds_since.hpp"

namespace geobem {

ProgressSink ProgressSink::standard_error() {
  const bool terminal = ::isatty(STDERR_FILENO) == 1;
  return {stderr, terminal, terminal ? 0.5 : 10.0};
}

std::string duration_text(double seconds) {
  char text[48];
  if (!(seconds < 59.95)) {
    const long long whole = std::llround(seconds);
    if (whole < 3600)
      std::snprintf(text, sizeof text, "%lld min %02lld s", whole / 60, whole % 60);
    else
      std::snprintf(text, sizeof text, "%lld h %02lld min", whole / 3600, whole / 60 % 60);
  } else {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  }
  return text;
}

ProgressReporter::ProgressReporter(std::string label, std::uint64_t total, std::string unit, bool quiet,
                                   ProgressSink sink)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      quiet_(quiet),
      sink_(sink),
      start_(std::chrono::steady_clock::now()),
      last_report_(start_) {}

ProgressReporter::~ProgressReporter() {
  std::lock_guard<std::mutex> lock(mutex_);
  clear_line();
}

double ProgressReporter::elapsed_seconds() const {
  return seconds_since(start_);
}

void ProgressReporter::advance(std::uint64_t amount) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_ += amount;
  if (quiet_ || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_report_).count() >= sink_.interval_seconds) {
    last_report_ = now;
    report();
  }
}

void ProgressReporter::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  if (quiet_) return;
  clear_line();
  std::fprintf(sink_.stream, "%s: done, %llu %s in %s\n", label_.c_str(), static_cast<unsigned long long>(done_),
               unit_.c_str(), duration_text(elapsed_seconds()).c_str());
  std::fflush(sink_.stream);
}

void ProgressReporter::report() {
  const double elapsed = elapsed_seconds();
  const double fraction = total_ > 0 ? static_cast<double>(done_) / static_cast<double>(total_) : 1.0;
  char text[512];
  if (fraction > 0.0)
    std::snprintf(text, sizeof text, "%s: %5.1f%% (%llu/%llu %s), %s elapsed, about %s left", label_.c_str(),
                  100.0 * fraction, static_cast<unsigned long long>(done_), static_cast<unsigned long long>(total_),
                  unit_.c_str(), duration_text(elapsed).c_str(),
                  duration_text(elapsed * (1.0 - fraction) / fraction).c_str());
  else
    std::snprintf(text, sizeof text, "%s: started, %s elapsed", label_.c_str(), duration_text(elapsed).c_str());
  if (!sink_.terminal) {
    std::fprintf(sink_.stream, "%s\n", text);
  } else {
    // Over the line shown before: blanks where the new one is shorter.
    const std::size_t width = std::char_traits<char>::length(text);
    std::fprintf(sink_.stream, "\r%s%*s", text, static_cast<int>(shown_width_ > width ? shown_width_ - width : 0), "");
    shown_width_ = width;
  }
  std::fflush(sink_.stream);
}

void ProgressReporter::clear_line() {
  if (shown_width_ == 0) return;
  std::fprintf(sink_.stream, "\r%*s\r", static_cast<int>(shown_width_), "");
  std::fflush(sink_.stream);
  shown_width_ = 0;
}

}  // namespace geobem

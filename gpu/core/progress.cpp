#include "gpu/core/progress.hpp"

#include <cstdio>

#include "gpu/core/seconds_since.hpp"

namespace geobem {

ProgressReporter::ProgressReporter(std::string label, std::uint64_t total, std::string unit, bool quiet,
                                   double interval_seconds)
    : label_(std::move(label)),
      unit_(std::move(unit)),
      total_(total),
      quiet_(quiet),
      interval_(interval_seconds),
      start_(std::chrono::steady_clock::now()),
      last_print_(start_) {}

double ProgressReporter::elapsed_seconds() const {
  return seconds_since(start_);
}

void ProgressReporter::advance(std::uint64_t amount) {
  std::lock_guard<std::mutex> lock(mutex_);
  done_ += amount;
  if (quiet_ || finished_) return;
  const auto now = std::chrono::steady_clock::now();
  if (std::chrono::duration<double>(now - last_print_).count() >= interval_) {
    last_print_ = now;
    print_line(false);
  }
}

void ProgressReporter::finish() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (finished_) return;
  finished_ = true;
  if (!quiet_) print_line(true);
}

void ProgressReporter::print_line(bool final_line) {
  const double elapsed = elapsed_seconds();
  if (final_line) {
    std::fprintf(stderr, "%s: done, %llu %s in %.2f s\n", label_.c_str(), static_cast<unsigned long long>(done_),
                 unit_.c_str(), elapsed);
    return;
  }
  const double fraction = total_ > 0 ? static_cast<double>(done_) / static_cast<double>(total_) : 1.0;
  if (fraction > 0.0) {
    const double left = elapsed * (1.0 - fraction) / fraction;
    std::fprintf(stderr, "%s: %5.1f%% (%llu/%llu %s), %.1f s elapsed, about %.1f s left\n", label_.c_str(),
                 100.0 * fraction, static_cast<unsigned long long>(done_), static_cast<unsigned long long>(total_),
                 unit_.c_str(), elapsed, left);
  } else {
    std::fprintf(stderr, "%s: started, %.1f s elapsed\n", label_.c_str(), elapsed);
  }
  std::fflush(stderr);
}

}  // namespace geobem

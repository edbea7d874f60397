#pragma once
// The one error type for a request the caller must change: an option value
// out of its domain, options that contradict each other, a word that names
// nothing. Library functions that check caller-given settings throw it; a
// stage maps it to exit status 2 (stages/cli run_stage), every other
// exception to 1. It is a std::invalid_argument, so callers that catch that
// keep working.
#include <stdexcept>
#include <string>

namespace geobem {

class UsageError : public std::invalid_argument {
 public:
  explicit UsageError(const std::string& message) : std::invalid_argument(message) {}
};

}  // namespace geobem

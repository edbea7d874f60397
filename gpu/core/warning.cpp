#include "gpu/core/warning.hpp"

#include <cstdio>

namespace geobem {
namespace {

thread_local WarningCapture* active_capture = nullptr;

}  // namespace

WarningCapture::WarningCapture() : outer_(active_capture) { active_capture = this; }

WarningCapture::~WarningCapture() { active_capture = outer_; }

void warn(const std::string& message) {
  if (active_capture) {
    active_capture->messages_.push_back(message);
    return;
  }
  std::fprintf(stderr, "warning: %s\n", message.c_str());
  std::fflush(stderr);
}

}  // namespace geobem

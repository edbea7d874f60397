#pragma once
// The library's warnings (accuracy limits, undefined fields): one call that
// every method uses, so that a caller other than a stage can take them. By
// default a warning is one line "warning: MESSAGE" on stderr, whatever the
// progress setting (warnings are never silenced); a WarningCapture on the
// calling thread collects them instead (the Python module turns them into
// Python warnings).
#include <string>
#include <vector>

namespace geobem {

/// Reports `message` (no "warning: " prefix, no newline) to the capture active
/// on this thread, else on stderr. Call it from the thread that called the
/// library, not from OpenMP workers.
void warn(const std::string& message);

/// While alive, collects the warnings of this thread (nested captures: the
/// innermost collects). Not copyable.
class WarningCapture {
 public:
  WarningCapture();
  ~WarningCapture();
  WarningCapture(const WarningCapture&) = delete;
  WarningCapture& operator=(const WarningCapture&) = delete;
  /// The messages collected so far, in order.
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  friend void warn(const std::string& message);
  std::vector<std::string> messages_;
  WarningCapture* outer_;
};

}  // namespace geobem

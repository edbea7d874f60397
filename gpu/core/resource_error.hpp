#pragma once
// A run refused before its work because it would not fit in the memory
// there is (docs/design.md, "Errors"): the host's budget, the device's
// (device_memory_budget.hpp) or the user's limit. The message says what the
// run needs, what there is and what to change (a coarser mesh, host arrays
// that stream in chunks). Distinct from bad input, whose values are wrong,
// and from a DeviceError, a CUDA call that failed: the same input fits a
// larger machine. A stage exits with 1; the Python module raises
// geobem.ResourceError, a RuntimeError.
#include <stdexcept>

namespace geobem {

class ResourceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace geobem

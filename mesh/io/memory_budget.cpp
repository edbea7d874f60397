#include "mesh/io/memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

#include "gpu/core/resource_error.hpp"

namespace geobem {

namespace {

/// The value (kiB) of `key` ("MemAvailable:") in a /proc file of "KEY VALUE kB" lines, 0 when missing.
std::uint64_t proc_kib(const char* file, const std::string& key) {
  std::ifstream in(file);
  std::string name;
  while (in >> name) {
    if (name == key) {
      std::uint64_t kib = 0;
      in >> kib;
      return kib;
    }
    in.ignore(1 << 12, '\n');
  }
  return 0;
}

}  // namespace

std::uint64_t available_memory_bytes() {
  std::uint64_t bytes = proc_kib("/proc/meminfo", "MemAvailable:") * 1024;
  if (bytes == 0) {
    const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
    bytes = pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size)
                                       : UINT64_MAX;
  }
  // An address-space limit (ulimit -v) leaves only its headroom to allocate.
  rlimit limit{};
  if (::getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    const std::uint64_t used = proc_kib("/proc/self/status", "VmSize:") * 1024;
    bytes = std::min<std::uint64_t>(bytes, limit.rlim_cur > used ? limit.rlim_cur - used : 0);
  }
  return bytes;
}

bool multiply_checked(std::uint64_t a, std::uint64_t b, std::uint64_t& product) {
  std::uint64_t result;
  if (__builtin_mul_overflow(a, b, &result)) return false;
  product = result;
  return true;
}

std::string format_bytes(std::uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 6) {
    value /= 1024;
    ++unit;
  }
  char text[48];
  if (unit == 0)
    std::snprintf(text, sizeof text, "%llu bytes", static_cast<unsigned long long>(bytes));
  else
    std::snprintf(text, sizeof text, "%.3g %s", value, units[unit]);
  return text;
}

void require_memory(std::uint64_t bytes, std::uint64_t budget_bytes, const std::string& what) {
  if (bytes <= budget_bytes) return;
  const std::string needed = bytes == UINT64_MAX ? "more than 2^64 bytes"
                                                 : std::to_string(bytes) + " bytes (" + format_bytes(bytes) + ")";
  throw ResourceError(what + " needs " + needed + ", more than the " + format_bytes(budget_bytes) +
                      " of memory available");
}

}  // namespace geobem

#include "mesh/io/memory_budget.hpp"

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace geobem {

std::uint64_t available_memory_bytes() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  const long pages = sysconf(_SC_PHYS_PAGES), page_size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && page_size > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page_size)
                                    : UINT64_MAX;
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
  throw std::runtime_error(what + " needs " + needed + ", more than the " + format_bytes(budget_bytes) +
                           " of memory available");
}

}  // namespace geobem

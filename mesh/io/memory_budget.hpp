#pragma once
// Sizes read from a file are checked against the memory the machine can give
// before anything is allocated, so that a corrupt or hostile count ends in a
// message with the bytes needed instead of std::bad_alloc or a runaway.
#include <cstdint>
#include <string>

namespace geobem {

/// Bytes of memory this process can expect to allocate now: the kernel's
/// MemAvailable (/proc/meminfo), or the physical memory where that is
/// missing; under an address-space limit (RLIMIT_AS, ulimit -v) at most what
/// the limit leaves above the process's present size.
std::uint64_t available_memory_bytes();

/// Sets product = a·b and returns true, or returns false (product unchanged)
/// when a·b overflows 64 bits.
bool multiply_checked(std::uint64_t a, std::uint64_t b, std::uint64_t& product);

/// Throws ResourceError "WHAT needs N bytes (X GiB), more than the Y GiB
/// of memory available" when `bytes` exceeds `budget_bytes` (UINT64_MAX
/// reads "more than 2^64 bytes": pass it for a size that overflowed).
void require_memory(std::uint64_t bytes, std::uint64_t budget_bytes, const std::string& what);

/// "1.5 GiB"-style text of a byte count, for messages.
std::string format_bytes(std::uint64_t bytes);

}  // namespace geobem

#pragma once
// Shared by the libFuzzer harnesses: the readers take paths, so each input is
// written to a file of this process first; a reader may refuse the input
// with any std::exception (that is the point), but must not crash, trip a
// sanitizer, run away or throw anything else.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

namespace geobem::fuzz {

/// Writes the input to a file named with this process's id and `extension`.
inline std::filesystem::path input_file(const std::uint8_t* data, std::size_t size, const std::string& extension) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("geobem_fuzz_" + std::to_string(::getpid()) + extension);
  std::ofstream(path, std::ios::binary | std::ios::trunc).write(reinterpret_cast<const char*>(data),
                                                                static_cast<std::streamsize>(size));
  return path;
}

/// Runs a reader; std::exception is an accepted outcome.
inline int refusal_is_fine(const std::function<void()>& read) {
  try {
    read();
  } catch (const std::exception&) {
  }
  return 0;
}

}  // namespace geobem::fuzz

#pragma once
// Helpers of the surface tests: a per-process scratch folder, text files,
// and the message of an expected exception.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

namespace geobem::test {

inline std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("geobem_test_surface_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

inline std::filesystem::path write_file(const std::string& name, const std::string& text) {
  const auto path = scratch(name);
  std::ofstream(path) << text;
  return path;
}

/// The what() of the std::exception `call` throws; "" when it throws nothing.
inline std::string error_of(const std::function<void()>& call) {
  try {
    call();
  } catch (const std::exception& error) {
    return error.what();
  }
  return "";
}

}  // namespace geobem::test

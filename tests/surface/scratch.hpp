#pragma once
// Helpers of the surface tests: a per-process scratch folder, text files,
// the message of an expected exception, and running a stage command line.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
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

struct StageRun {
  int exit_code;
  std::string errors;  ///< everything the command wrote on stderr
};

/// Runs `command` (shell syntax) with stdout discarded; its status and stderr.
inline StageRun run_command(const std::string& command) {
  const auto errors = scratch("stderr.txt");
  const int status = std::system((command + " >/dev/null 2>" + errors.string()).c_str());
  std::ifstream in(errors);
  std::stringstream text;
  text << in.rdbuf();
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, text.str()};
}

}  // namespace geobem::test

#pragma once
// Runs a stage command line in a shell and collects its exit status and
// stderr; a scratch folder per test process.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace geobem::test {

struct StageRun {
  int exit_code;
  std::string errors;  ///< everything the command wrote on stderr
};

inline std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("geobem_test_stages_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::filesystem::path write_text(const std::string& name, const std::string& text) {
  const auto path = scratch(name);
  std::ofstream(path) << text;
  return path;
}

/// Runs `command` (shell syntax) with stdout discarded.
inline StageRun run_command(const std::string& command) {
  const auto errors = scratch("stderr.txt");
  const int status = std::system((command + " >/dev/null 2>" + errors.string()).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(errors)};
}

}  // namespace geobem::test

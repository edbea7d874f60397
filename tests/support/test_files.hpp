#pragma once
// Helpers of the tests that touch files or run stage executables: a scratch
// folder per test process, text files in and out, the message of an expected
// exception, and a stage command line's exit status and stderr.
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace geobem::test {

/// `name` inside a folder of the temporary directory that belongs to this
/// process (ctest runs every test in a process of its own).
inline std::filesystem::path scratch(const std::string& name) {
  const auto dir = std::filesystem::temp_directory_path() / ("geobem_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  return dir / name;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Writes `text` to scratch(name) and returns that path.
inline std::filesystem::path write_text(const std::string& name, const std::string& text) {
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

/// Every file below `folder` (relative path -> bytes); empty for no folder.
/// Two equal snapshots are two identical output sets.
inline std::map<std::string, std::string> snapshot(const std::filesystem::path& folder) {
  std::map<std::string, std::string> files;
  if (!std::filesystem::is_directory(folder)) return files;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder))
    if (entry.is_regular_file())
      files[std::filesystem::relative(entry.path(), folder).string()] = read_text(entry.path());
  return files;
}

/// Temporaries of unfinished runs in `folder` (staging folders, `.partial-`
/// files, sets moved aside), by name.
inline std::vector<std::string> leftovers(const std::filesystem::path& folder) {
  std::vector<std::string> names;
  if (!std::filesystem::is_directory(folder)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    for (const char* mark : {".staging-", ".partial-", ".previous-"})
      if (name.find(mark) != std::string::npos) names.push_back(name);
  }
  return names;
}

struct StageRun {
  int exit_code;
  std::string errors;  ///< everything the command wrote on stderr
};

/// Runs `command` (shell syntax) with stdout discarded; its status and stderr.
inline StageRun run_command(const std::string& command) {
  const auto errors = scratch("stderr.txt");
  const int status = std::system((command + " >/dev/null 2>" + errors.string()).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(errors)};
}

}  // namespace geobem::test

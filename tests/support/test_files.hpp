#pragma once
// Helpers of the tests that touch files or run stage executables: a scratch
// folder per test, text files in and out, the message of an expected
// exception, and a stage command line's exit status and stderr.
#include <gtest/gtest.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace geobem::test {

namespace detail {

/// The scratch folders of a test program: one per test, made by mkdtemp
/// under $TMPDIR (else /tmp) when the test first asks, and one for what runs
/// outside a test (a suite's set-up). A test's folder is removed when the
/// test ends without failing, the other when the program ends without a
/// failure; a failure keeps the folder and names it on stderr. Unique names
/// keep concurrent tests (ctest -j) and later runs apart.
class ScratchFolders : public ::testing::EmptyTestEventListener {
 public:
  static ScratchFolders& instance() {
    static ScratchFolders* const folders = [] {
      auto* listener = new ScratchFolders;
      ::testing::UnitTest::GetInstance()->listeners().Append(listener);  // GoogleTest deletes it
      return listener;
    }();
    return *folders;
  }

  /// The folder of the running test (of the program outside a test).
  const std::filesystem::path& current() {
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    std::filesystem::path& folder = test ? test_folder_ : program_folder_;
    if (folder.empty()) folder = make(test ? std::string(test->test_suite_name()) + "." + test->name() : "set_up");
    return folder;
  }

  void OnTestEnd(const ::testing::TestInfo& test) override { finish(test_folder_, !test.result()->Failed()); }
  void OnTestProgramEnd(const ::testing::UnitTest& program) override { finish(program_folder_, !program.Failed()); }

 private:
  static std::filesystem::path make(const std::string& test) {
    std::string name = "geobem_test_";
    for (const char c : test.substr(0, 80)) name += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    std::string path = (std::filesystem::temp_directory_path() / (name + "_XXXXXX")).string();
    if (!::mkdtemp(path.data())) throw std::runtime_error("cannot create a scratch folder " + path);
    return path;
  }
  static void finish(std::filesystem::path& folder, bool passed) {
    if (folder.empty()) return;
    std::error_code ignored;
    if (passed)
      std::filesystem::remove_all(folder, ignored);
    else
      std::cerr << "scratch folder kept: " << folder.string() << "\n";
    folder.clear();
  }

  std::filesystem::path test_folder_, program_folder_;
};

}  // namespace detail

/// `name` inside the scratch folder of the running test (made on first use,
/// removed when the test passes; see detail::ScratchFolders).
inline std::filesystem::path scratch(const std::string& name) { return detail::ScratchFolders::instance().current() / name; }

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
/// files, sets moved aside) and lock files, by name.
inline std::vector<std::string> leftovers(const std::filesystem::path& folder) {
  std::vector<std::string> names;
  if (!std::filesystem::is_directory(folder)) return names;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    for (const char* mark : {".staging-", ".partial-", ".previous-", ".lock"})
      if (name.find(mark) != std::string::npos) {
        names.push_back(name);
        break;
      }
  }
  return names;
}

struct StageRun {
  int exit_code;
  std::string errors;  ///< everything the command wrote on stderr
};

/// A case of bad input to a stage: the arguments it runs with, the exit
/// status it must end with and a part of the message it must print.
struct BadStageRun {
  const char* name;  ///< the case's name in the test's name
  const char* arguments;
  int exit_code;
  const char* expected;
};
inline void PrintTo(const BadStageRun& c, std::ostream* os) { *os << c.name; }

/// A parameterised test's name from its case's `name`, for
/// INSTANTIATE_TEST_SUITE_P's last argument: CaseName().
struct CaseName {
  template <class Case>
  std::string operator()(const ::testing::TestParamInfo<Case>& info) const {
    return info.param.name;
  }
};

/// Runs `command` (shell syntax) with stdout discarded; its status and stderr.
inline StageRun run_command(const std::string& command) {
  const auto errors = scratch("stderr.txt");
  const int status = std::system((command + " >/dev/null 2>" + errors.string()).c_str());
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, read_text(errors)};
}

/// Whether `run` ended as the bad input `c` must: with its exit status and
/// a message holding its expected part; its status and stderr when not.
inline ::testing::AssertionResult ended_as(const StageRun& run, const BadStageRun& c) {
  if (run.exit_code == c.exit_code && run.errors.find(c.expected) != std::string::npos)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "exit status " << run.exit_code << ", not " << c.exit_code << " saying '"
                                       << c.expected << "'; stderr:\n" << run.errors;
}

/// Whether `run` failed (a non-zero exit status) and said `message` on
/// stderr; its status and stderr when not.
inline ::testing::AssertionResult failed_saying(const StageRun& run, const std::string& message) {
  if (run.exit_code != 0 && run.errors.find(message) != std::string::npos) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "exit status " << run.exit_code << ", not a failure saying '" << message
                                       << "'; stderr:\n" << run.errors;
}

}  // namespace geobem::test

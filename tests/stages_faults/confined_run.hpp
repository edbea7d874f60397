#pragma once
// A stage run as a hostile user would run it, and what a refusal must show:
// the exit status (1 or 2) with a clear message, no signal, within 60 s under
// a 4 GiB address-space limit, no output written, nothing left beside it
// (no lock, no temporary), and no file of the folder opened, created or
// changed other than the input and the output's own (inotify). start_stage
// is the fork and exec under limits that confined runs and the fault tests
// (test_stage_faults.cpp) share.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/test_files.hpp"

namespace geobem::test {

inline const std::string bin = GEOBEM_BIN_DIR;

struct ConfinedRun {
  int exit_code = -1;  ///< -1 when a signal ended it
  int signal = 0;
  double seconds = 0;
  std::string errors;
};

/// Limits set on a started stage (setrlimit in the child); a negative one is not set.
struct RunLimits {
  long long address_space = -1;  ///< bytes (RLIMIT_AS)
  /// Bytes per file written (RLIMIT_FSIZE, with SIGXFSZ ignored: write(2)
  /// then fails with EFBIG, as it fails with ENOSPC on a full disk).
  long long file_size = -1;
};

/// Starts bin/ARGS[0] with ARGS under `limits`, stdout discarded and stderr
/// into `errors` (discarded when empty); returns its pid.
inline pid_t start_stage(const std::vector<std::string>& args, const std::filesystem::path& errors = {},
                         const RunLimits& limits = {}) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (limits.address_space >= 0) {
      const rlimit limit{static_cast<rlim_t>(limits.address_space), static_cast<rlim_t>(limits.address_space)};
      ::setrlimit(RLIMIT_AS, &limit);
    }
    if (limits.file_size >= 0) {
      ::signal(SIGXFSZ, SIG_IGN);
      const rlimit limit{static_cast<rlim_t>(limits.file_size), static_cast<rlim_t>(limits.file_size)};
      ::setrlimit(RLIMIT_FSIZE, &limit);
    }
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(errors.empty() ? null : ::open(errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 2);
    std::vector<char*> argv;
    const std::string program = bin + "/" + args[0];
    argv.push_back(const_cast<char*>(program.c_str()));
    for (std::size_t i = 1; i < args.size(); ++i) argv.push_back(const_cast<char*>(args[i].c_str()));
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  return pid;
}

/// Runs bin/ARGS[0] under a 4 GiB address-space limit, killed after 60 s.
inline ConfinedRun run_confined(const std::vector<std::string>& args) {
  const auto errors = scratch("stderr.txt");
  const auto begin = std::chrono::steady_clock::now();
  const pid_t pid = start_stage(args, errors, {4ll << 30});
  ConfinedRun run;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() - begin > std::chrono::seconds(60)) ::kill(pid, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  run.errors = read_text(errors);
  return run;
}

/// The names in a folder that are opened, created, changed, moved or removed
/// while it lives (inotify; the folder itself, not its subfolders).
class FolderWatch {
 public:
  explicit FolderWatch(const std::filesystem::path& folder) : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    ::inotify_add_watch(fd_, folder.c_str(),
                        IN_OPEN | IN_CREATE | IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE);
  }
  ~FolderWatch() { ::close(fd_); }
  FolderWatch(const FolderWatch&) = delete;
  FolderWatch& operator=(const FolderWatch&) = delete;

  /// Names touched since the last call, and whether each was only opened.
  std::map<std::string, bool> touched() {
    alignas(inotify_event) char buffer[1 << 16];
    std::map<std::string, bool> names;
    for (ssize_t got; (got = ::read(fd_, buffer, sizeof buffer)) > 0;)
      for (char* at = buffer; at < buffer + got;) {
        const auto* event = reinterpret_cast<const inotify_event*>(at);
        if (event->len > 0) {
          const auto [it, fresh] = names.emplace(event->name, true);
          it->second = it->second && (event->mask & IN_OPEN);
        }
        at += sizeof(inotify_event) + event->len;
      }
    return names;
  }

 private:
  int fd_;
};

class UntrustedInput : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = scratch("case");
    std::filesystem::create_directories(folder_);
    secret_ = folder_ / "secret.txt";
    std::ofstream(secret_) << "secret-0123456789\n";
    std::filesystem::permissions(secret_, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
    sentinel_ = folder_ / "sentinel";
  }

  std::filesystem::path file(const std::string& name, const std::string& text) const {
    std::ofstream(folder_ / name, std::ios::binary) << text;
    return folder_ / name;
  }

  /// Runs the stage and asserts a refusal: `exit_code` with `message` in
  /// stderr, no signal, within 60 s, no `output`, no temporary left, and no
  /// name of the folder touched but `inputs` and the output's own.
  void expect_refused(const std::vector<std::string>& args, int exit_code, const std::string& message,
                      const std::filesystem::path& output, const std::set<std::string>& inputs) {
    SCOPED_TRACE(args.back());
    FolderWatch watch(folder_);
    const ConfinedRun run = run_confined(args);
    EXPECT_EQ(run.signal, 0) << run.errors;
    EXPECT_EQ(run.exit_code, exit_code) << run.errors;
    EXPECT_LT(run.seconds, 60.0);
    EXPECT_NE(run.errors.find(message), std::string::npos) << run.errors;
    EXPECT_FALSE(std::filesystem::exists(output));
    EXPECT_TRUE(leftovers(folder_).empty()) << leftovers(folder_).front();
    expect_only(watch.touched(), inputs, output);
  }

  /// Every touched name is an input, opened only, or the output's own (the
  /// output, its options record, lock and temporaries, which carry its name).
  void expect_only(const std::map<std::string, bool>& touched, const std::set<std::string>& inputs,
                   const std::filesystem::path& output) const {
    for (const auto& [name, only_opened] : touched) {
      if (inputs.count(name)) {
        EXPECT_TRUE(only_opened) << name << " was changed";
        continue;
      }
      const bool output_own = name.find(output.stem().string()) != std::string::npos;
      EXPECT_TRUE(output_own) << "the stage touched " << name;
    }
    EXPECT_FALSE(std::filesystem::exists(sentinel_));
    EXPECT_EQ(touched.count("secret.txt"), 0u);
  }

  std::filesystem::path folder_, secret_, sentinel_;
};

}  // namespace geobem::test

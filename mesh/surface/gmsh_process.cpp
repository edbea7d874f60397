#include "mesh/surface/gmsh_process.hpp"

#include <fcntl.h>
#include <omp.h>
#include <poll.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "mesh/io/memory_budget.hpp"

namespace geobem::surface {

namespace {

// Frames on the result pipe: a tag byte, a 64-bit length, the payload.
constexpr char kScriptDone = 'S', kResult = 'R', kError = 'E';
constexpr std::size_t kLogBytesKept = 256 << 10;

void write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    const ssize_t written = ::write(fd, data, size);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) ::_exit(3);  // the parent is gone
    data += written;
    size -= static_cast<std::size_t>(written);
  }
}

void set_cpu_limit(double soft_seconds, double hard_seconds) {
  const auto seconds = [](double s) { return static_cast<rlim_t>(std::ceil(s)); };
  const rlimit limit{seconds(soft_seconds), seconds(hard_seconds)};
  ::setrlimit(RLIMIT_CPU, &limit);
}

/// The child's virtual memory size now (bytes), from /proc/self/status.
std::uint64_t virtual_memory_bytes() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmSize:") {
      std::uint64_t kib = 0;
      status >> kib;
      return kib << 10;
    }
    status.ignore(1 << 12, '\n');
  }
  return 0;
}

/// Address space: what the child holds now plus the memory available, at
/// most the limit it inherited.
void limit_memory() {
  rlimit limit{};
  ::getrlimit(RLIMIT_AS, &limit);
  const std::uint64_t cap = virtual_memory_bytes() + available_memory_bytes();
  if (limit.rlim_cur == RLIM_INFINITY || limit.rlim_cur > cap) limit.rlim_cur = cap;
  ::setrlimit(RLIMIT_AS, &limit);
}

/// The seccomp filter of a confined child; false when the kernel refuses it.
bool confine() {
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
  scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ALLOW);
  if (!filter) return false;
  int status = 0;
  const auto deny = [&](int call, int error) { status |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(error), call, 0); };
  for (int call : {SCMP_SYS(execve), SCMP_SYS(execveat)}) deny(call, EPERM);
  for (int call : {SCMP_SYS(creat), SCMP_SYS(openat2), SCMP_SYS(unlink), SCMP_SYS(unlinkat), SCMP_SYS(rename),
                   SCMP_SYS(renameat), SCMP_SYS(renameat2), SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(rmdir),
                   SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(symlink), SCMP_SYS(symlinkat), SCMP_SYS(truncate),
                   SCMP_SYS(ftruncate), SCMP_SYS(chmod), SCMP_SYS(fchmod), SCMP_SYS(fchmodat), SCMP_SYS(chown),
                   SCMP_SYS(fchown), SCMP_SYS(lchown), SCMP_SYS(fchownat), SCMP_SYS(mknod), SCMP_SYS(mknodat),
                   SCMP_SYS(utimes), SCMP_SYS(utimensat), SCMP_SYS(socket), SCMP_SYS(socketpair),
                   SCMP_SYS(open_by_handle_at), SCMP_SYS(ptrace), SCMP_SYS(process_vm_writev)})
    deny(call, EACCES);
  // open and openat for reading only: any of these flags refuses the call.
  for (const unsigned flag : {O_WRONLY, O_RDWR, O_CREAT, O_TRUNC, O_APPEND}) {
    const scmp_datum_t bits = flag;
    status |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 1,
                               SCMP_A1(SCMP_CMP_MASKED_EQ, bits, bits));
    status |= seccomp_rule_add(filter, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1,
                               SCMP_A2(SCMP_CMP_MASKED_EQ, bits, bits));
  }
  if (status == 0) status = seccomp_load(filter);
  seccomp_release(filter);
  return status == 0;
}

/// The child's descriptors and limits, before its work.
void prepare_child(int log_fd, const GmshLimits& limits) {
  const int null = ::open("/dev/null", O_RDONLY);
  ::dup2(null, 0);
  ::dup2(log_fd, 1);
  ::dup2(log_fd, 2);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  set_cpu_limit(limits.script_cpu_seconds, limits.total_cpu_seconds + 1);
  limit_memory();
  omp_set_num_threads(1);
}

/// Gmsh's error lines (and the C++ runtime's last words) in its terminal
/// log, after a colon; "" when there are none.
std::string error_lines(const std::string& log) {
  std::istringstream lines(log);
  std::string line, text;
  int count = 0;
  while (std::getline(lines, line))
    if ((line.rfind("Error", 0) == 0 || line.rfind("terminate called", 0) == 0 || line.rfind("  what()", 0) == 0) &&
        count++ < 12)
      text += "\n  " + line;
  return text.empty() ? "" : ":" + text;
}

std::string signal_name(int signal) {
  switch (signal) {
    case SIGABRT: return "SIGABRT";
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGXCPU: return "SIGXCPU";
    default: return "signal " + std::to_string(signal);
  }
}

/// The child's work, under the seccomp filter: the frame it sends, the
/// work's result or the message of what it threw.
std::pair<char, std::string> child_frame(GmshChannel& channel, const std::string& context, bool requires_confinement,
                                         const std::function<std::string(GmshChannel&)>& work) {
  try {
    if (!confine() && requires_confinement)
      throw std::runtime_error(context + ": cannot confine Gmsh: the kernel refused the seccomp filter (" +
                               std::strerror(errno) + ")");
    return {kResult, work(channel)};
  } catch (const std::exception& error) {
    return {kError, error.what()};
  } catch (...) {
    return {kError, context + ": Gmsh threw an exception that is not a std::exception"};
  }
}

/// What the parent read from the child.
struct ChildOutput {
  std::string frames;               ///< the result pipe's bytes
  std::string log;                  ///< the end of Gmsh's terminal output
  std::uint64_t result_budget = 0;  ///< the memory the frames could take
  bool timed_out = false, too_large = false;
};

/// Reads both pipes until the child closes them, within the wall-clock bound
/// and the memory available; kills the child past either; closes the pipes.
ChildOutput collect_child_output(pid_t pid, int result_fd, int log_fd, const GmshLimits& limits) {
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(3.0 * limits.total_cpu_seconds + 10.0);
  ChildOutput output;
  output.result_budget = available_memory_bytes();
  pollfd fds[2] = {{result_fd, POLLIN, 0}, {log_fd, POLLIN, 0}};
  char buffer[1 << 16];
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      output.timed_out = true;
      break;
    }
    const int ready = ::poll(fds, 2, static_cast<int>(std::min<long long>(left.count(), 1000)));
    if (ready < 0 && errno != EINTR) break;
    for (int k = 0; k < 2 && ready > 0; ++k) {
      if (fds[k].fd < 0 || !(fds[k].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t got = ::read(fds[k].fd, buffer, sizeof buffer);
      if (got < 0 && errno == EINTR) continue;
      if (got <= 0) {
        ::close(fds[k].fd);
        fds[k].fd = -1;
        continue;
      }
      std::string& into = k == 0 ? output.frames : output.log;
      into.append(buffer, static_cast<std::size_t>(got));
      if (k == 1 && output.log.size() > 2 * kLogBytesKept) output.log.erase(0, output.log.size() - kLogBytesKept);
      if (k == 0 && output.frames.size() > output.result_budget) {
        output.too_large = true;
        break;
      }
    }
    if (output.too_large) break;
  }
  if (output.timed_out || output.too_large) ::kill(pid, SIGKILL);
  for (const auto& fd : fds)
    if (fd.fd >= 0) ::close(fd.fd);
  return output;
}

/// The frames the child sent: script done, then a result or an error. For a
/// child that exited normally, the result's payload, or the error's message
/// thrown; std::nullopt when there is neither. `script_read`: whether the
/// child reported its script read.
std::optional<std::string> result_payload(const std::string& frames, int status, bool& script_read) {
  std::size_t at = 0;
  while (at + 9 <= frames.size()) {
    std::uint64_t size = 0;
    std::memcpy(&size, frames.data() + at + 1, sizeof size);
    const char tag = frames[at];
    if (size > frames.size() - at - 9) break;
    if (tag == kScriptDone) script_read = true;
    if ((tag == kResult || tag == kError) && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      std::string payload = frames.substr(at + 9, size);
      if (tag == kError) throw std::runtime_error(payload);
      return payload;
    }
    at += 9 + size;
  }
  return std::nullopt;
}

/// How a child that sent no result ended, in the message's words.
std::string how_gmsh_ended(const ChildOutput& output, int status, const rusage& usage, bool script_read,
                           const GmshLimits& limits) {
  const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                     1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  char seconds[64];
  if (output.too_large)
    return "Gmsh's result is larger than the " + format_bytes(output.result_budget) + " of memory available";
  if (output.timed_out) {
    std::snprintf(seconds, sizeof seconds, "%.0f", 3.0 * limits.total_cpu_seconds + 10.0);
    return std::string("Gmsh did not finish within ") + seconds + " s of wall-clock time";
  }
  if (WIFSIGNALED(status) &&
      (WTERMSIG(status) == SIGXCPU || (WTERMSIG(status) == SIGKILL && cpu >= limits.script_cpu_seconds))) {
    const double limit = script_read ? limits.total_cpu_seconds : limits.script_cpu_seconds;
    std::snprintf(seconds, sizeof seconds, "%g", limit);
    return script_read ? std::string("Gmsh used more than ") + seconds +
                             " s of CPU time meshing (is the element size too small for the geometry? "
                             "--gmsh-cpu-limit raises the limit)"
                       : std::string("the script used more than ") + seconds +
                             " s of CPU time while Gmsh read it (a loop that does not end, or one too long for a "
                             "geometry)";
  }
  if (WIFSIGNALED(status))
    return "Gmsh stopped with " + signal_name(WTERMSIG(status)) +
           (WTERMSIG(status) == SIGABRT ? " (an error inside one of its parallel regions, or memory exhausted)" : "");
  return "Gmsh ended the process (exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
         ") without a result";
}

}  // namespace

void GmshChannel::script_done() {
  set_cpu_limit(total_cpu_seconds_, total_cpu_seconds_ + 1);
  send(kScriptDone, "");
}

void GmshChannel::send(char tag, const std::string& payload) {
  const std::uint64_t size = payload.size();
  char header[9];
  header[0] = tag;
  std::memcpy(header + 1, &size, sizeof size);
  write_all(fd_, header, sizeof header);
  write_all(fd_, payload.data(), payload.size());
}

std::string run_gmsh_process(const std::string& context, const GmshLimits& limits, bool requires_confinement,
                             const std::function<std::string(GmshChannel&)>& work) {
  int result_pipe[2], log_pipe[2];
  if (::pipe2(result_pipe, O_CLOEXEC) != 0) throw std::runtime_error(context + ": cannot make a pipe for Gmsh");
  if (::pipe2(log_pipe, O_CLOEXEC) != 0) {
    ::close(result_pipe[0]), ::close(result_pipe[1]);
    throw std::runtime_error(context + ": cannot make a pipe for Gmsh");
  }
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(result_pipe[0]);
    ::close(log_pipe[0]);
    prepare_child(log_pipe[1], limits);
    GmshChannel channel(result_pipe[1], limits.total_cpu_seconds);
    const auto [tag, payload] = child_frame(channel, context, requires_confinement, work);
    channel.send(tag, payload);
    std::cout.flush();
    std::fflush(nullptr);
    ::_exit(0);
  }
  ::close(result_pipe[1]);
  ::close(log_pipe[1]);
  if (pid < 0) {
    ::close(result_pipe[0]), ::close(log_pipe[0]);
    throw std::runtime_error(context + ": cannot start a process for Gmsh: " + std::strerror(errno));
  }
  const ChildOutput output = collect_child_output(pid, result_pipe[0], log_pipe[0], limits);
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }
  bool script_read = false;
  if (auto payload = result_payload(output.frames, status, script_read)) return std::move(*payload);
  throw std::runtime_error(context + ": " + how_gmsh_ended(output, status, usage, script_read, limits) +
                           error_lines(output.log));
}

}  // namespace geobem::surface

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
#include <sstream>
#include <stdexcept>
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
    char tag = kError;
    std::string payload;
    try {
      if (!confine() && requires_confinement)
        throw std::runtime_error(context + ": cannot confine Gmsh: the kernel refused the seccomp filter (" +
                                 std::strerror(errno) + ")");
      payload = work(channel);
      tag = kResult;
    } catch (const std::exception& error) {
      payload = error.what();
    } catch (...) {
      payload = context + ": Gmsh threw an exception that is not a std::exception";
    }
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

  // Read both pipes until the child closes them, within the wall-clock bound.
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration<double>(3.0 * limits.total_cpu_seconds + 10.0);
  const std::uint64_t result_budget = available_memory_bytes();
  std::string result, log;
  bool timed_out = false, too_large = false;
  pollfd fds[2] = {{result_pipe[0], POLLIN, 0}, {log_pipe[0], POLLIN, 0}};
  char buffer[1 << 16];
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      timed_out = true;
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
      std::string& into = k == 0 ? result : log;
      into.append(buffer, static_cast<std::size_t>(got));
      if (k == 1 && log.size() > 2 * kLogBytesKept) log.erase(0, log.size() - kLogBytesKept);
      if (k == 0 && result.size() > result_budget) {
        too_large = true;
        break;
      }
    }
    if (too_large) break;
  }
  if (timed_out || too_large) ::kill(pid, SIGKILL);
  for (const auto& fd : fds)
    if (fd.fd >= 0) ::close(fd.fd);
  int status = 0;
  rusage usage{};
  while (::wait4(pid, &status, 0, &usage) < 0 && errno == EINTR) {
  }

  // The frames the child sent: script done, then a result or an error.
  bool script_read = false;
  std::size_t at = 0;
  while (at + 9 <= result.size()) {
    std::uint64_t size = 0;
    std::memcpy(&size, result.data() + at + 1, sizeof size);
    const char tag = result[at];
    if (size > result.size() - at - 9) break;
    if (tag == kScriptDone) script_read = true;
    if ((tag == kResult || tag == kError) && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      std::string payload = result.substr(at + 9, size);
      if (tag == kError) throw std::runtime_error(payload);
      return payload;
    }
    at += 9 + size;
  }
  const double cpu = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                     1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
  char seconds[64];
  std::string how;
  if (too_large) {
    how = "Gmsh's result is larger than the " + format_bytes(result_budget) + " of memory available";
  } else if (timed_out) {
    std::snprintf(seconds, sizeof seconds, "%.0f", 3.0 * limits.total_cpu_seconds + 10.0);
    how = std::string("Gmsh did not finish within ") + seconds + " s of wall-clock time";
  } else if (WIFSIGNALED(status) && (WTERMSIG(status) == SIGXCPU ||
                                     (WTERMSIG(status) == SIGKILL && cpu >= limits.script_cpu_seconds))) {
    const double limit = script_read ? limits.total_cpu_seconds : limits.script_cpu_seconds;
    std::snprintf(seconds, sizeof seconds, "%g", limit);
    how = script_read ? std::string("Gmsh used more than ") + seconds +
                            " s of CPU time meshing (is the element size too small for the geometry? "
                            "--gmsh-cpu-limit raises the limit)"
                      : std::string("the script used more than ") + seconds +
                            " s of CPU time while Gmsh read it (a loop that does not end, or one too long for a "
                            "geometry)";
  } else if (WIFSIGNALED(status)) {
    how = "Gmsh stopped with " + signal_name(WTERMSIG(status)) +
          (WTERMSIG(status) == SIGABRT ? " (an error inside one of its parallel regions, or memory exhausted)" : "");
  } else {
    how = "Gmsh ended the process (exit status " + std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
          ") without a result";
  }
  throw std::runtime_error(context + ": " + how + error_lines(log));
}

}  // namespace geobem::surface

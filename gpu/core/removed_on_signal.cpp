#include "gpu/core/removed_on_signal.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>

namespace geobem {

namespace {

// A slot's life: free → filling (the registering thread writes the path) →
// active → free again on release, or → claimed by a handler that removes it.
// Only a thread that moved a slot out of `free` writes its path, and a handler
// reads only slots it moved from `active` to `claimed`, so no path is read
// while it is written.
enum SlotState : int { free_slot, filling, active, claimed };

struct Slot {
  std::atomic<int> state{free_slot};
  pid_t owner = 0;  ///< the process that registered the path
  bool only_this_file = false;
  dev_t device = 0;
  ino_t inode = 0;
  char path[PATH_MAX];
};

constexpr int slot_count = 64;
Slot slots[slot_count];

constexpr int handled_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGABRT};

// Removes `name` in the folder open as `folder`, a folder with its contents
// (at most `depth` levels more), without following symbolic links. System
// calls only: this runs inside a signal handler.
void remove_entry(int folder, const char* name, int depth) {
  if (::unlinkat(folder, name, 0) == 0 || (errno != EISDIR && errno != EPERM)) return;
  if (depth <= 0) return;
  const int inner = ::openat(folder, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (inner < 0) return;
  // getdents64 records: inode (8), offset (8), record length (2), type (1), name.
  alignas(8) char buffer[4096];
  for (int pass = 0; pass < 64; ++pass) {  // entries removed while reading may hide others: read again
    ::lseek(inner, 0, SEEK_SET);
    bool removed_any = false;
    for (;;) {
      const long got = ::syscall(SYS_getdents64, inner, buffer, sizeof buffer);
      if (got <= 0) break;
      for (long at = 0; at < got;) {
        unsigned short length;
        std::memcpy(&length, buffer + at + 16, sizeof length);
        const char* entry = buffer + at + 19;
        at += length;
        if (entry[0] == '.' && (entry[1] == '\0' || (entry[1] == '.' && entry[2] == '\0'))) continue;
        remove_entry(inner, entry, depth - 1);
        removed_any = true;
      }
    }
    if (!removed_any) break;
  }
  ::close(inner);
  ::unlinkat(folder, name, AT_REMOVEDIR);
}

void remove_slot(Slot& slot) {
  if (slot.only_this_file) {
    struct stat now;
    if (::lstat(slot.path, &now) != 0 || now.st_dev != slot.device || now.st_ino != slot.inode) return;
  }
  remove_entry(AT_FDCWD, slot.path, 8);  // staging folders hold files one or two folders deep
}

extern "C" void remove_registered_paths(int signal_number) {
  const int saved_errno = errno;
  // A child forked without exec (Gmsh's) inherits this handler and the
  // slots: the paths are its parent's, never its own to remove.
  const pid_t self = ::getpid();
  // Lock files last: while a run's temporaries are being removed, its lock
  // keeps the next run out.
  for (const bool locks : {false, true})
    for (Slot& slot : slots) {
      if (slot.only_this_file != locks || slot.owner != self) continue;
      int expected = active;
      if (slot.state.compare_exchange_strong(expected, claimed)) remove_slot(slot);
    }
  errno = saved_errno;
  // The signal's own action now: it is blocked while this handler runs, so
  // it ends the process as soon as the handler returns.
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  ::sigemptyset(&default_action.sa_mask);
  ::sigaction(signal_number, &default_action, nullptr);
  ::raise(signal_number);
}

void install_handlers() {
  for (const int signal_number : handled_signals) {
    struct sigaction current {};
    if (::sigaction(signal_number, nullptr, &current) != 0) continue;
    const bool is_default = !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL;
    if (!is_default) continue;
    struct sigaction action {};
    action.sa_handler = remove_registered_paths;
    ::sigfillset(&action.sa_mask);  // one handler at a time per thread
    ::sigaction(signal_number, &action, nullptr);
  }
}

}  // namespace

RemovedOnSignal::RemovedOnSignal(const std::filesystem::path& path, bool only_this_file) {
  static std::once_flag installed;
  std::call_once(installed, install_handlers);
  std::error_code error;
  const std::string absolute = std::filesystem::absolute(path, error).string();
  if (error || absolute.size() >= PATH_MAX) return;
  struct stat identity {};
  if (only_this_file && ::lstat(absolute.c_str(), &identity) != 0) return;
  for (int s = 0; s < slot_count; ++s) {
    int expected = free_slot;
    if (!slots[s].state.compare_exchange_strong(expected, filling)) continue;
    std::memcpy(slots[s].path, absolute.c_str(), absolute.size() + 1);
    slots[s].owner = ::getpid();
    slots[s].only_this_file = only_this_file;
    slots[s].device = identity.st_dev;
    slots[s].inode = identity.st_ino;
    slots[s].state.store(active);
    slot_ = s;
    return;
  }
}

RemovedOnSignal& RemovedOnSignal::operator=(RemovedOnSignal&& other) noexcept {
  if (this != &other) {
    release();
    slot_ = other.slot_;
    other.slot_ = -1;
  }
  return *this;
}

void RemovedOnSignal::release() {
  if (slot_ < 0) return;
  int expected = active;
  // Fails only when a handler claimed it: the process is ending.
  slots[slot_].state.compare_exchange_strong(expected, free_slot);
  slot_ = -1;
}

}  // namespace geobem

#include "mesh/io/output_set.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "gpu/core/atomic_file.hpp"
#include "gpu/core/usage_error.hpp"

namespace fs = std::filesystem;

namespace geobem {

namespace {

std::string system_message() { return std::strerror(errno); }

/// Is process `pid` still running? (EPERM: it runs under another user.)
bool process_alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

/// The pid in a temporary's name "PREFIX<pid>-...", or 0.
long pid_after(const std::string& name, const std::string& prefix) {
  if (name.compare(0, prefix.size(), prefix) != 0) return 0;
  try {
    return std::stol(name.substr(prefix.size()));
  } catch (const std::exception&) {
    return 0;
  }
}

/// Removes the `.NAME.partial-PID-N...` temporaries (AtomicFile) of dead
/// processes in `folder`.
void remove_dead_partials(const fs::path& folder) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const std::string name = entry.path().filename().string();
    const auto at = name.find(".partial-");
    if (name.empty() || name[0] != '.' || at == std::string::npos) continue;
    const long pid = pid_after(name.substr(at), ".partial-");
    if (pid > 0 && !process_alive(pid)) fs::remove_all(entry.path(), error);
  }
}

/// `path` without a trailing separator ("out/" -> "out"); '.' and '..' refused.
fs::path checked_output(fs::path path) {
  while (!path.empty() && !path.has_filename()) path = path.parent_path();
  if (path.empty() || path.filename() == "." || path.filename() == "..")
    throw UsageError("output '" + path.string() + "': name a folder or file, not '.' or '..'");
  return path;
}

/// The folder that holds `path` ("." for a bare name).
fs::path parent_of(const fs::path& path) { return path.has_parent_path() ? path.parent_path() : fs::path("."); }

std::string staging_prefix(const fs::path& destination) { return "." + destination.filename().string() + ".staging-"; }
std::string previous_prefix(const fs::path& destination) {
  return "." + destination.filename().string() + ".previous-";
}

fs::path lock_path_for(const fs::path& destination) {
  return parent_of(destination) / ("." + destination.filename().string() + ".lock");
}

void create_folder(const fs::path& folder) {
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) throw std::runtime_error("cannot create the output folder '" + folder.string() + "': " + error.message());
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw std::runtime_error("the output folder '" + folder.string() + "' is not writable: " + system_message());
}

void write_whole_text(const fs::path& path, const std::string& text) {
  std::ofstream stream(path, std::ios::binary);
  if (!stream) throw std::runtime_error("cannot open '" + path.string() + "' for writing");
  stream << text;
  stream.flush();
  if (!stream) throw std::runtime_error("error while writing '" + path.string() + "' (disk full?)");
}

}  // namespace

// ---------------------------------------------------------------- OutputLock

namespace {

/// Puts `file` at `path` unless something stands there: a hard link (the
/// file keeps its own name too) or, where the file system has no hard links,
/// a rename that does not replace. False with errno set (EEXIST: taken).
bool place_new(const fs::path& file, const fs::path& path) {
  if (::link(file.c_str(), path.c_str()) == 0) return true;
  if (errno != EPERM && errno != ENOTSUP && errno != EOPNOTSUPP) return false;
  return ::renameat2(AT_FDCWD, file.c_str(), AT_FDCWD, path.c_str(), RENAME_NOREPLACE) == 0;
}

/// Is the lock file open as `descriptor` held by its writer? Only writers
/// take exclusive locks, on their own file; everyone else tests with a
/// shared lock, which fails only against the writer's.
bool held_by_writer(int descriptor) {
  if (::flock(descriptor, LOCK_SH | LOCK_NB) != 0) return true;
  ::flock(descriptor, LOCK_UN);
  return false;
}

}  // namespace

// Every lock file that ever stands at `lock_path` is locked (LOCK_EX) by its
// writer before it gets there and holds that writer's pid from the start: a
// run writes its pid into a file of its own, locks it, and links it into
// place, or, when the file there is no longer held, renames it over that one
// (under `lock_path`.guard, so that two runs never both replace it). A
// refused run therefore always reads the holder's pid.
OutputLock::OutputLock(const fs::path& lock_path, const std::string& what) {
  const std::string pid = std::to_string(::getpid());
  // A `.partial-PID-N` name: what a run killed here leaves, the next one removes.
  const fs::path mine = lock_path.string() + ".partial-" + unique_process_suffix();
  const fs::path guard_path = lock_path.string() + ".guard";
  // Throws `message` after closing and removing this run's file.
  const auto fail = [&](const std::string& message) {
    if (descriptor_ >= 0) ::close(descriptor_);
    descriptor_ = -1;
    ::unlink(mine.c_str());
    throw std::runtime_error(message);
  };
  descriptor_ = ::open(mine.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (descriptor_ < 0) fail("cannot create the lock file '" + lock_path.string() + "': " + system_message());
  if (::write(descriptor_, pid.data(), pid.size()) != static_cast<ssize_t>(pid.size()) ||
      ::flock(descriptor_, LOCK_EX | LOCK_NB) != 0)
    fail("cannot write the lock file '" + mine.string() + "': " + system_message());
  for (;;) {
    if (place_new(mine, lock_path)) {
      ::unlink(mine.c_str());  // placed: the lock file is ours
      return;
    }
    if (errno != EEXIST) fail("cannot create the lock file '" + lock_path.string() + "': " + system_message());
    const int theirs = ::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC);
    if (theirs < 0) {
      if (errno == ENOENT) continue;  // removed meanwhile: place ours again
      fail("cannot open the lock file '" + lock_path.string() + "': " + system_message());
    }
    if (held_by_writer(theirs)) {
      char holder[32] = {0};
      const ssize_t got = ::pread(theirs, holder, sizeof holder - 1, 0);
      ::close(theirs);
      fail(what + " is being written by another run" +
           (got > 0 ? " (pid " + std::string(holder, static_cast<std::size_t>(got)) + ")" : "") +
           "; wait for it to finish or choose another output (lock: " + lock_path.string() + ")");
    }
    ::close(theirs);
    // Its writer is gone: replace it, unless another run did so first.
    const int guard = ::open(guard_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (guard < 0 || ::flock(guard, LOCK_EX) != 0) {
      const std::string reason = system_message();
      if (guard >= 0) ::close(guard);
      fail("cannot lock '" + guard_path.string() + "': " + reason);
    }
    const int current = ::open(lock_path.c_str(), O_RDONLY | O_CLOEXEC);
    bool replaced = false;
    std::string failure;
    if (current >= 0) {
      if (!held_by_writer(current)) {
        replaced = ::rename(mine.c_str(), lock_path.c_str()) == 0;
        if (!replaced) failure = "cannot replace the lock file '" + lock_path.string() + "': " + system_message();
      }
      ::close(current);
    } else if (errno != ENOENT) {
      failure = "cannot open the lock file '" + lock_path.string() + "': " + system_message();
    }
    ::close(guard);  // releases the guard
    if (replaced) return;
    if (!failure.empty()) fail(failure);
    // Another run replaced it first (or it was removed): look again.
  }
}

OutputLock::~OutputLock() {
  if (descriptor_ >= 0) ::close(descriptor_);  // releases the flock
}

// ----------------------------------------------------------------- OutputSet

std::string OutputSet::record_name_for(const std::string& stage) {
  std::string name = stage;
  for (char& c : name)
    if (c == ' ' || c == '/') c = '-';
  return name + ".ini";
}

namespace {

/// Takes the lock of `destination` (after creating its parent folder).
fs::path locked_parent(const fs::path& destination) {
  create_folder(parent_of(destination));
  return lock_path_for(destination);
}

/// Puts back an earlier set moved aside by a run killed between the two
/// renames of the fallback commit, and removes what other dead runs left.
void clean_after_dead_runs(const fs::path& destination) {
  const fs::path parent = parent_of(destination);
  const std::string staging = staging_prefix(destination), previous = previous_prefix(destination);
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(parent)) {
    const std::string name = entry.path().filename().string();
    if (name.compare(0, previous.size(), previous) == 0) {
      if (!fs::exists(destination))
        fs::rename(entry.path(), destination);
      else
        fs::remove_all(entry.path(), error);
    } else if (name.compare(0, staging.size(), staging) == 0) {
      // The lock is ours: no live run owns a staging folder of this set.
      fs::remove_all(entry.path(), error);
    }
  }
  remove_dead_partials(parent);
}

}  // namespace

OutputSet::OutputSet(fs::path destination, std::string stage)
    : destination_(checked_output(std::move(destination))),
      stage_(std::move(stage)),
      lock_(locked_parent(destination_), "the output folder '" + destination_.string() + "'") {
  clean_after_dead_runs(destination_);
  if (fs::exists(destination_)) {
    if (!fs::is_directory(destination_))
      throw UsageError("the output '" + destination_.string() + "' exists and is not a folder");
    const bool empty = fs::is_empty(destination_);
    if (!empty && !fs::exists(destination_ / record_name()))
      throw UsageError("the output folder '" + destination_.string() + "' holds files that are not a " + stage_ +
                       " output set (no " + record_name() +
                       "); a run replaces its folder whole, so give a new or empty folder");
  }
  staging_ = parent_of(destination_) / (staging_prefix(destination_) + unique_process_suffix());
  std::error_code error;
  fs::create_directory(staging_, error);
  if (error)
    throw std::runtime_error("cannot create a folder beside '" + destination_.string() + "': " + error.message());
}

OutputSet::~OutputSet() {
  if (!committed_) {
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
  }
}

void OutputSet::write_record(const std::string& ini_text) { write_whole_text(path(record_name()), ini_text); }

void OutputSet::commit() {
  if (!fs::exists(path(record_name())))
    throw std::logic_error(stage_ + ": the output set has no " + record_name() + " (write_record first)");
  if (!fs::exists(destination_)) {
    if (std::rename(staging_.c_str(), destination_.c_str()) != 0)
      throw std::runtime_error("cannot move the new output set into '" + destination_.string() +
                               "': " + system_message());
  } else if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, destination_.c_str(), RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
      throw std::runtime_error("cannot exchange the new output set with '" + destination_.string() +
                               "': " + system_message());
    // No atomic exchange on this file system: move the earlier set aside,
    // then the new one in; a run killed in between leaves the earlier set
    // under a `.previous-` name, which the next run puts back.
    const fs::path aside = parent_of(destination_) / (previous_prefix(destination_) + std::to_string(::getpid()));
    if (std::rename(destination_.c_str(), aside.c_str()) != 0)
      throw std::runtime_error("cannot move the earlier output set '" + destination_.string() +
                               "' aside: " + system_message());
    if (std::rename(staging_.c_str(), destination_.c_str()) != 0) {
      const std::string message = system_message();
      std::rename(aside.c_str(), destination_.c_str());
      throw std::runtime_error("cannot move the new output set into '" + destination_.string() + "': " + message);
    }
    staging_ = aside;  // the earlier set, removed below
  }
  committed_ = true;
  // The staging name now holds the earlier set; a kill while removing it
  // leaves a stale staging folder that the next run removes.
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

// ---------------------------------------------------------------- OutputFile

OutputFile::OutputFile(fs::path path)
    : result_(checked_output(std::move(path))),
      record_(fs::path(result_.final_path().string() + ".ini")),
      lock_(locked_parent(result_.final_path()), "the output file '" + result_.final_path().string() + "'") {
  if (fs::is_directory(final_path()))
    throw UsageError("the output '" + final_path().string() + "' is a folder, not a file");
  remove_dead_partials(parent_of(final_path()));
}

void OutputFile::write_result(const std::function<void(std::ostream&)>& write) { result_.write(write); }

void OutputFile::write_record(const std::string& ini_text) {
  record_.write([&](std::ostream& stream) { stream << ini_text; });
}

void OutputFile::commit() {
  if (!fs::exists(temporary_path()))
    throw std::logic_error("the result '" + final_path().string() + "' was not written");
  if (fs::exists(record_.temporary_path())) record_.commit();
  result_.commit();
}

}  // namespace geobem

#include "mesh/io/output_set.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <system_error>
#include <thread>
#include <vector>

#include "gpu/core/atomic_file.hpp"
#include "gpu/core/input_error.hpp"

namespace fs = std::filesystem;

namespace geobem {

namespace {

std::string system_message() { return std::strerror(errno); }

/// Is process `pid` still running? (EPERM: it runs under another user.)
bool process_alive(long pid) { return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM); }

/// The pid that starts `text` ("PID-..." or "PID"), or 0.
long leading_pid(const std::string& text) {
  long pid = 0;
  std::size_t k = 0;
  for (; k < text.size() && k < 10 && text[k] >= '0' && text[k] <= '9'; ++k) pid = 10 * pid + (text[k] - '0');
  return k > 0 && (k == text.size() || text[k] == '-') ? pid : 0;
}

/// Is `entry` (not followed if a link) of this user and of the given type?
/// Only such entries are ever taken for a dead run's leftovers.
bool ours(const fs::path& entry, mode_t type) {
  struct stat status;
  return ::lstat(entry.c_str(), &status) == 0 && (status.st_mode & S_IFMT) == type && status.st_uid == ::geteuid();
}

/// The folder that holds `path` ("." for a bare name).
fs::path parent_of(const fs::path& path) { return path.has_parent_path() ? path.parent_path() : fs::path("."); }

std::string hidden_prefix(const fs::path& destination, const char* kind) {
  return "." + destination.filename().string() + kind;
}

fs::path lock_path_for(const fs::path& destination) {
  return parent_of(destination) / ("." + destination.filename().string() + ".lock");
}

/// The destination an output option names, checked before any work:
/// trailing separators dropped ("out/" is "out"), `/`, `//`, `.` and `..`
/// refused, a symbolic link followed to what it names (refused when that is
/// missing), and for a folder a mount point refused (its contents cannot be
/// exchanged with a folder beside it).
fs::path resolved_output(fs::path path, bool folder) {
  const std::string given = path.string();
  while (!path.empty() && !path.has_filename() && path.has_relative_path()) path = path.parent_path();
  if (path.empty() || !path.has_filename())
    throw InputError::usage("output '" + given + "': " +
                            (path.empty() ? std::string("empty")
                                          : "the root folder cannot be replaced by an output set") +
                            "; name a folder or file of its own");
  if (path.filename() == "." || path.filename() == "..")
    throw InputError::usage("output '" + given + "': name a folder or file, not '.' or '..'");
  struct stat status;
  if (::lstat(path.c_str(), &status) == 0 && S_ISLNK(status.st_mode)) {
    std::error_code error;
    const fs::path target = fs::canonical(path, error);
    if (error)
      throw InputError::usage("output '" + given + "' is a symbolic link to nothing that exists (" + error.message() +
                              "); create what it points to, or name another output");
    if (!target.has_filename()) throw InputError::usage("output '" + given + "' is a symbolic link to the root folder");
    path = target;
  }
  if (::stat(path.c_str(), &status) != 0) return path;
  if (folder) {
    if (!S_ISDIR(status.st_mode))
      throw InputError::usage("the output '" + path.string() + "' exists and is not a folder");
    struct stat above;
    if (::stat(parent_of(path).c_str(), &above) == 0 &&
        (above.st_dev != status.st_dev || above.st_ino == status.st_ino))
      throw InputError::usage("the output folder '" + path.string() +
                              "' is a mount point: a run replaces its output folder whole, which a mount point "
                              "cannot be; name a folder inside it");
  } else if (S_ISDIR(status.st_mode)) {
    throw InputError::usage("the output '" + path.string() + "' is a folder, not a file");
  } else if (!S_ISREG(status.st_mode)) {
    throw InputError::usage("the output '" + path.string() +
                            "' exists and is not a regular file (a FIFO, device or socket)");
  }
  return path;
}

void create_folder(const fs::path& folder) {
  std::error_code error;
  fs::create_directories(folder, error);
  if (error) throw std::runtime_error("cannot create the output folder '" + folder.string() + "': " + error.message());
  if (::access(folder.c_str(), W_OK | X_OK) != 0)
    throw std::runtime_error("the output folder '" + folder.string() + "' is not writable: " + system_message());
}

/// Creates the parent folder of `destination` and returns its lock path.
fs::path locked_parent(const fs::path& destination) {
  create_folder(parent_of(destination));
  return lock_path_for(destination);
}

/// A new, empty folder `.NAME.staging-PID-RANDOM` beside `destination`, mode
/// 0700: created by mkdir(2), which never follows a link and fails on any
/// existing name, so the folder and what is written into it are this run's.
fs::path private_staging_folder(const fs::path& destination) {
  for (int attempt = 0; attempt < 16; ++attempt) {
    const fs::path folder =
        parent_of(destination) / (hidden_prefix(destination, ".staging-") + unique_process_suffix());
    if (::mkdir(folder.c_str(), 0700) == 0) return folder;
    if (errno != EEXIST) break;
  }
  throw std::runtime_error("cannot create a folder beside '" + destination.string() + "': " + system_message());
}

/// Removes what dead runs into `destination` left beside it: with the lock
/// held no live run owns a staging folder of it, so every `.NAME.staging-*`
/// folder of this user goes; a set that a run killed mid-commit moved aside
/// (`.NAME.previous-*`) is put back when the destination is missing;
/// temporaries of lock files (`.NAME.lock.partial-PID-*`) and of files
/// (`.NAME.partial-PID-*`) go when their process is dead (runs taking the
/// lock make them before they hold it). Entries of other users, or of
/// another type than those names stand for, are left alone.
void clean_after_dead_runs(const fs::path& destination) {
  const fs::path parent = parent_of(destination);
  const std::string staging = hidden_prefix(destination, ".staging-"),
                    previous = hidden_prefix(destination, ".previous-"),
                    lock_partial = hidden_prefix(destination, ".lock.partial-"),
                    partial = hidden_prefix(destination, ".partial-"),
                    record_partial = hidden_prefix(destination, ".ini.partial-"),
                    old_guard = hidden_prefix(destination, ".lock.guard");
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(parent, error)) {
    const std::string name = entry.path().filename().string();
    const auto starts = [&](const std::string& prefix) { return name.compare(0, prefix.size(), prefix) == 0; };
    if (starts(staging) && ours(entry.path(), S_IFDIR)) {
      fs::remove_all(entry.path(), error);
    } else if (starts(previous) && ours(entry.path(), S_IFDIR)) {
      if (!fs::exists(fs::symlink_status(destination)))
        fs::rename(entry.path(), destination, error);
      else
        fs::remove_all(entry.path(), error);
    } else if (name == old_guard && ours(entry.path(), S_IFREG)) {
      fs::remove(entry.path(), error);  // the empty guard file of earlier geobem versions' locks
    } else {
      for (const std::string* prefix : {&lock_partial, &partial, &record_partial})
        if (starts(*prefix) && ours(entry.path(), S_IFREG) && !process_alive(leading_pid(name.substr(prefix->size()))))
          fs::remove(entry.path(), error);
    }
  }
}

// ------------------------------------------------------------- the file list

struct ListedEntry {
  bool folder = false;
  std::uintmax_t bytes = 0;
};

/// A set's file list: the stage, and every entry by its path inside the set.
struct FileList {
  std::string stage;
  std::map<std::string, ListedEntry> entries;
};

/// The file list of `folder`, or std::nullopt when it has none. Throws
/// InputError::usage for a list that is not one (too large, malformed lines): the
/// folder is then not taken for a set.
std::optional<FileList> read_file_list(const fs::path& folder) {
  const fs::path path = folder / OutputSet::file_list_name;
  struct stat status;
  if (::lstat(path.c_str(), &status) != 0) return std::nullopt;
  const std::string refusal = "the output folder '" + folder.string() + "' has a " + OutputSet::file_list_name +
                              " that geobem did not write";
  // A set of a million files lists about 40 MB.
  if (!S_ISREG(status.st_mode) || status.st_size > (std::int64_t(64) << 20))
    throw InputError::usage(refusal + " (not a regular file of at most 64 MiB); give another folder");
  std::ifstream in(path, std::ios::binary);
  FileList list;
  std::string line;
  std::size_t number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (line.empty() || line[0] == '#') continue;
    const auto bad = [&] {
      return InputError::usage(refusal + " (line " + std::to_string(number) + "); give another folder");
    };
    if (line.compare(0, 6, "stage ") == 0 && list.stage.empty()) {
      list.stage = line.substr(6);
    } else if (line.compare(0, 7, "folder ") == 0) {
      list.entries[line.substr(7)] = {true, 0};
    } else if (line.compare(0, 5, "file ") == 0) {
      const auto space = line.find(' ', 5);
      if (space == std::string::npos) throw bad();
      std::uintmax_t bytes = 0;
      for (std::size_t k = 5; k < space; ++k) {
        if (line[k] < '0' || line[k] > '9' || k - 5 > 18) throw bad();
        bytes = 10 * bytes + static_cast<std::uintmax_t>(line[k] - '0');
      }
      list.entries[line.substr(space + 1)] = {false, bytes};
    } else {
      throw bad();
    }
  }
  if (list.stage.empty())
    throw InputError::usage(refusal + " (no stage line); give another folder");
  return list;
}

/// Writes the file list of the staging folder `folder` for `stage`: its
/// entries sorted by path, so that identical runs write identical bytes.
void write_file_list(const fs::path& folder, const std::string& stage) {
  std::vector<std::pair<std::string, std::string>> lines;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    const std::string relative = entry.path().lexically_relative(folder).string();
    if (relative.find('\n') != std::string::npos)
      throw std::logic_error("output set: a file name with a line break: " + relative);
    const fs::file_status status = entry.symlink_status();
    if (fs::is_directory(status))
      lines.emplace_back(relative, "folder " + relative);
    else if (fs::is_regular_file(status))
      lines.emplace_back(relative, "file " + std::to_string(fs::file_size(entry.path())) + " " + relative);
  }
  std::sort(lines.begin(), lines.end());
  write_text_file_atomically(folder / OutputSet::file_list_name, [&](std::ostream& out) {
    out << "# what a geobem run wrote into this folder; a later run replaces the folder only while it holds "
           "nothing else\nstage "
        << stage << "\n";
    for (const auto& line : lines) out << line.second << "\n";
  });
}

/// Why the existing folder `folder` is not an earlier set of `stage` that a
/// run may replace, or "" when it is one (or empty).
std::string foreign_contents(const fs::path& folder, const std::string& stage) {
  const std::string where = "the output folder '" + folder.string() + "'";
  if (fs::is_empty(folder)) return "";
  const std::optional<FileList> list = read_file_list(folder);
  if (!list)
    return where + " holds files that are not a " + stage + " output set (no " + OutputSet::file_list_name +
           " listing what a run wrote there); a run replaces its folder whole, so give a new or empty folder";
  if (list->stage != stage)
    return where + " is an output set of " + list->stage + ", not of " + stage + "; give another folder";
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(folder, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    const std::string relative = it->path().lexically_relative(folder).string();
    if (relative == OutputSet::file_list_name) continue;
    const auto listed = list->entries.find(relative);
    const fs::file_status status = it->symlink_status();
    const bool is_folder = fs::is_directory(status);
    std::string problem;
    if (listed == list->entries.end() || (!is_folder && !fs::is_regular_file(status)))
      problem = "which no " + stage + " run wrote there";
    else if (listed->second.folder != is_folder)
      problem = "which a " + stage + " run wrote as a " + (listed->second.folder ? "folder" : "file");
    else if (!is_folder && fs::file_size(it->path()) != listed->second.bytes)
      problem = "which was changed after a " + stage + " run wrote it (" + std::to_string(listed->second.bytes) +
                " bytes then, " + std::to_string(fs::file_size(it->path())) + " now)";
    if (!problem.empty())
      return where + " holds '" + relative + "', " + problem +
             "; a run replaces its folder whole, so move what you want to keep out of it or give another folder";
  }
  if (error) return where + " cannot be read through (" + error.message() + ")";
  return "";
}

/// The mode a new folder gets: 0777 less the umask (read without changing
/// it where /proc tells it).
mode_t new_folder_mode() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.compare(0, 6, "Umask:") == 0) return 0777 & ~static_cast<mode_t>(std::stoul(line.substr(6), nullptr, 8));
  const mode_t mask = ::umask(022);
  ::umask(mask);
  return 0777 & ~mask;
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

/// Does `path` name the file open as `descriptor`?
bool names_file(const fs::path& path, int descriptor) {
  struct stat at_path, open_file;
  return ::lstat(path.c_str(), &at_path) == 0 && ::fstat(descriptor, &open_file) == 0 &&
         at_path.st_dev == open_file.st_dev && at_path.st_ino == open_file.st_ino;
}

}  // namespace

// Every lock file that stands at `lock_path` is locked (LOCK_EX) by its
// writer before it gets there and holds that writer's pid from the start: a
// run writes its pid into an exclusive file of its own, locks it, and links
// it into place. When a file stands there already, the run tries to lock it
// itself: if that fails, the file's writer (alive) holds it and the run is
// refused with that pid; if it succeeds and the file is still at
// `lock_path`, its writer died without removing it, and the run renames its
// own over it while holding the dead one's lock (so two runs never both
// replace it: the second gets the dead file's lock only after the rename,
// and then sees another file at the path). A writer removes its file before
// it releases the lock, so a file at the path that nobody holds is always a
// dead run's.
OutputLock::OutputLock(const fs::path& lock_path, const std::string& what) : path_(lock_path) {
  const std::string pid = std::to_string(::getpid());
  const fs::path mine = lock_path.string() + ".partial-" + unique_process_suffix();
  // Throws `message` after closing and removing this run's file.
  const auto fail = [&](const std::string& message) {
    if (descriptor_ >= 0) ::close(descriptor_);
    descriptor_ = -1;
    ::unlink(mine.c_str());
    throw std::runtime_error(message);
  };
  descriptor_ = ::open(mine.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (descriptor_ < 0) fail("cannot create the lock file '" + lock_path.string() + "': " + system_message());
  RemovedOnSignal mine_on_signal(mine);
  if (::write(descriptor_, pid.data(), pid.size()) != static_cast<ssize_t>(pid.size()) ||
      ::flock(descriptor_, LOCK_EX | LOCK_NB) != 0)
    fail("cannot write the lock file '" + mine.string() + "': " + system_message());
  for (int attempt = 0;; ++attempt) {
    if (attempt == 10000) fail("cannot take the lock '" + lock_path.string() + "': it keeps changing");
    if (attempt > 100) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    if (place_new(mine, lock_path)) {
      ::unlink(mine.c_str());  // placed: the lock file is ours
      break;
    }
    if (errno != EEXIST) fail("cannot create the lock file '" + lock_path.string() + "': " + system_message());
    // O_NONBLOCK: a FIFO planted there opens at once (and is refused below).
    const int theirs = ::open(lock_path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (theirs < 0) {
      if (errno == ENOENT) continue;  // removed meanwhile: place ours again
      fail("cannot open the lock file '" + lock_path.string() + "': " + system_message() +
           (errno == ELOOP ? " (a symbolic link stands there, not a lock file: remove it)" : ""));
    }
    struct stat status;
    char content[24] = {0};
    const ssize_t got = ::fstat(theirs, &status) == 0 && S_ISREG(status.st_mode)
                            ? ::pread(theirs, content, sizeof content - 1, 0)
                            : -1;
    const long holder = got > 0 && static_cast<std::size_t>(got) == std::strlen(content) ? leading_pid(content) : 0;
    if (holder <= 0 || std::to_string(holder) != content) {
      ::close(theirs);
      fail("'" + lock_path.string() + "' stands where " + what +
           " keeps its lock file, but is not one (a lock file is a regular file that holds a pid): remove it if no "
           "geobem run is writing there");
    }
    if (::flock(theirs, LOCK_EX | LOCK_NB) != 0) {
      // Held: by its writer, or by a run replacing a dead writer's file.
      const bool current = names_file(lock_path, theirs);
      ::close(theirs);
      if (current && process_alive(holder))
        fail(what + " is being written by another run (pid " + std::to_string(holder) +
             "); wait for it to finish or choose another output (lock: " + lock_path.string() + ")");
      continue;
    }
    if (!names_file(lock_path, theirs)) {  // released and removed (or replaced) meanwhile
      ::close(theirs);
      continue;
    }
    // A dead run's lock file, and its lock is ours: put ours in its place.
    const bool replaced = ::rename(mine.c_str(), lock_path.c_str()) == 0;
    const std::string reason = system_message();
    ::close(theirs);
    if (!replaced) fail("cannot replace the lock file '" + lock_path.string() + "': " + reason);
    break;
  }
  on_signal_ = RemovedOnSignal(lock_path, true);
}

OutputLock::~OutputLock() {
  if (descriptor_ < 0) return;
  on_signal_.release();
  // Removed while still held, so that a file at the path nobody holds is a dead run's.
  if (names_file(path_, descriptor_)) ::unlink(path_.c_str());
  ::close(descriptor_);  // releases the flock
}

// ----------------------------------------------------------------- OutputSet

std::string OutputSet::record_name_for(const std::string& stage) {
  std::string name = stage;
  for (char& c : name)
    if (c == ' ' || c == '/') c = '-';
  return name + ".ini";
}

OutputSet::OutputSet(fs::path destination, std::string stage)
    : destination_(resolved_output(std::move(destination), true)),
      stage_(std::move(stage)),
      lock_(locked_parent(destination_), "the output folder '" + destination_.string() + "'") {
  clean_after_dead_runs(destination_);
  folder_mode_ = new_folder_mode();
  struct stat status;
  if (::stat(destination_.c_str(), &status) == 0) {
    if (!S_ISDIR(status.st_mode))
      throw InputError::usage("the output '" + destination_.string() + "' exists and is not a folder");
    const std::string foreign = foreign_contents(destination_, stage_);
    if (!foreign.empty()) throw InputError::usage(foreign);
    folder_mode_ = status.st_mode & 07777;
  }
  staging_ = private_staging_folder(destination_);
  staging_on_signal_ = RemovedOnSignal(staging_);
}

OutputSet::~OutputSet() {
  staging_on_signal_.release();
  if (!committed_ && !staging_.empty()) {
    std::error_code ignored;
    fs::remove_all(staging_, ignored);
  }
}

void OutputSet::write_record(const std::string& ini_text) {
  write_text_file_atomically(path(record_name()), [&](std::ostream& out) { out << ini_text; });
}

void OutputSet::commit() {
  if (!fs::exists(path(record_name())))
    throw std::logic_error(stage_ + ": the output set has no " + record_name() + " (write_record first)");
  write_file_list(staging_, stage_);
  if (::chmod(staging_.c_str(), folder_mode_) != 0)
    throw std::runtime_error("cannot set the permissions of '" + staging_.string() + "': " + system_message());
  struct stat status;
  if (::lstat(destination_.c_str(), &status) != 0) {
    const bool moved = ::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, destination_.c_str(), RENAME_NOREPLACE) == 0 ||
                       ((errno == EINVAL || errno == ENOSYS) && std::rename(staging_.c_str(), destination_.c_str()) == 0);
    if (!moved)
      throw std::runtime_error("cannot move the new output set into '" + destination_.string() +
                               "': " + system_message());
    committed_ = true;
    return;
  }
  // The run took minutes, perhaps: what appeared in the earlier set meanwhile is not lost.
  const std::string foreign = S_ISDIR(status.st_mode) ? foreign_contents(destination_, stage_)
                                                      : "'" + destination_.string() + "' is no longer a folder";
  if (!foreign.empty()) throw std::runtime_error("the new output set is not put in place: " + foreign);
  if (::renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, destination_.c_str(), RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP)
      throw std::runtime_error("cannot exchange the new output set with '" + destination_.string() +
                               "': " + system_message());
    // No atomic exchange on this file system: move the earlier set aside,
    // then the new one in; a run killed in between leaves the earlier set
    // under a `.previous-` name, which the next run puts back.
    const fs::path aside = parent_of(destination_) / (hidden_prefix(destination_, ".previous-") + unique_process_suffix());
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
  // leaves a staging folder that the next run removes.
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

// ---------------------------------------------------------------- OutputFile

OutputFile::OutputFile(fs::path path)
    : final_(resolved_output(std::move(path), false)),
      record_(final_.string() + ".ini"),
      lock_(locked_parent(final_), "the output file '" + final_.string() + "'") {
  clean_after_dead_runs(final_);
  staging_ = private_staging_folder(final_);
  staging_on_signal_ = RemovedOnSignal(staging_);
  temporary_ = staging_ / final_.filename();
}

OutputFile::~OutputFile() {
  staging_on_signal_.release();
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

void OutputFile::write_result(const std::function<void(std::ostream&)>& write) {
  write_text_file_atomically(temporary_, write);
}

void OutputFile::write_record(const std::string& ini_text) {
  write_text_file_atomically(staging_ / record_.filename(), [&](std::ostream& stream) { stream << ini_text; });
}

void OutputFile::commit() {
  if (!fs::exists(temporary_)) throw std::logic_error("the result '" + final_.string() + "' was not written");
  const fs::path staged_record = staging_ / record_.filename();
  if (fs::exists(staged_record) && std::rename(staged_record.c_str(), record_.c_str()) != 0)
    throw std::runtime_error("cannot rename '" + staged_record.string() + "' to '" + record_.string() +
                             "': " + system_message());
  if (std::rename(temporary_.c_str(), final_.c_str()) != 0)
    throw std::runtime_error("cannot rename '" + temporary_.string() + "' to '" + final_.string() +
                             "': " + system_message());
}

}  // namespace geobem

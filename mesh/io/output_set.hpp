#pragma once
// The files one stage run writes, replaced as a unit (docs/stage_contract.md,
// "Output sets"). Two shapes:
//
//   OutputSet   a folder the stage owns (geobem-model --out DIR). The run
//               writes every file into a private staging folder beside DIR
//               and commit() exchanges it with DIR in one rename(2): readers
//               see the whole old set or the whole new one, never a mix, and
//               files of the earlier run that this run does not write are
//               gone. The set lists what it holds in DIR/.geobem-output-set;
//               a later run replaces DIR only when everything in it is on
//               that list (nothing the tool did not write is deleted).
//   OutputFile  one result file (geobem-integrate --output FILE.csv), written
//               in a private staging folder beside it and renamed over FILE;
//               the effective options go beside it as FILE.ini.
//
// Both hold an exclusive lock (flock(2) on `.NAME.lock` beside the
// destination) for the whole run, so a second run into the same destination
// is refused with a message naming the holder; the kernel drops the lock when
// its process dies, even by kill -9, and the run removes the lock file when
// it ends. Staging folders are created exclusively (mkdir(2) of an
// unpredictable name, mode 0700 until the commit), so nobody else can plant a
// file or link inside one. With the lock held, what dead runs left (staging
// folders, a set moved aside, temporaries) is recognised by its name and
// owner and removed. A SIGINT, SIGTERM, SIGHUP or SIGABRT removes the run's
// staging folder and lock file before the signal ends it (RemovedOnSignal).
//
// What this guards against is the death of the process (kill, crash, a write
// that fails on a full disk). Files are not fsync'ed: after a power cut or a
// kernel crash the file system decides what survives.
#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "gpu/core/atomic_file.hpp"
#include "gpu/core/removed_on_signal.hpp"

namespace geobem {

/// Exclusive, non-blocking lock on `lock_path`, a file that holds the
/// holder's pid while it holds it and is removed when the lock is released
/// (a run killed by SIGKILL leaves it; the next run recognises it by its
/// content, a pid no process holds the lock for, and takes it over). Throws
/// std::runtime_error "WHAT is being written by another run (pid N)" when
/// another process or object holds it, or naming the path when it cannot be
/// created (a missing or read-only folder) or something other than a lock
/// file stands there (a FIFO, a link, a file that holds no pid).
class OutputLock {
 public:
  OutputLock(const std::filesystem::path& lock_path, const std::string& what);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  std::filesystem::path path_;
  int descriptor_ = -1;
  RemovedOnSignal on_signal_;
};

/// A stage's output folder, replaced as a unit.
class OutputSet {
 public:
  /// Prepares a run into `destination` for the stage named `stage` (e.g.
  /// "geobem-model"; its effective options are `record_name()` inside the
  /// set): creates the parent folder, takes the lock, cleans what dead runs
  /// left, and creates an empty private staging folder. A symbolic link is
  /// followed (the set goes where it points; the link stays). Throws
  /// InputError::usage, before any work, for `/`, `.`, `..`, a mount point,
  /// a link to nothing, a destination that is not a folder, or a folder that
  /// holds anything its file list (file_list_name) does not name with the
  /// same type and size, or the list of another stage (it would be replaced
  /// whole); std::runtime_error naming the folder when it cannot be written.
  OutputSet(std::filesystem::path destination, std::string stage);
  /// Removes the staging folder unless commit() succeeded.
  ~OutputSet();
  OutputSet(const OutputSet&) = delete;
  OutputSet& operator=(const OutputSet&) = delete;

  /// Where the run writes `name` now (inside the staging folder; subfolders
  /// are the caller's to create).
  std::filesystem::path path(const std::string& name) const { return staging_ / name; }
  /// The staging folder itself, for writers that take a folder.
  const std::filesystem::path& staging_folder() const { return staging_; }
  /// The folder the set ends up in, for messages ("wrote DIR/model.vtu").
  const std::filesystem::path& destination() const { return destination_; }
  /// "STAGE.ini": the file that records the run's effective options.
  std::string record_name() const { return record_name_for(stage_); }
  static std::string record_name_for(const std::string& stage);
  /// The list of what a set holds, written by commit() into the set:
  /// a `stage NAME` line, then `folder PATH` and `file BYTES PATH` lines.
  static constexpr const char* file_list_name = ".geobem-output-set";

  /// Writes the effective options record (record_name()) into the set.
  void write_record(const std::string& ini_text);
  /// Writes the file list, gives the staging folder the destination's
  /// permissions (an earlier set's, else 0777 less the umask), checks the
  /// destination again (files that appeared in it during the run are not
  /// lost), then puts the staged set in place of the destination in one step
  /// (renameat2 RENAME_EXCHANGE; where the file system lacks it, two renames
  /// that the next run repairs) and removes the earlier set. Throws
  /// std::runtime_error when the record is missing or a step fails; the
  /// earlier set is then still in place.
  void commit();

 private:
  std::filesystem::path destination_, staging_;
  std::string stage_;
  OutputLock lock_;
  RemovedOnSignal staging_on_signal_;
  mode_t folder_mode_ = 0755;
  bool committed_ = false;
};

/// One result file with its effective options beside it (PATH.ini).
class OutputFile {
 public:
  /// Prepares a run writing `path`: creates the parent folder, takes the
  /// lock, removes dead runs' temporaries there, creates a private staging
  /// folder. A symbolic link is followed (the file is written where it
  /// points). Throws InputError::usage for a path that names a folder, a
  /// FIFO or another non-regular file, and std::runtime_error naming the
  /// folder when it cannot be created or written, before any work.
  explicit OutputFile(std::filesystem::path path);
  /// Removes the staging folder (and what it holds) unless commit() succeeded.
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Where to write the result now (same file name, in the staging folder),
  /// for writers that take a path.
  const std::filesystem::path& temporary_path() const { return temporary_; }
  const std::filesystem::path& final_path() const { return final_; }
  /// PATH.ini, the effective options of the run that wrote PATH.
  const std::filesystem::path& record_path() const { return record_; }
  /// Stages the result: `write` fills the stream. Throws std::runtime_error
  /// naming the file when it cannot be written (a full disk included).
  void write_result(const std::function<void(std::ostream&)>& write);
  /// Stages the effective options record.
  void write_record(const std::string& ini_text);
  /// Renames the record, then the result, into place. A kill between the
  /// two renames leaves the new record beside the earlier result (each file
  /// whole).
  void commit();

 private:
  std::filesystem::path final_, record_, staging_, temporary_;
  OutputLock lock_;
  RemovedOnSignal staging_on_signal_;
};

}  // namespace geobem

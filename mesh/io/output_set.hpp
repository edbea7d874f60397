#pragma once
// The files one stage run writes, replaced as a unit (docs/stage_contract.md,
// "Output sets"). Two shapes:
//
//   OutputSet   a folder the stage owns (geobem-model --out DIR). The run
//               writes every file into a fresh staging folder beside DIR and
//               commit() exchanges it with DIR in one rename(2): readers see
//               the whole old set or the whole new one, never a mix, and files
//               of the earlier run that this run does not write are gone.
//   OutputFile  one result file (geobem-integrate --output FILE.csv), written
//               under a temporary name and renamed over FILE; the effective
//               options go beside it as FILE.ini.
//
// Both hold an exclusive lock (flock(2) on a `.NAME.lock` file beside the
// destination) for the whole run, so a second run into the same destination
// is refused with a message naming the holder; the kernel drops the lock when
// its process dies, even by kill -9. With the lock held, temporaries left by
// dead runs (staging folders, `.partial-PID-N` files) are removed.
//
// What this guards against is the death of the process (kill, crash, a write
// that fails on a full disk). Files are not fsync'ed: after a power cut or a
// kernel crash the file system decides what survives.
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "gpu/core/atomic_file.hpp"

namespace geobem {

/// Exclusive, non-blocking lock on `lock_path`, a file that holds the
/// holder's pid (left in place after the run; a later run replaces it).
/// Throws std::runtime_error "WHAT is being written by another run (pid N)"
/// when another process or object holds it, or naming the path when it
/// cannot be created (a missing or read-only folder).
class OutputLock {
 public:
  OutputLock(const std::filesystem::path& lock_path, const std::string& what);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

 private:
  int descriptor_ = -1;
};

/// A stage's output folder, replaced as a unit.
class OutputSet {
 public:
  /// Prepares a run into `destination` for the stage named `stage` (e.g.
  /// "geobem-model"; its effective options are `record_name()` inside the
  /// set): creates the parent folder, takes the lock, cleans what dead runs
  /// left, and creates an empty staging folder. Throws geobem::UsageError
  /// when `destination` exists but is not a folder, or holds files and is not
  /// an earlier output set of the same stage (it would be replaced whole);
  /// std::runtime_error naming the folder when it cannot be written.
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
  /// "STAGE.ini": the file that records the run's effective options and marks
  /// the folder as this stage's set.
  std::string record_name() const { return record_name_for(stage_); }
  static std::string record_name_for(const std::string& stage);

  /// Writes the effective options record (record_name()) into the set.
  void write_record(const std::string& ini_text);
  /// Puts the staged set in place of
  /// the destination in one step (renameat2 RENAME_EXCHANGE; where the file
  /// system lacks it, two renames that the next run repairs) and removes the
  /// earlier set. Throws std::runtime_error when the record is missing or a
  /// step fails; the earlier set is then still in place.
  void commit();

 private:
  std::filesystem::path destination_, staging_;
  std::string stage_;
  OutputLock lock_;
  bool committed_ = false;
};

/// One result file with its effective options beside it (PATH.ini).
class OutputFile {
 public:
  /// Prepares a run writing `path`: creates the parent folder, takes the
  /// lock, removes dead runs' temporaries there. Throws std::runtime_error
  /// naming the folder when it cannot be created or written, before any work.
  explicit OutputFile(std::filesystem::path path);

  /// Where to write the result now (a temporary beside it, same extension).
  const std::filesystem::path& temporary_path() const { return result_.temporary_path(); }
  const std::filesystem::path& final_path() const { return result_.final_path(); }
  /// PATH.ini, the effective options of the run that wrote PATH.
  const std::filesystem::path& record_path() const { return record_.final_path(); }
  /// Stages the result: `write` fills the stream. Throws std::runtime_error
  /// naming the file when it cannot be written (a full disk included).
  void write_result(const std::function<void(std::ostream&)>& write);
  /// Stages the effective options record.
  void write_record(const std::string& ini_text);
  /// Renames the record, then the result, into place. A kill between the two renames leaves the new record beside the
  /// earlier result (each file whole). Uncommitted temporaries are removed
  /// on destruction.
  void commit();

 private:
  AtomicFile result_, record_;
  OutputLock lock_;
};

}  // namespace geobem

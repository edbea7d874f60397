#pragma once
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

#include "gpu/core/removed_on_signal.hpp"

namespace geobem {

/// A file written under a temporary name in the final file's folder and
/// renamed over the final name by commit() (docs/design.md#file-formats): an
/// interrupted or failed write never leaves a truncated file under the final
/// name, and an existing file is replaced only by a complete one.
///
/// The temporary is `.NAME.partial-PID-RANDOM` (exclusive_temporary_name),
/// created with O_CREAT|O_EXCL|O_NOFOLLOW: a file or symbolic link planted
/// under a guessed name makes the creation fail instead of being followed or
/// truncated, and the rename replaces a link at the final name, never its
/// target. The destructor removes the temporary if commit() was not reached,
/// and so does a SIGINT, SIGTERM, SIGHUP or SIGABRT (RemovedOnSignal).
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path final_path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  const std::filesystem::path& final_path() const { return final_; }
  /// Creates the temporary (binary: the bytes `fill` puts are the file's)
  /// and lets `fill` write it through its open descriptor. Throws
  /// std::runtime_error naming the folder when no temporary can be created,
  /// or the final path when a write fails (a full disk included); the
  /// temporary is then removed at once.
  void write(const std::function<void(std::ostream&)>& fill);
  /// Renames the temporary over the final path; throws std::runtime_error
  /// naming both paths if write() did not succeed or the rename fails.
  void commit();

 private:
  void discard();
  std::filesystem::path final_, temporary_;
  RemovedOnSignal on_signal_;
  bool written_ = false;
};

/// "PID-RANDOM": this process's id and 64 random bits in hexadecimal. The
/// temporaries of AtomicFile and the staging folders and lock files of
/// mesh/io/output_set end with it: a later run tells those of dead processes
/// by the pid, and nobody can predict a name to plant a link under.
std::string unique_process_suffix();

/// `folder`/`.NAME.partial-PID-RANDOM` for the file `final_path` (NAME its
/// file name): a fresh name for an exclusive temporary beside it.
std::filesystem::path exclusive_temporary_name(const std::filesystem::path& final_path);

/// Writes a text file atomically: `write` fills the stream; throws
/// std::runtime_error naming the path when the file cannot be created or written.
void write_text_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

}  // namespace geobem

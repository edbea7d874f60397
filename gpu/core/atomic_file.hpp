#pragma once
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

namespace geobem {

/// A file written under a temporary name in the final file's folder and
/// renamed over the final name by commit() (docs/design.md#file-formats): an
/// interrupted or failed write never leaves a truncated file under the final
/// name, and an existing file is replaced only by a complete one. The
/// destructor removes the temporary if commit() was not reached.
class AtomicFile {
 public:
  explicit AtomicFile(std::filesystem::path final_path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Where to write now (same folder and extension as the final path).
  const std::filesystem::path& temporary_path() const { return temporary_; }
  const std::filesystem::path& final_path() const { return final_; }
  /// Creates the temporary (binary: the bytes `write` puts are the file's)
  /// and lets `fill` write it. Throws std::runtime_error naming the
  /// temporary when it cannot be opened, or the final path when a write
  /// fails (a full disk included); the temporary is then removed with this.
  void write(const std::function<void(std::ostream&)>& fill);
  /// Renames the temporary over the final path; throws std::runtime_error
  /// naming both paths if the temporary is missing or the rename fails.
  void commit();

 private:
  std::filesystem::path final_, temporary_;
  bool committed_ = false;
};

/// "PID-N": this process's id and a number no earlier call in the process
/// returned (thread-safe). The temporary names of AtomicFile, OutputSet and
/// OutputLock end with it, so that no two of one process share a name and a
/// later run can tell those of dead processes by the pid.
std::string unique_process_suffix();

/// Writes a text file atomically: `write` fills the stream; throws
/// std::runtime_error naming the path when the file cannot be opened or written.
void write_text_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write);

}  // namespace geobem

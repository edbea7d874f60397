#pragma once
// Every file a stage reads is untrusted, and so is what its name leads to: a
// FIFO would block the reader until someone writes to it, a device such as
// /dev/zero would be read without end, a folder reads as an error deep inside
// a parser. Every reader opens its input through RegularFile (or, when a
// library opens the path itself, checks it with require_regular_file()
// first): the one place that decides what counts as an input file.
#include <cstdint>
#include <filesystem>

namespace geobem {

/// A regular file open for reading. The path is opened with O_NONBLOCK (a
/// FIFO opens at once instead of waiting for a writer; reads of a regular
/// file never block on it anyway) and O_NOCTTY, and the descriptor
/// fstat(2)ed: a symbolic link is followed, so a link to a FIFO is refused
/// too. Throws std::runtime_error "PATH: no such file", "PATH: not a regular
/// file but a FIFO (named pipe)" (a folder, a device, a socket) or "PATH:
/// cannot open the file (REASON)".
class RegularFile {
 public:
  explicit RegularFile(const std::filesystem::path& path);
  ~RegularFile();
  RegularFile(const RegularFile&) = delete;
  RegularFile& operator=(const RegularFile&) = delete;

  int descriptor() const { return descriptor_; }
  /// The file's size in bytes when it was opened.
  std::uint64_t size() const { return size_; }

 private:
  int descriptor_ = -1;
  std::uint64_t size_ = 0;
};

/// Checks that `path` names a regular file, as RegularFile does, for readers
/// that hand the path to a library (VTK, GDAL, std::ifstream) which opens it
/// again. Returns the file's size in bytes.
std::uint64_t require_regular_file(const std::filesystem::path& path);

}  // namespace geobem

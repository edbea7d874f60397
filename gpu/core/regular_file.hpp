#pragma once
// Every file a stage reads is untrusted, and so is what its name leads to: a
// FIFO would block the reader until someone writes to it, a device such as
// /dev/zero would be read without end, a folder reads as an error deep inside
// a parser. Readers call require_regular_file() before they open a path.
#include <cstdint>
#include <filesystem>

namespace geobem {

/// Checks that `path` names a regular file (a symbolic link is followed, so a
/// link to a FIFO is refused too) without blocking: the path is opened with
/// O_NONBLOCK and the descriptor fstat(2)ed, then closed. Returns the file's
/// size in bytes. Throws std::runtime_error "PATH: ..." naming what the path
/// is (a FIFO, a character device, a folder, ...) or why it cannot be opened.
std::uint64_t require_regular_file(const std::filesystem::path& path);

}  // namespace geobem

#include "gpu/core/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <string>

namespace geobem {

namespace {

const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

std::uint64_t require_regular_file(const std::filesystem::path& path) {
  // O_NONBLOCK: opening a FIFO for reading returns at once instead of
  // waiting for a writer; O_NOCTTY: a terminal never becomes ours.
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (descriptor < 0) {
    const int error = errno;
    struct stat status;  // a socket cannot be opened (ENXIO): say what it is
    if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode))
      throw std::runtime_error(path.string() + ": " + kind_of(status.st_mode) + ", not a regular file: give a file");
    throw std::runtime_error(path.string() + ": cannot open the file (" + std::strerror(error) + ")");
  }
  struct stat status;
  const bool known = ::fstat(descriptor, &status) == 0;
  const int error = errno;
  ::close(descriptor);
  if (!known) throw std::runtime_error(path.string() + ": cannot read its status (" + std::strerror(error) + ")");
  if (!S_ISREG(status.st_mode))
    throw std::runtime_error(path.string() + ": " + kind_of(status.st_mode) + ", not a regular file: give a file");
  return static_cast<std::uint64_t>(status.st_size);
}

}  // namespace geobem

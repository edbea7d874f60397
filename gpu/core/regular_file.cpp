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

std::runtime_error not_regular(const std::filesystem::path& path, mode_t mode) {
  const char* kind = S_ISDIR(mode)    ? " but a folder"
                     : S_ISFIFO(mode) ? " but a FIFO (named pipe)"
                     : S_ISCHR(mode)  ? " but a character device"
                     : S_ISBLK(mode)  ? " but a block device"
                     : S_ISSOCK(mode) ? " but a socket"
                                      : "";
  return std::runtime_error(path.string() + ": not a regular file" + kind);
}

}  // namespace

RegularFile::RegularFile(const std::filesystem::path& path) {
  descriptor_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (descriptor_ < 0) {
    const int error = errno;
    if (error == ENOENT) throw std::runtime_error(path.string() + ": no such file");
    struct stat status {};  // a socket cannot be opened (ENXIO): say what it is
    if (::stat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode)) throw not_regular(path, status.st_mode);
    throw std::runtime_error(path.string() + ": cannot open the file (" + std::strerror(error) + ")");
  }
  struct stat status {};
  if (::fstat(descriptor_, &status) != 0) {
    const int error = errno;
    ::close(descriptor_);
    throw std::runtime_error(path.string() + ": cannot read its status (" + std::strerror(error) + ")");
  }
  if (!S_ISREG(status.st_mode)) {
    ::close(descriptor_);
    throw not_regular(path, status.st_mode);
  }
  size_ = static_cast<std::uint64_t>(status.st_size);
}

RegularFile::~RegularFile() { ::close(descriptor_); }

std::uint64_t require_regular_file(const std::filesystem::path& path) { return RegularFile(path).size(); }

}  // namespace geobem

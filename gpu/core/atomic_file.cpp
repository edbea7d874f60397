#include "gpu/core/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <streambuf>
#include <system_error>

namespace geobem {

namespace {

/// A std::streambuf that writes to an open file descriptor through a 64 KiB
/// buffer; a failed write(2) (ENOSPC, EFBIG, EIO) puts the stream in a
/// failed state and keeps its errno for the message.
class DescriptorBuffer : public std::streambuf {
 public:
  explicit DescriptorBuffer(int descriptor) : descriptor_(descriptor) { setp(buffer_.data(), buffer_.data() + buffer_.size()); }
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (!drain()) return traits_type::eof();
    if (!traits_type::eq_int_type(c, traits_type::eof())) {
      *pptr() = traits_type::to_char_type(c);
      pbump(1);
    }
    return traits_type::not_eof(c);
  }
  int sync() override { return drain() ? 0 : -1; }

 private:
  bool drain() {
    const char* next = pbase();
    while (next < pptr()) {
      const ssize_t wrote = ::write(descriptor_, next, static_cast<std::size_t>(pptr() - next));
      if (wrote < 0 && errno == EINTR) continue;
      if (wrote <= 0) {
        error_ = wrote < 0 ? errno : EIO;
        return false;
      }
      next += wrote;
    }
    setp(buffer_.data(), buffer_.data() + buffer_.size());
    return true;
  }
  int descriptor_;
  int error_ = 0;
  std::array<char, 65536> buffer_;
};

}  // namespace

std::string unique_process_suffix() {
  static thread_local std::mt19937_64 random{std::random_device{}()};
  char text[48];
  std::snprintf(text, sizeof text, "%ld-%016llx", static_cast<long>(::getpid()),
                static_cast<unsigned long long>(random()));
  return text;
}

std::filesystem::path exclusive_temporary_name(const std::filesystem::path& final_path) {
  return final_path.parent_path() / ("." + final_path.filename().string() + ".partial-" + unique_process_suffix());
}

AtomicFile::AtomicFile(std::filesystem::path final_path) : final_(std::move(final_path)) {}

AtomicFile::~AtomicFile() {
  if (!temporary_.empty()) discard();
}

void AtomicFile::discard() {
  ::unlink(temporary_.c_str());
  on_signal_.release();
  temporary_.clear();
  written_ = false;
}

void AtomicFile::write(const std::function<void(std::ostream&)>& fill) {
  if (!temporary_.empty()) discard();
  int descriptor = -1;
  // A name taken meanwhile (EEXIST) is another's: draw again, never reuse it.
  for (int attempt = 0; attempt < 16 && descriptor < 0; ++attempt) {
    temporary_ = exclusive_temporary_name(final_);
    descriptor = ::open(temporary_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (descriptor < 0 && errno != EEXIST) break;
  }
  if (descriptor < 0) {
    const std::string reason = std::strerror(errno);
    temporary_.clear();
    const std::filesystem::path folder = final_.has_parent_path() ? final_.parent_path() : ".";
    throw std::runtime_error("cannot create a file in '" + folder.string() + "' to write '" + final_.string() +
                             "': " + reason);
  }
  on_signal_ = RemovedOnSignal(temporary_);
  DescriptorBuffer buffer(descriptor);
  std::ostream stream(&buffer);
  try {
    fill(stream);
  } catch (...) {
    ::close(descriptor);
    discard();
    throw;
  }
  stream.flush();
  int error = stream ? 0 : (buffer.error() ? buffer.error() : EIO);
  if (::close(descriptor) != 0 && error == 0) error = errno;  // NFS reports a full disk here
  if (error != 0) {
    discard();
    throw std::runtime_error("error while writing '" + final_.string() + "': " + std::strerror(error));
  }
  written_ = true;
}

void AtomicFile::commit() {
  if (!written_) throw std::runtime_error("cannot put '" + final_.string() + "' in place: it was not written");
  if (std::rename(temporary_.c_str(), final_.c_str()) != 0)
    throw std::runtime_error("cannot rename '" + temporary_.string() + "' to '" + final_.string() +
                             "': " + std::strerror(errno));
  on_signal_.release();
  temporary_.clear();
  written_ = false;
}

void write_text_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  AtomicFile file(path);
  file.write(write);
  file.commit();
}

}  // namespace geobem

#include "gpu/core/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <stdexcept>
#include <system_error>

namespace geobem {

namespace {
std::filesystem::path make_temporary_name(const std::filesystem::path& final_path) {
  // Keep the extension last: some writers pick their format from it.
  const std::string name = "." + final_path.stem().string() + ".partial-" + unique_process_suffix() +
                           final_path.extension().string();
  return final_path.parent_path() / name;
}
}  // namespace

std::string unique_process_suffix() {
  static std::atomic<int> counter{0};
  return std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

AtomicFile::AtomicFile(std::filesystem::path final_path)
    : final_(std::move(final_path)), temporary_(make_temporary_name(final_)) {}

AtomicFile::~AtomicFile() {
  if (!committed_) {
    std::error_code ignored;
    std::filesystem::remove(temporary_, ignored);
  }
}

void AtomicFile::commit() {
  std::error_code error;
  std::filesystem::rename(temporary_, final_, error);
  if (error)
    throw std::runtime_error("cannot rename '" + temporary_.string() + "' to '" + final_.string() +
                             "': " + error.message());
  committed_ = true;
}

void AtomicFile::write(const std::function<void(std::ostream&)>& fill) {
  std::ofstream stream(temporary_, std::ios::binary);
  if (!stream) throw std::runtime_error("cannot open '" + temporary_.string() + "' for writing");
  fill(stream);
  stream.flush();
  if (!stream) throw std::runtime_error("error while writing '" + final_.string() + "' (disk full?)");
}

void write_text_file_atomically(const std::filesystem::path& path, const std::function<void(std::ostream&)>& write) {
  AtomicFile file(path);
  file.write(write);
  file.commit();
}

}  // namespace geobem

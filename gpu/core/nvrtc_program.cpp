#include "gpu/core/nvrtc_program.hpp"

#include <fcntl.h>
#include <nvrtc.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "gpu/core/atomic_file.hpp"
#include "gpu/core/cuda_check.hpp"
#include "gpu/core/seconds_since.hpp"

namespace geobem {

/// NVRTC names its statuses itself.
template <>
struct StatusTraits<nvrtcResult> : LibraryStatus<nvrtcResult, NVRTC_SUCCESS, nvrtcGetErrorString> {
  static constexpr const char* library = "NVRTC";
};

namespace {

/// Destroys the program when it goes out of scope.
struct ProgramHandle {
  nvrtcProgram program = nullptr;
  ~ProgramHandle() {
    if (program) nvrtcDestroyProgram(&program);
  }
};

std::string program_log(nvrtcProgram program) {
  std::size_t size = 0;
  GEOBEM_CHECK(nvrtcGetProgramLogSize(program, &size));
  std::string log(size, '\0');
  if (size) GEOBEM_CHECK(nvrtcGetProgramLog(program, log.data()));
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

/// SHA-256 of `bytes` as 64 lower-case hexadecimal digits (OpenSSL's libcrypto).
std::string sha256_hex(std::string_view bytes) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_sha256(), nullptr) != 1 || length != 32)
    throw std::runtime_error("OpenSSL could not compute a SHA-256 digest");
  static const char digits[] = "0123456789abcdef";
  std::string text;
  for (unsigned int k = 0; k < length; ++k) {
    text += digits[digest[k] >> 4];
    text += digits[digest[k] & 15];
  }
  return text;
}

/// An entry: this header line, then "key KEYHASH\n", "image IMAGEHASH BYTES\n" and the image.
constexpr std::string_view kEntryHeader = "geobem NVRTC kernel cache entry 1\n";
constexpr std::uint64_t kMaxEntryBytes = 256ull << 20;

std::string entry_bytes(const std::string& key_hash, const std::string& image) {
  return std::string(kEntryHeader) + "key " + key_hash + "\nimage " + sha256_hex(image) + " " +
         std::to_string(image.size()) + "\n" + image;
}

/// The image of the entry at `path` when it is sound; std::nullopt with
/// `problem` empty when there is no entry, or set to why it is not used.
std::optional<std::string> read_entry(const std::filesystem::path& path, const std::string& key_hash,
                                      std::string& problem) {
  // O_NOFOLLOW: a link is refused; O_NONBLOCK: a FIFO planted there does not block the open.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) problem = "cannot be opened as a regular file (" + std::string(std::strerror(errno)) + ")";
    return std::nullopt;
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat status {};
  if (::fstat(fd, &status) != 0 || !S_ISREG(status.st_mode)) {
    problem = "is not a regular file";
    return std::nullopt;
  }
  if (status.st_uid != ::geteuid() || (status.st_mode & S_IWOTH)) {
    problem = "belongs to another user or is writable by everyone";
    return std::nullopt;
  }
  if (static_cast<std::uint64_t>(status.st_size) > kMaxEntryBytes) {
    problem = "is larger than 256 MiB";
    return std::nullopt;
  }
  std::string bytes(static_cast<std::size_t>(status.st_size), '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    done += static_cast<std::size_t>(got);
  }
  bytes.resize(done);
  // The three header lines, each checked against what they must say.
  std::size_t at = 0;
  const auto line = [&]() -> std::string_view {
    const std::size_t end = bytes.find('\n', at);
    if (end == std::string::npos || end - at > 200) return {};
    const std::string_view text(bytes.data() + at, end - at + 1);
    at = end + 1;
    return text;
  };
  if (line() != kEntryHeader) {
    problem = "is not a geobem kernel cache entry";
    return std::nullopt;
  }
  if (line() != "key " + key_hash + "\n") {
    problem = "was written for another kernel (its key hash differs from its name)";
    return std::nullopt;
  }
  const std::string_view image_line = line();
  std::string image = bytes.substr(at);
  if (image_line != "image " + sha256_hex(image) + " " + std::to_string(image.size()) + "\n") {
    problem = "failed its SHA-256 check (the image is not the one its header records: tampered with or truncated)";
    return std::nullopt;
  }
  return image;
}

/// True when the cache folder `folder` may be used: a folder of this user
/// that no one else can write into. A missing folder is made (mode 0700, its
/// parents as the umask says). False with `problem` set for someone else's
/// folder or one others can write into; false alone when it cannot be made.
bool usable_cache_folder(const std::filesystem::path& folder, std::string& problem) {
  std::error_code ignored;
  std::filesystem::create_directories(folder.parent_path(), ignored);
  if (::mkdir(folder.c_str(), 0700) != 0 && errno != EEXIST) return false;
  struct stat status {};
  if (::stat(folder.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) return false;
  if (status.st_uid != ::geteuid() || (status.st_mode & (S_IWGRP | S_IWOTH))) {
    problem = "the kernel cache folder " + folder.string() +
              " belongs to another user or is writable by others: not used (the kernel was compiled)";
    return false;
  }
  return true;
}

}  // namespace

std::string nvrtc_version() {
  int major = 0, minor = 0;
  GEOBEM_CHECK(nvrtcVersion(&major, &minor));
  return std::to_string(major) + "." + std::to_string(minor);
}

NvrtcImage nvrtc_compile(const std::string& name, const std::string& source, const std::vector<NvrtcHeader>& headers,
                         const std::string& architecture, const std::vector<std::string>& options, bool ptx) {
  std::vector<const char*> header_sources, header_names;
  for (const auto& header : headers) {
    header_sources.push_back(header.source.c_str());
    header_names.push_back(header.name.c_str());
  }
  ProgramHandle handle;
  GEOBEM_CHECK(nvrtcCreateProgram(&handle.program, source.c_str(), name.c_str(),
                                        static_cast<int>(headers.size()), header_sources.data(), header_names.data()));
  std::vector<std::string> all{"--gpu-architecture=" + architecture, "-std=c++17"};
  all.insert(all.end(), options.begin(), options.end());
  std::vector<const char*> option_pointers;
  for (const auto& option : all) option_pointers.push_back(option.c_str());
  const auto start = std::chrono::steady_clock::now();
  const nvrtcResult compiled =
      nvrtcCompileProgram(handle.program, static_cast<int>(option_pointers.size()), option_pointers.data());
  NvrtcImage out;
  out.compile_seconds = seconds_since(start);
  out.log = program_log(handle.program);
  if (compiled == NVRTC_ERROR_COMPILATION)
    throw NvrtcCompileError("NVRTC " + nvrtc_version() + " could not compile " + name + " for " + architecture +
                                ":\n" + out.log,
                            out.log);
  GEOBEM_CHECK(compiled);
  std::size_t size = 0;
  if (ptx) {
    GEOBEM_CHECK(nvrtcGetPTXSize(handle.program, &size));
    out.image.resize(size);
    GEOBEM_CHECK(nvrtcGetPTX(handle.program, out.image.data()));
  } else {
    GEOBEM_CHECK(nvrtcGetCUBINSize(handle.program, &size));
    out.image.resize(size);
    GEOBEM_CHECK(nvrtcGetCUBIN(handle.program, out.image.data()));
  }
  return out;
}

std::string kernel_cache_directory() {
  if (const char* explicit_folder = std::getenv("GEOBEM_KERNEL_CACHE"); explicit_folder && *explicit_folder)
    return explicit_folder;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return std::string(xdg) + "/geobem/kernels";
  if (const char* home = std::getenv("HOME"); home && *home) return std::string(home) + "/.cache/geobem/kernels";
  return "";
}

NvrtcImage nvrtc_compile_cached(const std::string& name, const std::string& source,
                                const std::vector<NvrtcHeader>& headers, const std::string& architecture,
                                const std::vector<std::string>& options, const std::string& cache_directory) {
  if (cache_directory.empty()) return nvrtc_compile(name, source, headers, architecture, options);
  std::string key = "nvrtc " + nvrtc_version() + "\narch " + architecture + "\n";
  for (const auto& option : options) key += "option " + option + "\n";
  for (const auto& header : headers) key += "header " + header.name + "\n" + header.source + "\n";
  key += "source\n" + source;
  const std::string key_hash = sha256_hex(key);
  const std::filesystem::path folder(cache_directory), path = folder / (key_hash + ".cubin");
  std::string problem;
  if (!usable_cache_folder(folder, problem)) {
    NvrtcImage out = nvrtc_compile(name, source, headers, architecture, options);
    out.cache_warning = problem;
    return out;
  }
  if (auto image = read_entry(path, key_hash, problem)) {
    NvrtcImage cached;
    cached.image = std::move(*image);
    cached.cache_file = path.string();
    cached.from_cache = true;
    return cached;
  }
  NvrtcImage out = nvrtc_compile(name, source, headers, architecture, options);
  if (!problem.empty()) out.cache_warning = "the kernel cache entry " + path.string() + " " + problem + ": compiled again";
  // A cache that cannot be written only costs the next run a compile: no error.
  try {
    AtomicFile file(path);
    const std::string bytes = entry_bytes(key_hash, out.image);
    file.write([&](std::ostream& stream) { stream.write(bytes.data(), static_cast<std::streamsize>(bytes.size())); });
    file.commit();
  } catch (const std::runtime_error&) {
    return out;
  }
  out.cache_file = path.string();
  return out;
}

}  // namespace geobem

#include "gpu/core/nvrtc_program.hpp"

#include <nvrtc.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <sstream>
#include <stdexcept>

#include "gpu/core/atomic_file.hpp"
#include "gpu/core/seconds_since.hpp"

namespace geobem {

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
  GEOBEM_NVRTC_CHECK(nvrtcGetProgramLogSize(program, &size));
  std::string log(size, '\0');
  if (size) GEOBEM_NVRTC_CHECK(nvrtcGetProgramLog(program, log.data()));
  while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
  return log;
}

/// FNV-1a over `text` from `basis`: two different bases give a 128-bit key.
std::uint64_t fnv1a(const std::string& text, std::uint64_t basis) {
  std::uint64_t hash = basis;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return "";
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

std::string nvrtc_version() {
  int major = 0, minor = 0;
  GEOBEM_NVRTC_CHECK(nvrtcVersion(&major, &minor));
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
  GEOBEM_NVRTC_CHECK(nvrtcCreateProgram(&handle.program, source.c_str(), name.c_str(),
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
  GEOBEM_NVRTC_CHECK(compiled);
  std::size_t size = 0;
  if (ptx) {
    GEOBEM_NVRTC_CHECK(nvrtcGetPTXSize(handle.program, &size));
    out.image.resize(size);
    GEOBEM_NVRTC_CHECK(nvrtcGetPTX(handle.program, out.image.data()));
  } else {
    GEOBEM_NVRTC_CHECK(nvrtcGetCUBINSize(handle.program, &size));
    out.image.resize(size);
    GEOBEM_NVRTC_CHECK(nvrtcGetCUBIN(handle.program, out.image.data()));
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
  char file_name[48];
  std::snprintf(file_name, sizeof file_name, "%016llx%016llx.cubin",
                static_cast<unsigned long long>(fnv1a(key, 0xcbf29ce484222325ULL)),
                static_cast<unsigned long long>(fnv1a(key, 0x84222325cbf29ce4ULL)));
  const std::filesystem::path path = std::filesystem::path(cache_directory) / file_name;
  NvrtcImage cached;
  cached.image = read_file(path);
  if (!cached.image.empty()) {
    cached.cache_file = path.string();
    cached.from_cache = true;
    return cached;
  }
  NvrtcImage out = nvrtc_compile(name, source, headers, architecture, options);
  // A cache that cannot be written only costs the next run a compile: no error.
  std::error_code ignored;
  std::filesystem::create_directories(path.parent_path(), ignored);
  try {
    AtomicFile file(path);
    file.write([&](std::ostream& stream) {
      stream.write(out.image.data(), static_cast<std::streamsize>(out.image.size()));
    });
    file.commit();
  } catch (const std::runtime_error&) {
    return out;
  }
  out.cache_file = path.string();
  return out;
}

}  // namespace geobem

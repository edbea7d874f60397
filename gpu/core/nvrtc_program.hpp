#pragma once
// Run-time compilation of CUDA C++ with NVRTC (CUDA 13 ships it): a source
// and its headers (passed as strings: NVRTC reads no files) compiled to a
// CUBIN for one GPU architecture, with an on-disk cache keyed by everything
// that determines the image, so that a rerun skips the compile. NVRTC needs
// no GPU: the compile runs, and is tested, on any machine with the toolkit.
// Load the image with CudaLibrary (cuda_library.hpp).
#include <string>
#include <vector>

#include "gpu/core/device_error.hpp"

namespace geobem {

/// The source did not compile; what() carries NVRTC's log.
class NvrtcCompileError : public DeviceError {
 public:
  NvrtcCompileError(const std::string& message, std::string log) : DeviceError(message), log_(std::move(log)) {}
  const std::string& log() const { return log_; }

 private:
  std::string log_;
};

/// A header NVRTC resolves `#include "name"` (or <name>) to.
struct NvrtcHeader {
  std::string name, source;
};

struct NvrtcImage {
  std::string image;        ///< the CUBIN (or PTX) bytes
  std::string log;          ///< NVRTC's log (warnings), empty when none
  double compile_seconds = 0.0;  ///< wall time of nvrtcCompileProgram; 0 when read from the cache
  std::string cache_file;   ///< where the image is cached; empty when not cached
  bool from_cache = false;
  std::string cache_warning;  ///< why a cache entry or folder was not used; empty when nothing was wrong
};

/// "13.0": the NVRTC library's version (nvrtcVersion).
std::string nvrtc_version();

/// Compiles `source` (`name` in messages) with `headers` to a CUBIN for
/// `architecture` ("sm_90"), or to PTX (`ptx` true, for "compute_90"),
/// C++17, with `options` added (e.g. "-default-device"). Throws
/// NvrtcCompileError with the log for a failed compile, DeviceError for any
/// other NVRTC failure.
NvrtcImage nvrtc_compile(const std::string& name, const std::string& source, const std::vector<NvrtcHeader>& headers,
                         const std::string& architecture, const std::vector<std::string>& options, bool ptx = false);

/// The kernel cache folder: $GEOBEM_KERNEL_CACHE, else
/// $XDG_CACHE_HOME/geobem/kernels, else $HOME/.cache/geobem/kernels; empty
/// when none of these is set.
std::string kernel_cache_directory();

/// nvrtc_compile to a CUBIN through the cache in `cache_directory` (empty:
/// no cache). An entry is named by the SHA-256 (OpenSSL) of everything that
/// determines the image: the source, the headers, the options, the
/// architecture and the NVRTC version. It starts with a header recording that
/// hash, the image's size and the image's SHA-256, and is used only when all
/// three match what is read, the entry is a regular file of this user (not a
/// link, not writable by others, at most 256 MiB) and the folder is this
/// user's and writable by no one else (a missing folder is made with mode
/// 0700). Anything else is compiled afresh and `cache_warning` says why; a
/// tampered or truncated entry is then replaced. Entries are written through
/// AtomicFile (a temporary renamed over the entry, so a concurrent run never
/// reads half an image). A cache that cannot be written is skipped silently:
/// it only saves time.
NvrtcImage nvrtc_compile_cached(const std::string& name, const std::string& source,
                                const std::vector<NvrtcHeader>& headers, const std::string& architecture,
                                const std::vector<std::string>& options, const std::string& cache_directory);

}  // namespace geobem

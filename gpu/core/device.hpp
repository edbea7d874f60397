#pragma once
#include <string>

namespace geobem {

/// What the user asked for with `--device auto|cpu|cuda`.
enum class DeviceChoice { Auto, Cpu, Cuda };

/// Where the work actually runs.
enum class ComputeDevice { Cpu, Cuda };

/// Parses "auto", "cpu" or "cuda"; throws InputError::usage naming the value otherwise.
DeviceChoice parse_device_choice(const std::string& text);

/// Whether this build has the CUDA drivers (GEOBEM_ENABLE_CUDA).
bool cuda_built();

/// Number of usable CUDA devices; 0 in a build without CUDA and when there is
/// no driver or no GPU (cudaGetDeviceCount leaves its output unset then, and
/// the error is cleared).
int cuda_device_count();

/// Auto -> Cuda when cuda_device_count() > 0, else Cpu. Cuda in a build
/// without CUDA or with no device throws std::runtime_error saying which
/// ("--device cuda: this geobem was built without CUDA ...", "--device cuda:
/// no CUDA device ...").
ComputeDevice resolve_device(DeviceChoice choice);

/// Selects device `rank mod cuda_device_count()` for this thread (one MPI rank
/// per GPU, docs/design.md#distribution); returns the device index. Requires a device.
int select_cuda_device_for_rank(int rank);

/// Throws std::runtime_error "WHAT: this geobem was built without CUDA": what
/// a method's dispatcher does with ComputeDevice::Cuda in such a build.
[[noreturn]] void throw_cuda_not_built(const char* what);

/// A method's dispatcher: cuda() on ComputeDevice::Cuda, cpu() otherwise. In
/// a build without CUDA (GEOBEM_WITH_CUDA 0) Cuda throws as
/// throw_cuda_not_built(what) and cuda is never called, so it may name
/// drivers that such a build does not have.
template <typename Cuda, typename Cpu>
auto run_on(ComputeDevice device, const char* what, const Cuda& cuda, const Cpu& cpu) -> decltype(cpu()) {
  if (device == ComputeDevice::Cuda) {
#if GEOBEM_WITH_CUDA
    static_cast<void>(what);
    return cuda();
#else
    static_cast<void>(cuda);
    throw_cuda_not_built(what);
#endif
  }
  return cpu();
}

/// "cpu" or "cuda".
std::string to_string(ComputeDevice device);

/// Threads an OpenMP parallel region on the CPU path gets (omp_get_max_threads).
int cpu_thread_count();

}  // namespace geobem

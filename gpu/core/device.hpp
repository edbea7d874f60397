#pragma once
#include <string>

namespace geobem {

/// What the user asked for with `--device auto|cpu|cuda`.
enum class DeviceChoice { Auto, Cpu, Cuda };

/// Where the work actually runs.
enum class ComputeDevice { Cpu, Cuda };

/// Parses "auto", "cpu" or "cuda"; throws geobem::UsageError naming the value otherwise.
DeviceChoice parse_device_choice(const std::string& text);

/// Number of usable CUDA devices; 0 when there is no driver or no GPU
/// (cudaGetDeviceCount leaves its output unset then, and the error is cleared).
int cuda_device_count();

/// Auto -> Cuda when cuda_device_count() > 0, else Cpu. Cuda with no device
/// throws std::runtime_error ("--device cuda: no CUDA device ...").
ComputeDevice resolve_device(DeviceChoice choice);

/// Selects device `rank mod cuda_device_count()` for this thread (one MPI rank
/// per GPU, docs/design.md#distribution); returns the device index. Requires a device.
int select_cuda_device_for_rank(int rank);

/// "cpu" or "cuda".
std::string to_string(ComputeDevice device);

/// Threads an OpenMP parallel region on the CPU path gets (omp_get_max_threads).
int cpu_thread_count();

}  // namespace geobem

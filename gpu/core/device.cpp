#include "gpu/core/device.hpp"

#include <omp.h>

#include <stdexcept>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/usage_error.hpp"

namespace geobem {

DeviceChoice parse_device_choice(const std::string& text) {
  if (text == "auto") return DeviceChoice::Auto;
  if (text == "cpu") return DeviceChoice::Cpu;
  if (text == "cuda") return DeviceChoice::Cuda;
  throw UsageError("unknown device '" + text + "' (expected auto, cpu or cuda)");
}

int cuda_device_count() {
  int count = 0;  // left unset by the runtime when no driver is present
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky error so later checks start clean
    return 0;
  }
  return count;
}

ComputeDevice resolve_device(DeviceChoice choice) {
  switch (choice) {
    case DeviceChoice::Cpu: return ComputeDevice::Cpu;
    case DeviceChoice::Auto: return cuda_device_count() > 0 ? ComputeDevice::Cuda : ComputeDevice::Cpu;
    case DeviceChoice::Cuda:
      if (cuda_device_count() == 0)
        throw std::runtime_error("--device cuda: no CUDA device is available (use --device cpu or auto)");
      return ComputeDevice::Cuda;
  }
  throw std::logic_error("resolve_device: unhandled choice");
}

int select_cuda_device_for_rank(int rank) {
  const int count = cuda_device_count();
  if (count == 0) throw std::runtime_error("select_cuda_device_for_rank: no CUDA device");
  const int device = rank % count;
  GEOBEM_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

std::string to_string(ComputeDevice device) { return device == ComputeDevice::Cuda ? "cuda" : "cpu"; }

int cpu_thread_count() { return omp_get_max_threads(); }

}  // namespace geobem

#include "gpu/core/device.hpp"

#include "gpu/core/cuda_context.hpp"

#include <omp.h>

#include <stdexcept>

#if GEOBEM_WITH_CUDA
#include "gpu/core/cuda_check.hpp"
#endif
#include "gpu/core/input_error.hpp"

namespace geobem {

DeviceChoice parse_device_choice(const std::string& text) {
  if (text == "auto") return DeviceChoice::Auto;
  if (text == "cpu") return DeviceChoice::Cpu;
  if (text == "cuda") return DeviceChoice::Cuda;
  throw InputError::usage("unknown device '" + text + "' (expected auto, cpu or cuda)");
}

bool cuda_built() { return GEOBEM_WITH_CUDA; }

int cuda_device_count() {
#if GEOBEM_WITH_CUDA
  int count = 0;  // left unset by the runtime when no driver is present
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky error so later checks start clean
    return 0;
  }
  return count;
#else
  return 0;
#endif
}

ComputeDevice resolve_device(DeviceChoice choice) {
  switch (choice) {
    case DeviceChoice::Cpu: return ComputeDevice::Cpu;
    case DeviceChoice::Auto: return cuda_device_count() > 0 ? ComputeDevice::Cuda : ComputeDevice::Cpu;
    case DeviceChoice::Cuda:
      if (!cuda_built())
        throw std::runtime_error(
            "--device cuda: this geobem was built without CUDA (GEOBEM_ENABLE_CUDA=OFF); use --device cpu or auto");
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
#if GEOBEM_WITH_CUDA
  GEOBEM_CHECK(cudaSetDevice(device));
#endif
  return device;
}

void create_cuda_context() {
#if GEOBEM_WITH_CUDA
  GEOBEM_CHECK(cudaFree(nullptr));
#else
  throw_cuda_not_built("create_cuda_context");
#endif
}

void throw_cuda_not_built(const char* what) {
  throw std::runtime_error(std::string(what) + ": this geobem was built without CUDA (GEOBEM_ENABLE_CUDA=OFF)");
}

std::string to_string(ComputeDevice device) { return device == ComputeDevice::Cuda ? "cuda" : "cpu"; }

int cpu_thread_count() { return omp_get_max_threads(); }

}  // namespace geobem

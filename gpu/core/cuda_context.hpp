#pragma once
// When the CUDA context is made. Apart from device.hpp, which most of the
// tree includes, so that this rarely used call costs no rebuild of it.

namespace geobem {

/// Creates the CUDA context of this thread's current device now
/// (cudaFree(nullptr)) instead of at the first CUDA call that needs it, so
/// that a caller can time its cost (0.1 s or more on an H100) apart from the
/// work that follows; the context is the device's primary context, shared by
/// every thread of the process. Requires a device; throws
/// DeviceError when the context cannot be made, std::runtime_error in a
/// build without CUDA.
void create_cuda_context();

}  // namespace geobem

// The extension module geobem._geobem: the compute library's forward models
// and integrators for the pure-Python layer (python/geobem), which gives them
// Harmonica's calls. Errors, mapped here and nowhere else: geobem::InputError
// (bad input of either kind) arrives as ValueError with the library's
// message, geobem::DeviceError as geobem.DeviceError and
// geobem::ResourceError as geobem.ResourceError (both RuntimeErrors),
// anything else as nanobind maps it (RuntimeError for a std::runtime_error).
#include <nanobind/stl/string.h>

#include <exception>
#include <stdexcept>

#include "gpu/core/device_error.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/resource_error.hpp"
#include "python/src/bindings.hpp"

namespace geobem::python {

NumpyRows numpy_rows(std::vector<double>&& values, std::size_t rows, std::size_t columns) {
  auto* owned = new std::vector<double>(std::move(values));
  nb::capsule owner(owned, [](void* data) noexcept { delete static_cast<std::vector<double>*>(data); });
  return NumpyRows(owned->data(), {rows, columns}, owner);
}

ComputeDevice compute_device(const std::string& device) {
  return device == "cuda" ? ComputeDevice::Cuda : ComputeDevice::Cpu;
}

namespace {

/// "auto", "cpu" or "cuda" → "cpu" or "cuda"; a CUDA request that cannot be
/// met is a DeviceError, worded for the keyword argument.
std::string resolve(const std::string& choice) {
  const DeviceChoice parsed = parse_device_choice(choice);
  try {
    return to_string(resolve_device(parsed));
  } catch (const std::runtime_error& error) {
    std::string message = error.what();
    const std::string option = "--device cuda", keyword = "device='cuda'";
    for (std::size_t at = message.find(option); at != std::string::npos; at = message.find(option))
      message.replace(at, option.size(), keyword);
    const std::string alternatives = "use --device cpu or auto", keyword_alternatives = "use device='cpu' or 'auto'";
    const std::size_t at = message.find(alternatives);
    if (at != std::string::npos) message.replace(at, alternatives.size(), keyword_alternatives);
    throw DeviceError(message);
  }
}

}  // namespace

NB_MODULE(_geobem, m) {
  m.doc() = "geobem's compute library (gpu/): prism gravity and magnetics, Longman's method, adaptive quadrature "
            "and cubature. Call it through the geobem package, not directly.";
  nb::exception<DeviceError>(m, "DeviceError", PyExc_RuntimeError);
  nb::exception<ResourceError>(m, "ResourceError", PyExc_RuntimeError);
  nb::register_exception_translator([](const std::exception_ptr& error, void*) {
    try {
      std::rethrow_exception(error);
    } catch (const InputError& input) {
      PyErr_SetString(PyExc_ValueError, input.what());
    }
  });
  m.def("resolve_device", &resolve, nb::arg("device"));
  m.def("cuda_built", &cuda_built);
  m.def("cuda_device_count", &cuda_device_count);
  bind_forward(m);
  bind_integrators(m);
}

}  // namespace geobem::python

#pragma once
// What the binding files share: the array types the module takes, the call
// that runs the library with the GIL released and its warnings collected, and
// the conversion of result rows to a NumPy array.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <string>
#include <utility>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/warning.hpp"

namespace geobem::python {

namespace nb = nanobind;

/// A C-ordered float64 host array of `Columns` columns (rows × Columns).
template <int Columns>
using HostTable = nb::ndarray<const double, nb::shape<-1, Columns>, nb::c_contig, nb::device::cpu>;
/// Prism bounds (P × 6: west, east, south, north, bottom, top), float64 on
/// the host, any strides: read in place, never copied into a packed table.
using HostBounds = nb::ndarray<const double, nb::shape<-1, 6>, nb::device::cpu>;
/// One value per prism (density, a magnetization component), float64 on the host, any stride.
using HostColumn = nb::ndarray<const double, nb::ndim<1>, nb::device::cpu>;
/// A float64 host array of any number of columns.
using HostMatrix = nb::ndarray<const double, nb::ndim<2>, nb::c_contig, nb::device::cpu>;
/// A NumPy array returned to Python (rows × stations or rows × integrals).
using NumpyRows = nb::ndarray<nb::numpy, double, nb::ndim<2>>;

/// The library's warnings of one call, in order, for the Python side to issue
/// through the warnings module (so that they point at the caller's line).
using Warnings = std::vector<std::string>;

/// Runs `work` with the GIL released and the library's warnings collected
/// into `warnings` (a warning never reaches stderr from the module).
template <typename Work>
auto run_released(Warnings& warnings, Work&& work) {
  nb::gil_scoped_release release;
  WarningCapture capture;
  auto result = work();
  warnings = capture.messages();
  return result;
}

/// rows[k] (each of `columns` values) as a rows × columns NumPy array that owns its data.
NumpyRows numpy_rows(std::vector<double>&& values, std::size_t rows, std::size_t columns);

/// "cpu" or "cuda" (already resolved by resolve_device on the Python side) as a ComputeDevice.
ComputeDevice compute_device(const std::string& device);

void bind_forward(nb::module_& m);
void bind_integrators(nb::module_& m);

}  // namespace geobem::python

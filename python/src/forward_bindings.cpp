// Prism gravity and magnetics (gpu/gravity, gpu/magnetic) for the Python
// layer: prism lists and prism layers from host arrays, and prism gravity
// from CUDA device arrays (DLPack) without a copy to the host. Each function
// returns (rows, field names, warnings); the Python layer shapes the rows and
// issues the warnings.
#include <nanobind/stl/array.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <tuple>

#include "gpu/core/input_error.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/prism_layer_forward.hpp"
#include "gpu/magnetic/magnetic.hpp"
#include "python/src/bindings.hpp"
#if GEOBEM_WITH_CUDA
#include "gpu/core/device_buffer.hpp"
#endif

namespace geobem::python {
namespace {

using gravity::Prism;
using gravity::Station;

static_assert(sizeof(Station) == 3 * sizeof(double) && sizeof(Prism) == 7 * sizeof(double),
              "stations and prisms are read as rows of doubles");
static_assert(sizeof(magnetic::MagnetizedPrism) == 9 * sizeof(double), "magnetized prisms are rows of 9 doubles");

/// Rows of a C-ordered table as the library's plain structs (same layout).
template <typename Row, typename Table>
std::vector<Row> rows_of(const Table& table) {
  std::vector<Row> rows(table.shape(0));
  if (!rows.empty()) std::memcpy(rows.data(), table.data(), rows.size() * sizeof(Row));
  return rows;
}

/// Prisms as the library's structs, built in one pass from the (P, 6) bounds
/// and the K per-prism columns as NumPy holds them (any strides: a column of
/// a larger table is read in place, not first packed into a new table).
/// The Python layer checks the sizes and names the argument; this guard keeps
/// a call from elsewhere from reading past a column.
template <typename Row, std::size_t K>
std::vector<Row> prism_rows(const HostBounds& bounds, const std::array<const HostColumn*, K>& columns) {
  static_assert(sizeof(Row) == (6 + K) * sizeof(double), "a prism is 6 bounds and K values");
  const std::size_t n = bounds.shape(0);
  for (const HostColumn* column : columns)
    if (column->shape(0) != n)
      throw InputError("a per-prism column has " + std::to_string(column->shape(0)) + " values for " +
                       std::to_string(n) + " prisms");
  // nanobind's strides count elements.
  const double* b = bounds.data();
  const std::int64_t across = bounds.stride(0), along = bounds.stride(1);
  std::vector<Row> rows;
  rows.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    double row[6 + K];
    for (std::size_t j = 0; j < 6; ++j) row[j] = b[std::int64_t(i) * across + std::int64_t(j) * along];
    for (std::size_t k = 0; k < K; ++k) row[6 + k] = columns[k]->data()[std::int64_t(i) * columns[k]->stride(0)];
    std::memcpy(&rows.emplace_back(), row, sizeof row);
  }
  return rows;
}

/// `force`: single precision even where no station can meet 1e-3 (gravity::ForwardOptions::force).
gravity::ForwardOptions forward_options(const std::string& device, const std::string& precision, bool progress,
                                        bool force) {
  gravity::ForwardOptions options;
  options.device = compute_device(device);
  options.precision = gravity::parse_precision(precision);
  options.quiet = !progress;
  options.force = force;
  return options;
}

using Rows = std::tuple<NumpyRows, std::vector<std::string>, Warnings>;

Rows gravity_rows(const gravity::ForwardResult& result, std::size_t stations) {
  std::vector<double> values;
  std::vector<std::string> names;
  for (std::size_t k = 0; k < result.fields.size(); ++k) {
    values.insert(values.end(), result.values[k].begin(), result.values[k].end());
    names.emplace_back(gravity::field_name(result.fields[k]));
  }
  return {numpy_rows(std::move(values), names.size(), stations), names, {}};
}

Rows prism_gravity(const HostTable<3>& stations, const HostBounds& prisms, const HostColumn& density,
                   const std::string& fields, const std::string& device, const std::string& precision,
                   bool progress, bool force) {
  const auto field_list = gravity::parse_fields(fields);
  const auto options = forward_options(device, precision, progress, force);
  Warnings warnings;
  const auto result = run_released(warnings, [&] {
    return gravity::forward_model(prism_rows<Prism, 1>(prisms, {&density}), rows_of<Station>(stations), field_list,
                                  options);
  });
  Rows rows = gravity_rows(result, stations.shape(0));
  std::get<2>(rows) = std::move(warnings);
  return rows;
}

/// The layer of Harmonica's prism_layer with one reference height and one
/// density (or magnetization) on each side of it: (shape_e, shape_n) cells
/// centred from (west_centre, south_centre) at (spacing_e, spacing_n).
gravity::PrismLayer layer_of(const HostMatrix& surface, const std::array<double, 4>& grid, double reference,
                             double density_above, double density_below) {
  gravity::PrismLayer layer;
  auto& g = layer.geometry;
  g.shape_n = static_cast<std::int64_t>(surface.shape(0));
  g.shape_e = static_cast<std::int64_t>(surface.shape(1));
  g.west_centre = grid[0];
  g.south_centre = grid[1];
  g.spacing_e = grid[2];
  g.spacing_n = grid[3];
  g.reference = reference;
  g.density_above = density_above;
  g.density_below = density_below;
  layer.surface.assign(surface.data(), surface.data() + surface.size());
  return layer;
}

Rows layer_gravity(const HostTable<3>& stations, const HostMatrix& surface, const std::array<double, 4>& grid,
                   double reference, double density_above, double density_below, const std::string& fields,
                   const std::string& device, const std::string& precision, bool progress, bool force) {
  const auto field_list = gravity::parse_fields(fields);
  const auto options = forward_options(device, precision, progress, force);
  Warnings warnings;
  const auto result = run_released(warnings, [&] {
    return gravity::forward_model_layer(layer_of(surface, grid, reference, density_above, density_below),
                                        rows_of<Station>(stations), field_list, options);
  });
  Rows rows = gravity_rows(result, stations.shape(0));
  std::get<2>(rows) = std::move(warnings);
  return rows;
}

Rows magnetic_rows(const magnetic::Result& result, std::size_t stations, Warnings&& warnings) {
  std::vector<double> values;
  std::vector<std::string> names;
  for (std::size_t k = 0; k < result.fields.size(); ++k) {
    values.insert(values.end(), result.values[k].begin(), result.values[k].end());
    names.emplace_back(magnetic::field_name(result.fields[k]));
  }
  return {numpy_rows(std::move(values), names.size(), stations), names, std::move(warnings)};
}

magnetic::Options magnetic_options(const std::string& device, const std::string& precision, bool progress,
                                   bool force) {
  magnetic::Options options;
  options.forward = forward_options(device, precision, progress, force);
  return options;
}

Rows prism_magnetic(const HostTable<3>& stations, const HostBounds& prisms, const HostColumn& magnetization_e,
                    const HostColumn& magnetization_n, const HostColumn& magnetization_u, const std::string& fields,
                    const std::string& device, const std::string& precision, bool progress,
                    bool force) {
  const auto field_list = magnetic::parse_fields(fields);
  const auto options = magnetic_options(device, precision, progress, force);
  Warnings warnings;
  const auto result = run_released(warnings, [&] {
    const auto rows = prism_rows<magnetic::MagnetizedPrism, 3>(
        prisms, {&magnetization_e, &magnetization_n, &magnetization_u});
    return magnetic::forward_magnetic(rows, rows_of<Station>(stations), field_list, options);
  });
  return magnetic_rows(result, stations.shape(0), std::move(warnings));
}

Rows layer_magnetic(const HostTable<3>& stations, const HostMatrix& surface, const std::array<double, 4>& grid,
                    double reference, const std::array<double, 3>& above, const std::array<double, 3>& below,
                    const std::string& fields, const std::string& device, const std::string& precision,
                    bool progress, bool force) {
  const auto field_list = magnetic::parse_fields(fields);
  const auto options = magnetic_options(device, precision, progress, force);
  Warnings warnings;
  const auto result = run_released(warnings, [&] {
    const magnetic::MagneticLayer layer{layer_of(surface, grid, reference, 0.0, 0.0), above, below};
    return magnetic::forward_magnetic_layer(layer, rows_of<Station>(stations), field_list, options);
  });
  return magnetic_rows(result, stations.shape(0), std::move(warnings));
}

/// Unit vector (e, n, u) of a field of this inclination and declination (degrees).
std::array<double, 3> field_direction(double inclination, double declination) {
  return magnetic::field_direction(inclination, declination);
}

#if GEOBEM_WITH_CUDA
template <int Columns>
using DeviceTable = nb::ndarray<const double, nb::shape<-1, Columns>, nb::c_contig, nb::device::cuda>;
using DeviceRows = nb::ndarray<nb::array_api, double, nb::ndim<2>, nb::device::cuda>;

/// prism_gravity on arrays in the memory of CUDA device `stations.device_id()`:
/// the rows come back as a device array exporting DLPack.
std::tuple<DeviceRows, std::vector<std::string>, Warnings> prism_gravity_on_device(
    const DeviceTable<3>& stations, const DeviceTable<7>& prisms, const std::string& fields,
    const std::string& precision, bool progress, bool force) {
  if (prisms.device_id() != stations.device_id())
    throw InputError("prism_gravity: the prisms are on CUDA device " + std::to_string(prisms.device_id()) +
                     ", the coordinates on device " + std::to_string(stations.device_id()));
  const auto field_list = gravity::parse_fields(fields);
  const auto options = forward_options("cuda", precision, progress, force);
  const std::size_t n = stations.shape(0);
  Warnings warnings;
  auto* values = run_released(warnings, [&] {
    select_cuda_device_for_rank(stations.device_id());
    auto buffer = std::make_unique<DeviceBuffer<double>>(field_list.size() * n);
    gravity::forward_model_on_device(reinterpret_cast<const Prism*>(prisms.data()), prisms.shape(0),
                                     reinterpret_cast<const Station*>(stations.data()), n, field_list, options,
                                     buffer->data());
    return buffer.release();
  });
  nb::capsule owner(values, [](void* data) noexcept { delete static_cast<DeviceBuffer<double>*>(data); });
  std::vector<std::string> names;
  for (const auto field : field_list) names.emplace_back(gravity::field_name(field));
  const std::size_t shape[2] = {field_list.size(), n};
  DeviceRows rows(values->data(), 2, shape, owner, nullptr, nb::dtype<double>(), nb::device::cuda::value,
                  stations.device_id());
  return {rows, names, std::move(warnings)};
}
#endif

}  // namespace

void bind_forward(nb::module_& m) {
  m.def("prism_gravity", &prism_gravity, nb::arg("stations"), nb::arg("prisms"), nb::arg("density"),
        nb::arg("fields"), nb::arg("device"), nb::arg("precision"), nb::arg("progress"), nb::arg("force"));
  m.def("layer_gravity", &layer_gravity, nb::arg("stations"), nb::arg("surface"), nb::arg("grid"),
        nb::arg("reference"), nb::arg("density_above"), nb::arg("density_below"), nb::arg("fields"),
        nb::arg("device"), nb::arg("precision"), nb::arg("progress"), nb::arg("force"));
  m.def("prism_magnetic", &prism_magnetic, nb::arg("stations"), nb::arg("prisms"), nb::arg("magnetization_e"),
        nb::arg("magnetization_n"), nb::arg("magnetization_u"), nb::arg("fields"), nb::arg("device"),
        nb::arg("precision"), nb::arg("progress"), nb::arg("force"));
  m.def("layer_magnetic", &layer_magnetic, nb::arg("stations"), nb::arg("surface"), nb::arg("grid"),
        nb::arg("reference"), nb::arg("magnetization_above"), nb::arg("magnetization_below"), nb::arg("fields"),
        nb::arg("device"), nb::arg("precision"), nb::arg("progress"), nb::arg("force"));
  m.def("field_direction", &field_direction, nb::arg("inclination"), nb::arg("declination"));
#if GEOBEM_WITH_CUDA
  m.def("prism_gravity_on_device", &prism_gravity_on_device, nb::arg("stations"), nb::arg("prisms"),
        nb::arg("fields"), nb::arg("precision"), nb::arg("progress"), nb::arg("force"));
  // Bytes the last call copied from the device to the host: lets the tests see that the tables stay there.
  m.def("prism_gravity_on_device_host_bytes", &gravity::forward_model_on_device_host_bytes);
#endif
}

}  // namespace geobem::python

// forward_model() and forward_model_grid(): check the input, drop
// zero-density prisms or build the weighted grid nodes, take this part's share
// of them, dispatch to the CPU or CUDA driver with a progress line, and scale
// the raw sums to the units of docs/design.md. Also the field, precision and path
// names.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include "gpu/core/field_list.hpp"
#include "gpu/core/usage_error.hpp"
#include "gpu/core/warning.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/grid_nodes.hpp"
#include "gpu/gravity/prism_kernels.hpp"

namespace geobem::gravity {
namespace {

constexpr const char* names[field_count] = {"potential", "g_e",  "g_n",  "g_z",  "g_ee",
                                            "g_en",      "g_ez", "g_nn", "g_nz", "g_zz"};

void check_prisms(const std::vector<Prism>& prisms) {
  for (std::size_t i = 0; i < prisms.size(); ++i)
    if (!valid_prism(prisms[i])) throw std::invalid_argument(prism_problem(i));
}

void check_stations(const std::vector<Station>& stations) {
  for (std::size_t i = 0; i < stations.size(); ++i)
    if (!valid_station(stations[i])) throw std::invalid_argument(station_problem(stations[i], i));
}

/// Warns when double precision cannot give the documented accuracy at some stations.
void check_far_stations(const ModelExtent& model, const std::vector<Station>& stations, Precision precision) {
  if (precision != Precision::Double || !model.measurable()) return;
  FarStations far;
  for (const Station& s : stations) {
    const double distance = model.farthest_corner(s);
    if (far_field_relative_error(distance, model.smallest_side) > far_field_accuracy) {
      ++far.count;
      far.farthest = std::max(far.farthest, distance);
    }
  }
  warn_far_stations(model, far);
}

/// The shape grid_nodes() relies on (mesh/prisms check_grid checks values too).
void check_grid_shape(const PrismGrid& grid) {
  if (grid.easting_edges.size() < 2 || grid.northing_edges.size() < 2 || grid.upward_edges.size() < 2 ||
      grid.density.size() != grid.cell_count())
    throw std::invalid_argument("forward_model_grid: the grid needs at least 2 edges per axis and one density per "
                                "cell (" + std::to_string(grid.density.size()) + " densities given)");
}

void check_options(const ForwardOptions& options) {
  if (options.parts < 1 || options.part < 0 || options.part >= options.parts)
    throw std::invalid_argument("forward_model: part " + std::to_string(options.part) + " of " +
                                std::to_string(options.parts) + " does not exist");
}

/// Share options.part of options.parts contiguous shares of `sources`.
template <typename Source>
std::vector<Source> share_of(std::vector<Source> sources, const ForwardOptions& options) {
  if (options.parts == 1) return sources;
  const std::size_t n = sources.size(), parts = static_cast<std::size_t>(options.parts);
  const std::size_t first = n * static_cast<std::size_t>(options.part) / parts;
  const std::size_t last = n * static_cast<std::size_t>(options.part + 1) / parts;
  return std::vector<Source>(sources.begin() + first, sources.begin() + last);
}

/// Raw sums of the drivers over `sources`, scaled to the field units.
template <typename Source>
ForwardResult evaluate(const std::vector<Source>& sources, const std::vector<Station>& stations,
                       const std::vector<Field>& fields, const ForwardOptions& options, const char* label,
                       const std::function<bool(const Station&)>& on_edge_or_vertex) {
  const unsigned mask = field_mask(fields);
  ProgressReporter progress(std::string("gravity ") + label + " (" + to_string(options.device) + ")",
                            static_cast<std::uint64_t>(sources.size()) * stations.size(), "source-station pairs",
                            options.quiet);
  std::vector<double> sums;
  if (options.device == ComputeDevice::Cuda) {
#if GEOBEM_WITH_CUDA
    CudaTuning tuning;
    tuning.memory_limit_bytes = options.device_memory_limit_bytes;
    sums = forward_cuda(sources, stations, mask, options.precision, progress, tuning);
#else
    throw_cuda_not_built("gravity");
#endif
  } else {
    sums = forward_cpu(sources, stations, mask, options.precision, progress);
  }
  progress.finish();
  return scaled_result(sums, mask, stations, options.precision, on_edge_or_vertex);
}

}  // namespace

ForwardResult scaled_result(const std::vector<double>& sums, unsigned mask, const std::vector<Station>& stations,
                            Precision precision, const std::function<bool(const Station&)>& on_edge_or_vertex) {
  ForwardResult result;
  for (int f = 0; f < field_count; ++f) {
    if (!(mask & (1u << f))) continue;
    const Field field = static_cast<Field>(f);
    const double scale = field_scale(field);
    std::vector<double> column(stations.size());
    // NaN is the kernels' answer on an edge or vertex (prism_kernels.hpp);
    // any other non-finite value is a rounding or overflow failure and is
    // never reported as an edge.
    std::size_t on_edge = 0, other = 0;
    for (std::size_t s = 0; s < stations.size(); ++s) {
      column[s] = scale * sums[f * stations.size() + s];
      if (std::isfinite(column[s])) continue;
      if (std::isnan(column[s]) && on_edge_or_vertex(stations[s]))
        ++on_edge;
      else
        ++other;
    }
    warn_non_finite(field, on_edge, other, precision);
    result.fields.push_back(field);
    result.values.push_back(std::move(column));
  }
  return result;
}

std::string prism_problem(std::size_t index) {
  return "forward_model: prism " + std::to_string(index) +
         " needs finite values with west < east, south < north, bottom < top";
}

std::string station_problem(const Station& station, std::size_t index) {
  if (!std::isfinite(station.easting) || !std::isfinite(station.northing) || !std::isfinite(station.upward))
    return "forward_model: station " + std::to_string(index) + " has a non-finite coordinate";
  const double largest = std::max({std::abs(station.easting), std::abs(station.northing), std::abs(station.upward)});
  return "forward_model: station " + std::to_string(index) + " has a coordinate of " + std::to_string(largest) +
         " m, beyond the 1e150 m the kernels can square";
}

void warn_far_stations(const ModelExtent& model, const FarStations& far) {
  if (far.count == 0) return;
  char message[400];
  std::snprintf(message, sizeof message,
                "%zu station(s) lie up to %.3g m from the model, whose smallest prism side is %.3g m: "
                "double precision limits the fields there to a relative accuracy of about %.1g "
                "(3 eps (distance/side)^2; %.0e is lost beyond %.3g m)",
                far.count, far.farthest, model.smallest_side, far_field_relative_error(far.farthest, model.smallest_side),
                far_field_accuracy, far_field_accuracy_distance(model.smallest_side));
  warn(message);
}

void warn_non_finite(Field field, std::size_t on_edge, std::size_t other, Precision precision) {
  if (on_edge > 0)
    warn(std::string(field_name(field)) + " is undefined (NaN) at " + std::to_string(on_edge) +
         " station(s) on a prism edge or vertex");
  if (other > 0)
    warn(std::string(field_name(field)) + " is not finite at " + std::to_string(other) +
         " station(s) that lie on no prism edge: the arithmetic overflowed (" +
         (precision == Precision::Double ? "double" : "single") + " precision)");
}

double far_field_accuracy_distance(double side) {
  return side * std::sqrt(far_field_accuracy / (3 * std::numeric_limits<double>::epsilon()));
}

const char* field_name(Field field) { return names[static_cast<int>(field)]; }

const char* field_unit(Field field) {
  const int f = static_cast<int>(field);
  if (f == 0) return "J/kg";
  return f <= 3 ? "mGal" : "Eotvos";
}

std::vector<Field> parse_fields(const std::string& list) {
  std::vector<Field> fields;
  for (int f : parse_field_list(list, names, field_count)) fields.push_back(static_cast<Field>(f));
  return fields;
}

Precision parse_precision(const std::string& text) {
  if (text == "double") return Precision::Double;
  if (text == "single") return Precision::Single;
  throw UsageError("unknown precision '" + text + "' (expected double or single)");
}

double field_scale(Field field) {
  const int f = static_cast<int>(field);
  const double unit = f == 0 ? 1.0 : (f <= 3 ? si_to_mgal : si_to_eotvos);
  return gravitational_constant * unit;
}

unsigned field_mask(const std::vector<Field>& fields) {
  unsigned mask = 0;
  for (Field field : fields) mask |= 1u << static_cast<int>(field);
  return mask;
}

ForwardPath parse_forward_path(const std::string& text) {
  if (text == "auto") return ForwardPath::Auto;
  if (text == "general") return ForwardPath::General;
  if (text == "grid") return ForwardPath::Grid;
  throw UsageError("unknown path '" + text + "' (expected auto, general or grid)");
}

const char* to_string(ForwardPath path) {
  return path == ForwardPath::Auto ? "auto" : (path == ForwardPath::General ? "general" : "grid");
}

ForwardResult forward_model(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                            const std::vector<Field>& fields, const ForwardOptions& options) {
  if (fields.empty()) throw std::invalid_argument("forward_model: the field list is empty");
  check_options(options);
  check_prisms(prisms);
  check_stations(stations);
  std::vector<Prism> massive;
  massive.reserve(prisms.size());
  ModelExtent extent;
  for (const Prism& p : prisms)
    if (p.density != 0.0) {
      massive.push_back(p);
      extent.add_box(p.west, p.east, p.south, p.north, p.bottom, p.top);
    }
  if (options.part == 0) check_far_stations(extent, stations, options.precision);
  const auto on_edge = [&massive](const Station& s) {
    for (const Prism& p : massive)
      if (on_prism_edge_or_vertex(p, s)) return true;
    return false;
  };
  return evaluate(share_of(massive, options), stations, fields, options, "prisms", on_edge);
}

#if !GEOBEM_WITH_CUDA
void forward_model_on_device(const Prism*, std::size_t, const Station*, std::size_t, const std::vector<Field>&,
                             const ForwardOptions&, double*) {
  throw_cuda_not_built("gravity on device arrays");
}
#endif

ForwardResult forward_model_grid(const PrismGrid& grid, const std::vector<Station>& stations,
                                 const std::vector<Field>& fields, const ForwardOptions& options) {
  if (fields.empty()) throw std::invalid_argument("forward_model_grid: the field list is empty");
  check_options(options);
  check_grid_shape(grid);
  check_stations(stations);
  ModelExtent extent;
  for (std::size_t i_u = 0; i_u < grid.cells_u(); ++i_u)
    for (std::size_t i_n = 0; i_n < grid.cells_n(); ++i_n)
      for (std::size_t i_e = 0; i_e < grid.cells_e(); ++i_e)
        if (grid.density[grid.index(i_e, i_n, i_u)] != 0.0)
          extent.add_box(grid.easting_edges[i_e], grid.easting_edges[i_e + 1], grid.northing_edges[i_n],
                         grid.northing_edges[i_n + 1], grid.upward_edges[i_u], grid.upward_edges[i_u + 1]);
  if (options.part == 0) check_far_stations(extent, stations, options.precision);
  // The grid path serves only stations outside the grid: none is on an edge.
  return evaluate(share_of(grid_nodes(grid), options), stations, fields, options, "grid nodes",
                  [](const Station&) { return false; });
}

}  // namespace geobem::gravity

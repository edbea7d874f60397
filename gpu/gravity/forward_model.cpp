// forward_model() and forward_model_grid(): check the input, drop
// zero-density prisms or build the weighted grid nodes, take this part's share
// of them, dispatch to the CPU or CUDA driver with a progress line, turn the
// drivers' one-sided limits into the survey side's at stations on the model
// (station_contact.hpp), scale the raw sums to the units of docs/design.md and
// estimate their rounding (rounding_estimate.hpp; its sums come from the
// drivers' pass). Also the field, precision
// and path names.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "gpu/core/field_list.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/warning.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/grid_nodes.hpp"
#include "gpu/gravity/prism_kernels.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/gravity/station_contact.hpp"

namespace geobem::gravity {
namespace {

constexpr const char* names[field_count] = {"potential", "g_e",  "g_n",  "g_z",  "g_ee",
                                            "g_en",      "g_ez", "g_nn", "g_nz", "g_zz"};

void check_stations(const std::vector<Station>& stations) {
  for (std::size_t i = 0; i < stations.size(); ++i)
    if (!valid_station(stations[i])) throw InputError(station_problem(stations[i], i));
}

/// The bounding box of a model's sources, grown box by box (empty: inverted).
struct ModelBox {
  Box box{HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
  void add(double west, double east, double south, double north, double bottom, double top) {
    const double lows[3] = {west, south, bottom}, highs[3] = {east, north, top};
    for (int a = 0; a < 3; ++a) {
      box[2 * a] = std::min(box[2 * a], lows[a]);
      box[2 * a + 1] = std::max(box[2 * a + 1], highs[a]);
    }
  }
};

/// The shape grid_nodes() relies on (mesh/prisms check_grid checks values too).
void check_grid_shape(const PrismGrid& grid) {
  if (grid.easting_edges.size() < 2 || grid.northing_edges.size() < 2 || grid.upward_edges.size() < 2 ||
      grid.density.size() != grid.cell_count())
    throw InputError("forward_model_grid: the grid needs at least 2 edges per axis and one density per "
                     "cell (" + std::to_string(grid.density.size()) + " densities given)");
}

void check_options(const ForwardOptions& options) {
  if (options.parts < 1 || options.part < 0 || options.part >= options.parts)
    throw InputError("forward_model: part " + std::to_string(options.part) + " of " +
                     std::to_string(options.parts) + " does not exist");
}

/// The first and one past the last source of share options.part of
/// options.parts contiguous shares of n sources.
std::array<std::size_t, 2> share_bounds(std::size_t n, const ForwardOptions& options) {
  const std::size_t parts = static_cast<std::size_t>(options.parts);
  return {n * static_cast<std::size_t>(options.part) / parts, n * static_cast<std::size_t>(options.part + 1) / parts};
}

/// Share options.part of options.parts contiguous shares of `sources`.
template <typename Source>
std::vector<Source> share_of(std::vector<Source> sources, const ForwardOptions& options) {
  if (options.parts == 1) return sources;
  const auto [first, last] = share_bounds(sources.size(), options);
  return std::vector<Source>(sources.begin() + first, sources.begin() + last);
}

/// Raw sums of the drivers over `sources` (10 rows), with a progress line,
/// and the rounding sums into `rounding`.
template <typename Source>
std::vector<double> driver_sums(const std::vector<Source>& sources, const std::vector<Station>& stations,
                                unsigned mask, const ForwardOptions& options, const char* label,
                                std::vector<double>& rounding) {
  ProgressReporter progress(std::string("gravity ") + label + " (" + to_string(options.device) + ")",
                            static_cast<std::uint64_t>(sources.size()) * stations.size(), "source-station pairs",
                            options.quiet);
  std::vector<double> sums = run_on(
      options.device, "gravity",
      [&] {
        CudaTuning tuning;
        tuning.memory_limit_bytes = options.device_memory_limit_bytes;
        return forward_cuda(sources, stations, mask, options.precision, progress, tuning, &rounding);
      },
      [&] { return forward_cpu(sources, stations, mask, options.precision, progress, &rounding); });
  progress.finish();
  return sums;
}

}  // namespace

ForwardResult finish_result(std::vector<double> sums, unsigned mask, const std::vector<Station>& stations,
                            const ForwardOptions& options, const StationLimits<1>& limits,
                            std::vector<double> bounds, const Box& model_box) {
  const std::size_t n = stations.size();
  apply_station_limits(limits, mask, sums, n);
  ForwardResult result;
  for (int f = 0; f < field_count; ++f) {
    if (!(mask & (1u << f))) continue;
    const Field field = static_cast<Field>(f);
    std::vector<double> column(n);
    for (std::size_t s = 0; s < n; ++s) column[s] = field_scale(field) * sums[f * n + s];
    result.fields.push_back(field);
    result.values.push_back(std::move(column));
  }
  // NaN where a tensor term has no limit (station_contact.hpp); any other
  // non-finite value is an overflow.
  std::vector<char> undefined(n, 0);
  for (std::size_t f = 0; f < result.fields.size(); ++f) {
    const int row = static_cast<int>(result.fields[f]);
    std::size_t on_edge = 0, inside = 0, other = 0;
    for (const StationLimit<1>& limit : limits) {
      if (row < 4 || !((limit.undefined[0] >> (row - 4)) & 1u)) continue;
      undefined[limit.station] = 1;
      ++((limit.interior[0] >> (row - 4)) & 1u ? inside : on_edge);
    }
    for (std::size_t s = 0; s < n; ++s)
      if (!std::isfinite(result.values[f][s]) && !(std::isnan(result.values[f][s]) && undefined[s])) ++other;
    for (const StationLimit<1>& limit : limits) undefined[limit.station] = 0;
    warn_non_finite(field_name(result.fields[f]), "densities", on_edge, inside, other, options.precision);
  }
  RoundingBudget& budget = result.budget;
  budget.precision = options.precision;
  budget.force = options.force;
  budget.sums = std::move(bounds);
  budget.distance = distances_from_box(model_box, stations);
  if (options.parts == 1) complete_estimates(result);
  return result;
}

void complete_estimates(ForwardResult& result) {
  const std::size_t n = result.values.empty() ? 0 : result.values[0].size();
  const RoundingBudget& budget = result.budget;

  std::vector<const char*> names;
  std::vector<int> groups;
  std::vector<std::vector<double>> absolute;
  for (const Field field : result.fields) {
    const int f = static_cast<int>(field);
    const int group = f == 0 ? group_potential : (f <= 3 ? group_g : group_tensor);
    names.push_back(field_name(field));
    groups.push_back(group);
    std::vector<double> bound(n);
    const double scale = field_scale(field);
#pragma omp parallel for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      const std::size_t s = static_cast<std::size_t>(i);
      bound[s] = scale * rounding_bound(budget.sums[2 * group * n + s], budget.sums[(2 * group + 1) * n + s],
                                        budget.precision);
    }
    absolute.push_back(std::move(bound));
  }
  for (const std::string& text : assess_accuracy(names, groups, result.values, absolute, budget, result.error_estimate))
    warn(text);
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

void warn_non_finite(const std::string& name, const char* property, std::size_t on_edge, std::size_t inside,
                     std::size_t overflow, Precision precision) {
  if (on_edge > 0)
    warn(name + " is undefined (NaN) at " + std::to_string(on_edge) +
         " station(s) on an edge or vertex of the model, where its limit depends on the direction of approach or "
         "diverges");
  if (inside > 0)
    warn(name + " is undefined (NaN) at " + std::to_string(inside) +
         " station(s) inside the model on a face between different " + property +
         ", where it jumps (a station moved off the face by any distance gets the field on its side)");
  if (overflow > 0)
    warn(name + " is not finite at " + std::to_string(overflow) + " station(s): the arithmetic overflowed (" +
         (precision == Precision::Double ? "double" : "single") + " precision)");
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
  throw InputError::usage("unknown precision '" + text + "' (expected double or single)");
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
  throw InputError::usage("unknown path '" + text + "' (expected auto, general or grid)");
}

const char* to_string(ForwardPath path) {
  return path == ForwardPath::Auto ? "auto" : (path == ForwardPath::General ? "general" : "grid");
}

namespace {

/// The checks of forward_model before any prism is read.
void check_call(const std::vector<Field>& fields, const ForwardOptions& options) {
  if (fields.empty()) throw InputError("forward_model: the field list is empty");
  check_options(options);
}

/// Checks each prism and grows the box of the massive ones; their count.
std::size_t check_prisms(const std::vector<Prism>& prisms, ModelBox& model) {
  std::size_t massive = 0;
  for (std::size_t i = 0; i < prisms.size(); ++i) {
    const Prism& p = prisms[i];
    if (!valid_prism(p)) throw InputError(prism_problem(i));
    if (p.density == 0.0) continue;
    model.add(p.west, p.east, p.south, p.north, p.bottom, p.top);
    ++massive;
  }
  return massive;
}

/// forward_model on checked prisms, all of nonzero density, in the box `model`.
ForwardResult forward_massive(const std::vector<Prism>& prisms, const ModelBox& model,
                              const std::vector<Station>& stations, const std::vector<Field>& fields,
                              const ForwardOptions& options) {
  check_stations(stations);
  // Part 0 alone turns the limits into the survey side's, for the whole
  // model; none where no station lies in the model's closed box.
  StationLimits<1> limits;
  if (options.part == 0 && any_station_in(model.box, stations)) {
    std::vector<Box> boxes;
    std::vector<std::array<double, 1>> densities;
    boxes.reserve(prisms.size());
    densities.reserve(prisms.size());
    for (const Prism& p : prisms) {
      boxes.push_back({p.west, p.east, p.south, p.north, p.bottom, p.top});
      densities.push_back({p.density});
    }
    limits = list_station_limits<1>(boxes, densities, stations);
  }
  const unsigned mask = field_mask(fields);
  std::vector<double> bounds;
  const auto [first, last] = share_bounds(prisms.size(), options);
  std::vector<double> sums =
      options.parts == 1
          ? driver_sums(prisms, stations, mask, options, "prisms", bounds)
          : driver_sums(std::vector<Prism>(prisms.begin() + first, prisms.begin() + last), stations, mask, options,
                        "prisms", bounds);
  return finish_result(std::move(sums), mask, stations, options, limits, std::move(bounds), model.box);
}

}  // namespace

ForwardResult forward_model(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                            const std::vector<Field>& fields, const ForwardOptions& options) {
  check_call(fields, options);
  ModelBox model;
  const std::size_t massive = check_prisms(prisms, model);
  // The caller's list itself where every prism has a density, else a list
  // of the massive ones: the drivers' shares, tiles and progress count those
  // alone.
  if (massive == prisms.size()) return forward_massive(prisms, model, stations, fields, options);
  std::vector<Prism> kept;
  kept.reserve(massive);
  for (const Prism& p : prisms)
    if (p.density != 0.0) kept.push_back(p);
  return forward_massive(kept, model, stations, fields, options);
}

ForwardResult forward_model(std::vector<Prism>&& prisms, const std::vector<Station>& stations,
                            const std::vector<Field>& fields, const ForwardOptions& options) {
  check_call(fields, options);
  ModelBox model;
  const std::size_t massive = check_prisms(prisms, model);
  // The massive prisms compacted in place: no second list.
  if (massive != prisms.size()) {
    std::size_t kept = 0;
    for (const Prism& p : prisms)
      if (p.density != 0.0) prisms[kept++] = p;
    prisms.resize(massive);
  }
  return forward_massive(prisms, model, stations, fields, options);
}

#if !GEOBEM_WITH_CUDA
void forward_model_on_device(const Prism*, std::size_t, const Station*, std::size_t, const std::vector<Field>&,
                             const ForwardOptions&, double*) {
  throw_cuda_not_built("gravity on device arrays");
}

std::size_t forward_model_on_device_host_bytes() { return 0; }
#endif

ForwardResult forward_model_grid(const PrismGrid& grid, const std::vector<Station>& stations,
                                 const std::vector<Field>& fields, const ForwardOptions& options) {
  if (fields.empty()) throw InputError("forward_model_grid: the field list is empty");
  check_options(options);
  check_grid_shape(grid);
  check_stations(stations);
  ModelBox model;
  for (std::size_t i_u = 0; i_u < grid.cells_u(); ++i_u)
    for (std::size_t i_n = 0; i_n < grid.cells_n(); ++i_n)
      for (std::size_t i_e = 0; i_e < grid.cells_e(); ++i_e)
        if (grid.density[grid.index(i_e, i_n, i_u)] != 0.0)
          model.add(grid.easting_edges[i_e], grid.easting_edges[i_e + 1], grid.northing_edges[i_n],
                    grid.northing_edges[i_n + 1], grid.upward_edges[i_u], grid.upward_edges[i_u + 1]);
  const StationLimits<1> limits = options.part == 0 ? grid_station_limits(grid, stations) : StationLimits<1>{};
  const std::vector<GridNode> share = share_of(grid_nodes(grid), options);
  const unsigned mask = field_mask(fields);
  std::vector<double> bounds;
  std::vector<double> sums = driver_sums(share, stations, mask, options, "grid nodes", bounds);
  return finish_result(std::move(sums), mask, stations, options, limits, std::move(bounds), model.box);
}

}  // namespace geobem::gravity

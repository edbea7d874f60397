// forward_model() and forward_model_grid(): check the input, drop
// zero-density prisms or build the weighted grid nodes, take this part's share
// of them, dispatch to the CPU or CUDA driver with a progress line, and scale
// the raw sums to the units of docs/design.md. Also the field, precision and path
// names.
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/grid_nodes.hpp"
#include "gpu/gravity/prism_kernels.hpp"

namespace geobem::gravity {
namespace {

constexpr const char* names[field_count] = {"potential", "g_e",  "g_n",  "g_z",  "g_ee",
                                            "g_en",      "g_ez", "g_nn", "g_nz", "g_zz"};

void check_prisms(const std::vector<Prism>& prisms) {
  for (std::size_t i = 0; i < prisms.size(); ++i) {
    const Prism& p = prisms[i];
    const bool finite = std::isfinite(p.west) && std::isfinite(p.east) && std::isfinite(p.south) &&
                        std::isfinite(p.north) && std::isfinite(p.bottom) && std::isfinite(p.top) &&
                        std::isfinite(p.density);
    if (!finite || !(p.west < p.east) || !(p.south < p.north) || !(p.bottom < p.top))
      throw std::invalid_argument("forward_model: prism " + std::to_string(i) +
                                  " needs finite values with west < east, south < north, bottom < top");
  }
}

void check_stations(const std::vector<Station>& stations) {
  for (std::size_t i = 0; i < stations.size(); ++i) {
    const Station& s = stations[i];
    if (!std::isfinite(s.easting) || !std::isfinite(s.northing) || !std::isfinite(s.upward))
      throw std::invalid_argument("forward_model: station " + std::to_string(i) + " has a non-finite coordinate");
  }
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
                       const std::vector<Field>& fields, const ForwardOptions& options, const char* label) {
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
  return scaled_result(sums, mask, stations.size(), options.quiet);
}

}  // namespace

ForwardResult scaled_result(const std::vector<double>& sums, unsigned mask, std::size_t station_count, bool quiet) {
  ForwardResult result;
  for (int f = 0; f < field_count; ++f) {
    if (!(mask & (1u << f))) continue;
    const Field field = static_cast<Field>(f);
    const double scale = field_scale(field);
    std::vector<double> column(station_count);
    std::size_t undefined = 0;
    for (std::size_t s = 0; s < station_count; ++s) {
      column[s] = scale * sums[f * station_count + s];
      if (std::isnan(column[s])) ++undefined;
    }
    if (undefined > 0 && !quiet)
      std::fprintf(stderr, "warning: %s is undefined (NaN) at %zu station(s) on a prism edge or vertex\n",
                   field_name(field), undefined);
    result.fields.push_back(field);
    result.values.push_back(std::move(column));
  }
  return result;
}

const char* field_name(Field field) { return names[static_cast<int>(field)]; }

const char* field_unit(Field field) {
  const int f = static_cast<int>(field);
  if (f == 0) return "J/kg";
  return f <= 3 ? "mGal" : "Eotvos";
}

std::vector<Field> parse_fields(const std::string& list) {
  bool wanted[field_count] = {};
  if (list == "all") {
    for (bool& w : wanted) w = true;
  } else {
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      const std::string name = list.substr(start, comma - start);
      int found = -1;
      for (int f = 0; f < field_count; ++f)
        if (name == names[f]) found = f;
      if (found < 0)
        throw std::invalid_argument("unknown field '" + name +
                                    "' (expected all or a comma-separated list of potential, g_e, g_n, g_z, "
                                    "g_ee, g_en, g_ez, g_nn, g_nz, g_zz)");
      wanted[found] = true;
      start = comma + 1;
    }
  }
  std::vector<Field> fields;
  for (int f = 0; f < field_count; ++f)
    if (wanted[f]) fields.push_back(static_cast<Field>(f));
  return fields;
}

Precision parse_precision(const std::string& text) {
  if (text == "double") return Precision::Double;
  if (text == "single") return Precision::Single;
  throw std::invalid_argument("unknown precision '" + text + "' (expected double or single)");
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
  throw std::invalid_argument("unknown path '" + text + "' (expected auto, general or grid)");
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
  for (const Prism& p : prisms)
    if (p.density != 0.0) massive.push_back(p);
  return evaluate(share_of(std::move(massive), options), stations, fields, options, "prisms");
}

ForwardResult forward_model_grid(const PrismGrid& grid, const std::vector<Station>& stations,
                                 const std::vector<Field>& fields, const ForwardOptions& options) {
  if (fields.empty()) throw std::invalid_argument("forward_model_grid: the field list is empty");
  check_options(options);
  check_grid_shape(grid);
  check_stations(stations);
  return evaluate(share_of(grid_nodes(grid), options), stations, fields, options, "grid nodes");
}

}  // namespace geobem::gravity

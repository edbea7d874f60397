// forward_model(): checks the input, drops zero-density prisms, dispatches to
// the CPU or CUDA driver with a progress line, and scales the raw sums to the
// units of DESIGN.md. Also the field and precision names.
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/gravity.hpp"
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

}  // namespace

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

ForwardResult forward_model(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                            const std::vector<Field>& fields, const ForwardOptions& options) {
  if (fields.empty()) throw std::invalid_argument("forward_model: the field list is empty");
  check_prisms(prisms);
  check_stations(stations);
  std::vector<Prism> massive;
  massive.reserve(prisms.size());
  for (const Prism& p : prisms)
    if (p.density != 0.0) massive.push_back(p);

  const unsigned mask = field_mask(fields);
  ProgressReporter progress("gravity (" + to_string(options.device) + ")",
                            static_cast<std::uint64_t>(massive.size()) * stations.size(), "prism-station pairs",
                            options.quiet);
  const std::vector<double> sums = options.device == ComputeDevice::Cuda
                                       ? forward_cuda(massive, stations, mask, options.precision, progress)
                                       : forward_cpu(massive, stations, mask, options.precision, progress);
  progress.finish();

  ForwardResult result;
  for (int f = 0; f < field_count; ++f) {
    if (!(mask & (1u << f))) continue;
    const Field field = static_cast<Field>(f);
    const double scale = field_scale(field);
    std::vector<double> column(stations.size());
    std::size_t undefined = 0;
    for (std::size_t s = 0; s < stations.size(); ++s) {
      column[s] = scale * sums[f * stations.size() + s];
      if (std::isnan(column[s])) ++undefined;
    }
    if (undefined > 0 && !options.quiet)
      std::fprintf(stderr, "warning: %s is undefined (NaN) at %zu station(s) on a prism edge or vertex\n",
                   field_name(field), undefined);
    result.fields.push_back(field);
    result.values.push_back(std::move(column));
  }
  return result;
}

}  // namespace geobem::gravity

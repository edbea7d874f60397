// forward_magnetic() and forward_magnetic_layer(): checks, this part's share
// of the sources, the OpenMP drivers (the CUDA ones are magnetic_cuda.cu),
// nT and the total-field anomaly.
#include "gpu/magnetic/magnetic.hpp"

#include <cmath>
#include <stdexcept>

#include "gpu/core/field_list.hpp"
#include "gpu/core/warning.hpp"
#include "gpu/gravity/tile_sums_cpu.hpp"
#include "gpu/magnetic/magnetic_sources.hpp"

namespace geobem::magnetic {
namespace {

constexpr const char* names[field_count] = {"b_e", "b_n", "b_u", "tfa"};
constexpr double pi = 3.14159265358979323846;
/// μ0 in H/m as Harmonica (choclo's VACUUM_MAGNETIC_PERMEABILITY).
constexpr double vacuum_permeability = 4e-7 * pi;

void check_common(const std::vector<Field>& fields, const std::vector<gravity::Station>& stations,
                  const Options& options) {
  if (fields.empty()) throw std::invalid_argument("forward_magnetic: the field list is empty");
  const auto& f = options.forward;
  if (f.parts < 1 || f.part < 0 || f.part >= f.parts)
    throw std::invalid_argument("forward_magnetic: part " + std::to_string(f.part) + " of " +
                                std::to_string(f.parts) + " does not exist");
  if (!std::isfinite(options.tfa_inclination_deg) || !std::isfinite(options.tfa_declination_deg))
    throw std::invalid_argument("forward_magnetic: non-finite inclination or declination");
  for (std::size_t i = 0; i < stations.size(); ++i)
    if (!std::isfinite(stations[i].easting) || !std::isfinite(stations[i].northing) ||
        !std::isfinite(stations[i].upward))
      throw std::invalid_argument("forward_magnetic: station " + std::to_string(i) + " has a non-finite coordinate");
}

/// Columns of `fields` in nT from the raw sums (3 rows).
Result scaled(const std::vector<double>& sums, std::size_t n, const std::vector<Field>& fields,
              const Options& options) {
  const auto direction = field_direction(options.tfa_inclination_deg, options.tfa_declination_deg);
  Result result;
  result.fields = fields;
  for (Field field : fields) {
    std::vector<double> column(n);
    std::size_t undefined = 0;
    for (std::size_t s = 0; s < n; ++s) {
      const double b[3] = {sums[s], sums[n + s], sums[2 * n + s]};
      const double value = field == Field::tfa ? b[0] * direction[0] + b[1] * direction[1] + b[2] * direction[2]
                                               : b[static_cast<int>(field)];
      column[s] = field_factor_nt * value;
      if (std::isnan(column[s])) ++undefined;
    }
    if (undefined > 0)
      warn(std::string(field_name(field)) + " is undefined (NaN) at " + std::to_string(undefined) +
           " station(s) on a prism edge or vertex");
    result.values.push_back(std::move(column));
  }
  return result;
}

template <typename Real>
std::vector<double> list_cpu(const std::vector<MagnetizedPrism>& prisms, const std::vector<gravity::Station>& stations,
                             ProgressReporter& progress) {
  return gravity::cpu_tile_sums(PrismListView{prisms.data()}, static_cast<std::int64_t>(prisms.size()), stations,
                                MagneticKernel<Real>{}, progress);
}

template <typename Real>
std::vector<double> layer_cpu(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                              const std::vector<gravity::Station>& stations, ProgressReporter& progress) {
  const auto view = magnetic_layer_view(layer.layer.geometry, layer.magnetization_above, layer.magnetization_below,
                                        layer.layer.surface.data() + first, first);
  return gravity::cpu_tile_sums(view, count, stations, MagneticKernel<Real>{}, progress);
}

bool finite3(const std::array<double, 3>& m) {
  return std::isfinite(m[0]) && std::isfinite(m[1]) && std::isfinite(m[2]);
}

}  // namespace

const char* field_name(Field field) { return names[static_cast<int>(field)]; }

std::vector<Field> parse_fields(const std::string& list) {
  std::vector<Field> fields;
  for (int f : parse_field_list(list, names, field_count)) fields.push_back(static_cast<Field>(f));
  return fields;
}

std::array<double, 3> field_direction(double inclination_deg, double declination_deg) {
  const double inc = inclination_deg * pi / 180.0, dec = declination_deg * pi / 180.0;
  return {std::cos(inc) * std::sin(dec), std::cos(inc) * std::cos(dec), -std::sin(inc)};
}

std::array<double, 3> induced_magnetization(double chi, const InducingField& field) {
  const auto d = field_direction(field.inclination_deg, field.declination_deg);
  const double m = chi * field.intensity_nt * 1e-9 / vacuum_permeability;
  return {m * d[0], m * d[1], m * d[2]};
}

std::vector<double> magnetic_sums_cpu(const std::vector<MagnetizedPrism>& prisms,
                                      const std::vector<gravity::Station>& stations, gravity::Precision precision,
                                      ProgressReporter& progress) {
  return precision == gravity::Precision::Single ? list_cpu<float>(prisms, stations, progress)
                                                 : list_cpu<double>(prisms, stations, progress);
}

std::vector<double> magnetic_layer_sums_cpu(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                                            const std::vector<gravity::Station>& stations,
                                            gravity::Precision precision, ProgressReporter& progress) {
  return precision == gravity::Precision::Single ? layer_cpu<float>(layer, first, count, stations, progress)
                                                 : layer_cpu<double>(layer, first, count, stations, progress);
}

Result forward_magnetic(const std::vector<MagnetizedPrism>& prisms, const std::vector<gravity::Station>& stations,
                        const std::vector<Field>& fields, const Options& options) {
  check_common(fields, stations, options);
  std::vector<MagnetizedPrism> share;
  const std::size_t n = prisms.size(), parts = static_cast<std::size_t>(options.forward.parts);
  const std::size_t first = n * options.forward.part / parts, last = n * (options.forward.part + 1) / parts;
  for (std::size_t i = 0; i < n; ++i) {
    const MagnetizedPrism& p = prisms[i];
    const bool finite = std::isfinite(p.west) && std::isfinite(p.east) && std::isfinite(p.south) &&
                        std::isfinite(p.north) && std::isfinite(p.bottom) && std::isfinite(p.top) &&
                        finite3({p.magnetization_e, p.magnetization_n, p.magnetization_u});
    if (!finite || !(p.west < p.east) || !(p.south < p.north) || !(p.bottom < p.top))
      throw std::invalid_argument("forward_magnetic: prism " + std::to_string(i) +
                                  " needs finite values with west < east, south < north, bottom < top");
    if (i >= first && i < last) share.push_back(p);
  }
  const auto& f = options.forward;
  ProgressReporter progress(std::string("magnetic prisms (") + to_string(f.device) + ")",
                            static_cast<std::uint64_t>(share.size()) * stations.size(), "prism-station pairs", f.quiet);
  std::vector<double> sums;
  if (f.device == ComputeDevice::Cuda) {
#if GEOBEM_WITH_CUDA
    sums = magnetic_sums_cuda(share, stations, f.precision, progress, f.device_memory_limit_bytes);
#else
    throw_cuda_not_built("magnetic prisms");
#endif
  } else {
    sums = magnetic_sums_cpu(share, stations, f.precision, progress);
  }
  progress.finish();
  return scaled(sums, stations.size(), fields, options);
}

Result forward_magnetic_layer(const MagneticLayer& layer, const std::vector<gravity::Station>& stations,
                              const std::vector<Field>& fields, const Options& options) {
  check_common(fields, stations, options);
  gravity::check_prism_layer(layer.layer);
  if (!finite3(layer.magnetization_above) || !finite3(layer.magnetization_below))
    throw std::invalid_argument("forward_magnetic_layer: non-finite magnetization");
  const auto& f = options.forward;
  const std::int64_t cells = static_cast<std::int64_t>(layer.layer.cell_count());
  const std::int64_t first = cells * f.part / f.parts, count = cells * (f.part + 1) / f.parts - first;
  ProgressReporter progress(std::string("magnetic prism layer (") + to_string(f.device) + ")",
                            static_cast<std::uint64_t>(count) * stations.size(), "cell-station pairs", f.quiet);
  std::vector<double> sums;
  if (f.device == ComputeDevice::Cuda) {
#if GEOBEM_WITH_CUDA
    sums = magnetic_layer_sums_cuda(layer, first, count, stations, f.precision, progress, f.device_memory_limit_bytes);
#else
    throw_cuda_not_built("magnetic prism layer");
#endif
  } else {
    sums = magnetic_layer_sums_cpu(layer, first, count, stations, f.precision, progress);
  }
  progress.finish();
  return scaled(sums, stations.size(), fields, options);
}

}  // namespace geobem::magnetic

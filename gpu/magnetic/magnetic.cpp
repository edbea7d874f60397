// forward_magnetic() and forward_magnetic_layer(): checks, this part's share
// of the sources, the OpenMP drivers (the source × station launcher of
// gpu/potential; the CUDA ones are magnetic_cuda.cu), the limits at stations
// on the model (gravity/station_contact.hpp with each magnetization component
// as a density), nT, the total-field anomaly and the rounding estimates
// (gravity/rounding_estimate.hpp; their sums from the drivers' pass).
#include "gpu/magnetic/magnetic.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "gpu/core/field_list.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/core/warning.hpp"
#include "gpu/gravity/forward_checks.hpp"
#include "gpu/gravity/layer_share.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/gravity/station_contact.hpp"
#include "gpu/magnetic/magnetic_sources.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cpu.hpp"

namespace geobem::magnetic {
namespace {

using gravity::StationLimit;
using gravity::StationLimits;

constexpr const char* names[field_count] = {"b_e", "b_n", "b_u", "tfa"};
/// μ0 in H/m (CODATA 2018: 4π · 1.00000000055e-7).
constexpr double vacuum_permeability = 4 * kPi * mu0_over_4pi;

void check_common(const std::vector<Field>& fields, const std::vector<gravity::Station>& stations,
                  const Options& options) {
  if (fields.empty()) throw InputError("forward_magnetic: the field list is empty");
  const auto& f = options.forward;
  if (f.parts < 1 || f.part < 0 || f.part >= f.parts)
    throw InputError("forward_magnetic: part " + std::to_string(f.part) + " of " +
                     std::to_string(f.parts) + " does not exist");
  if (!std::isfinite(options.tfa_inclination_deg) || !std::isfinite(options.tfa_declination_deg))
    throw InputError("forward_magnetic: non-finite inclination or declination");
  for (std::size_t i = 0; i < stations.size(); ++i)
    if (!std::isfinite(stations[i].easting) || !std::isfinite(stations[i].northing) ||
        !std::isfinite(stations[i].upward))
      throw InputError("forward_magnetic: station " + std::to_string(i) + " has a non-finite coordinate");
}

/// The result from this part's raw sums (3 rows): the limits applied (given
/// on part 0 alone), nT, the TFA, warnings for undefined and non-finite
/// values, and the rounding budget; complete when parts is 1.
Result finish(std::vector<double> sums, const std::vector<gravity::Station>& stations,
              const std::vector<Field>& fields, const Options& options, const StationLimits<3>& limits,
              std::vector<double> bounds, const std::array<double, 6>& model_box) {
  const std::size_t n = stations.size();
  const auto& forward = options.forward;
  // b_i gains the shift of T_ii of component i (B jumps by μ0·M_i across a
  // face normal to i); it has no limit where some T_ij of a component j has
  // none. undefined[s]: bit i for b_i, bit 3 + i where that is only for want
  // of an empty side (inside the model).
  std::vector<unsigned> undefined(n, 0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const StationLimit<3>& limit : limits) {
    for (int i = 0; i < 3; ++i) {
      sums[i * n + limit.station] += limit.shift[i][i];
      bool none = false, inside = true;
      for (int j = 0; j < 3; ++j) {
        const unsigned entry = gravity::tensor_entry(i, j);
        if (!(limit.undefined[j] & entry)) continue;
        none = true;
        inside = inside && (limit.interior[j] & entry);
      }
      if (!none) continue;
      sums[i * n + limit.station] = nan;
      undefined[limit.station] |= (1u << i) | (inside ? 1u << (3 + i) : 0u);
    }
  }
  Result result;
  result.fields = fields;
  result.tfa_direction = field_direction(options.tfa_inclination_deg, options.tfa_declination_deg);
  const auto& direction = result.tfa_direction;
  for (const Field field : fields) {
    std::vector<double> column(n);
    std::size_t on_edge = 0, inside = 0, overflow = 0;
    for (std::size_t s = 0; s < n; ++s) {
      double value = 0;
      unsigned used = 0;  // the components this field takes
      if (field == Field::tfa) {
        for (int i = 0; i < 3; ++i)
          if (direction[i] != 0.0) {
            value += sums[i * n + s] * direction[i];
            used |= 1u << i;
          }
      } else {
        const int i = static_cast<int>(field);
        value = sums[i * n + s];
        used = 1u << i;
      }
      column[s] = field_factor_nt * value;
      if (std::isfinite(column[s])) continue;
      if (std::isnan(column[s]) && (undefined[s] & used)) {
        // Inside the model when every component it lacks lacks only a side.
        ++(((undefined[s] >> 3) & used) == (undefined[s] & used & 7u) ? inside : on_edge);
      } else {
        ++overflow;
      }
    }
    gravity::warn_non_finite(field_name(field), "magnetizations", on_edge, inside, overflow, forward.precision);
    result.values.push_back(std::move(column));
  }
  gravity::RoundingBudget& budget = result.budget;
  budget.precision = forward.precision;
  budget.force = forward.force;
  budget.sums = std::move(bounds);
  budget.distance = gravity::distances_from_box(model_box, stations);
  if (forward.parts == 1) complete_estimates(result);
  return result;
}

/// MagneticKernel in Real over view.item(0 … count − 1), with
/// MagneticRoundingKernel where `rounding` is given: in a pass of its own or
/// in the same one (gravity::rounding_pass_apart), as on the GPU.
template <typename Real, typename View>
std::vector<double> cpu_sums_in(const View& view, std::int64_t count, const std::vector<gravity::Station>& stations,
                                ProgressReporter& progress, std::vector<double>* rounding) {
  return potential::two_kernel_sums_cpu<gravity::rounding_pass_apart<Real, MagnetizedPrism>>(
      view, count, stations, MagneticKernel<Real>{}, MagneticRoundingKernel<Real>{}, rounding, progress);
}

/// cpu_sums_in for Real of `precision`.
template <typename View>
std::vector<double> cpu_sums(const View& view, std::int64_t count, const std::vector<gravity::Station>& stations,
                             gravity::Precision precision, ProgressReporter& progress, std::vector<double>* rounding) {
  return precision == gravity::Precision::Single ? cpu_sums_in<float>(view, count, stations, progress, rounding)
                                                 : cpu_sums_in<double>(view, count, stations, progress, rounding);
}

potential::ListView<MagnetizedPrism> list_view(const std::vector<MagnetizedPrism>& prisms) {
  return {prisms.data()};
}

/// Cells [first, …) of the layer.
MagneticLayerView cells_view(const MagneticLayer& layer, std::int64_t first) {
  return magnetic_layer_view(layer.layer.geometry, layer.magnetization_above, layer.magnetization_below,
                             layer.layer.surface.data() + first, first);
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
  const double inc = inclination_deg * kPi / 180.0, dec = declination_deg * kPi / 180.0;
  return {std::cos(inc) * std::sin(dec), std::cos(inc) * std::cos(dec), -std::sin(inc)};
}

std::array<double, 3> induced_magnetization(double chi, const InducingField& field) {
  const auto d = field_direction(field.inclination_deg, field.declination_deg);
  const double m = chi * field.intensity_nt * 1e-9 / vacuum_permeability;
  return {m * d[0], m * d[1], m * d[2]};
}

std::vector<double> magnetic_sums_cpu(const std::vector<MagnetizedPrism>& prisms,
                                      const std::vector<gravity::Station>& stations, gravity::Precision precision,
                                      ProgressReporter& progress, std::vector<double>* rounding) {
  return cpu_sums(list_view(prisms), static_cast<std::int64_t>(prisms.size()), stations, precision, progress,
                  rounding);
}

std::vector<double> magnetic_layer_sums_cpu(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                                            const std::vector<gravity::Station>& stations,
                                            gravity::Precision precision, ProgressReporter& progress,
                                            std::vector<double>* rounding) {
  return cpu_sums(cells_view(layer, first), count, stations, precision, progress, rounding);
}

void complete_estimates(Result& result) {
  const std::size_t n = result.values.empty() ? 0 : result.values[0].size();
  const gravity::RoundingBudget& budget = result.budget;

  // Each component's error is within the bound; the TFA's within Σ|F̂_i| of it.
  const auto& d = result.tfa_direction;
  const double tfa_factor = std::abs(d[0]) + std::abs(d[1]) + std::abs(d[2]);
  std::vector<const char*> field_names;
  std::vector<int> groups;
  std::vector<std::vector<double>> absolute;
  for (const Field field : result.fields) {
    field_names.push_back(field_name(field));
    groups.push_back(0);
    const double factor = field == Field::tfa ? tfa_factor : 1.0;
    std::vector<double> bound(n);
    for (std::size_t s = 0; s < n; ++s)
      bound[s] = factor * field_factor_nt * gravity::rounding_bound(budget.sums[s], budget.sums[n + s], budget.precision);
    absolute.push_back(std::move(bound));
  }
  for (const std::string& text :
       gravity::assess_accuracy(field_names, groups, result.values, absolute, budget, result.error_estimate))
    warn(text);
}

Result forward_magnetic(const std::vector<MagnetizedPrism>& prisms, const std::vector<gravity::Station>& stations,
                        const std::vector<Field>& fields, const Options& options) {
  check_common(fields, stations, options);
  std::vector<MagnetizedPrism> share;
  std::vector<gravity::Box> boxes;
  std::vector<std::array<double, 3>> magnetizations;
  gravity::Box model{HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
  const std::size_t n = prisms.size(), parts = static_cast<std::size_t>(options.forward.parts);
  const std::size_t first = n * options.forward.part / parts, last = n * (options.forward.part + 1) / parts;
  for (std::size_t i = 0; i < n; ++i) {
    const MagnetizedPrism& p = prisms[i];
    const std::array<double, 3> m{p.magnetization_e, p.magnetization_n, p.magnetization_u};
    const bool finite = std::isfinite(p.west) && std::isfinite(p.east) && std::isfinite(p.south) &&
                        std::isfinite(p.north) && std::isfinite(p.bottom) && std::isfinite(p.top) && finite3(m);
    if (!finite || !(p.west < p.east) || !(p.south < p.north) || !(p.bottom < p.top))
      throw InputError("forward_magnetic: prism " + std::to_string(i) +
                       " needs finite values with west < east, south < north, bottom < top");
    if (i >= first && i < last) share.push_back(p);
    if (m[0] == 0.0 && m[1] == 0.0 && m[2] == 0.0) continue;
    boxes.push_back({p.west, p.east, p.south, p.north, p.bottom, p.top});
    magnetizations.push_back(m);
    const gravity::Box& b = boxes.back();
    for (int a = 0; a < 3; ++a) {
      model[2 * a] = std::min(model[2 * a], b[2 * a]);
      model[2 * a + 1] = std::max(model[2 * a + 1], b[2 * a + 1]);
    }
  }
  const auto& f = options.forward;
  const StationLimits<3> limits =
      f.part == 0 ? gravity::list_station_limits<3>(boxes, magnetizations, stations) : StationLimits<3>{};
  ProgressReporter progress(std::string("magnetic prisms (") + to_string(f.device) + ")",
                            static_cast<std::uint64_t>(share.size()) * stations.size(), "prism-station pairs", f.quiet);
  std::vector<double> bounds;
  std::vector<double> sums = run_on(
      f.device, "magnetic prisms",
      [&] { return magnetic_sums_cuda(share, stations, f.precision, progress, f.device_memory_limit_bytes, &bounds); },
      [&] { return magnetic_sums_cpu(share, stations, f.precision, progress, &bounds); });
  progress.finish();
  return finish(std::move(sums), stations, fields, options, limits, std::move(bounds), model);
}

Result forward_magnetic_layer(const MagneticLayer& layer, const std::vector<gravity::Station>& stations,
                              const std::vector<Field>& fields, const Options& options) {
  check_common(fields, stations, options);
  gravity::check_prism_layer(layer.layer);
  if (!finite3(layer.magnetization_above) || !finite3(layer.magnetization_below))
    throw InputError("forward_magnetic_layer: non-finite magnetization");
  const auto& f = options.forward;
  const gravity::LayerShare share = gravity::layer_share(layer.layer, f);
  const StationLimits<3> limits =
      f.part == 0 ? gravity::layer_station_limits<3>(layer.layer.geometry, layer.layer.surface,
                                                     layer.magnetization_above, layer.magnetization_below, stations)
                  : StationLimits<3>{};
  std::vector<double> bounds;
  std::vector<double> sums = gravity::layer_share_sums(
      "magnetic prism layer", f, share, stations.size(),
      [&](ProgressReporter& progress) {
        return magnetic_layer_sums_cuda(layer, share.first, share.count, stations, f.precision, progress,
                                        f.device_memory_limit_bytes, &bounds);
      },
      [&](ProgressReporter& progress) {
        return magnetic_layer_sums_cpu(layer, share.first, share.count, stations, f.precision, progress, &bounds);
      });
  const auto magnetized = [](const std::array<double, 3>& m) { return m[0] != 0.0 || m[1] != 0.0 || m[2] != 0.0; };
  return finish(std::move(sums), stations, fields, options, limits, std::move(bounds),
                gravity::cells_box(layer.layer, magnetized(layer.magnetization_above),
                                   magnetized(layer.magnetization_below)));
}

}  // namespace geobem::magnetic

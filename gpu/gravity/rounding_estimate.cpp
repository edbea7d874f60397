// The rounding estimates of rounding_estimate.hpp: the sums of squared
// bounds over the sources (OpenMP here, CUDA in rounding_estimate_cuda.cu,
// through the source × station launcher), the relative estimates of a
// complete result and their warnings.
#include "gpu/gravity/rounding_estimate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "gpu/core/usage_error.hpp"
#include "gpu/gravity/layer_sources.hpp"
#include "gpu/gravity/rounding_estimate_cuda.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cpu.hpp"

namespace geobem::gravity {
namespace {

template <typename Real, typename View>
std::vector<double> cpu_sums(const View& view, std::int64_t count, const std::vector<Station>& stations) {
  ProgressReporter silent("", 1, "", true);
  return potential::station_sums_cpu(view, count, stations, RoundingKernel<Real>{}, silent);
}

template <typename View>
std::vector<double> sums_on(const View& view, std::int64_t count, const std::vector<Station>& stations,
                            Precision precision) {
  return precision == Precision::Single ? cpu_sums<float>(view, count, stations)
                                        : cpu_sums<double>(view, count, stations);
}

/// rounding_sums over a list of prisms or grid nodes.
template <typename Source>
std::vector<double> list_sums(const std::vector<Source>& sources, const std::vector<Station>& stations,
                              Precision precision, ComputeDevice device, std::size_t memory_limit_bytes) {
  if (device == ComputeDevice::Cuda) {
#if GEOBEM_WITH_CUDA
    return rounding_sums_cuda(sources, stations, precision, memory_limit_bytes);
#else
    throw_cuda_not_built("rounding estimate");
#endif
  }
  return sums_on(potential::ListView<Source>{sources.data()}, static_cast<std::int64_t>(sources.size()), stations,
                 precision);
}

/// "%.2g" of a number.
std::string short_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", x);
  return text;
}

}  // namespace

double accuracy_goal(Precision precision) { return precision == Precision::Single ? 1e-3 : 1e-6; }

std::vector<double> rounding_sums(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                                  Precision precision, ComputeDevice device, std::size_t memory_limit_bytes) {
  return list_sums(prisms, stations, precision, device, memory_limit_bytes);
}

std::vector<double> rounding_sums(const std::vector<GridNode>& nodes, const std::vector<Station>& stations,
                                  Precision precision, ComputeDevice device, std::size_t memory_limit_bytes) {
  return list_sums(nodes, stations, precision, device, memory_limit_bytes);
}

std::vector<double> rounding_sums(const PrismLayer& layer, std::int64_t first, std::int64_t count,
                                     const std::vector<Station>& stations, Precision precision, ComputeDevice device,
                                     std::size_t memory_limit_bytes) {
  if (device == ComputeDevice::Cuda) {
#if GEOBEM_WITH_CUDA
    return rounding_sums_cuda(layer, first, count, stations, precision, memory_limit_bytes);
#else
    throw_cuda_not_built("rounding estimate");
#endif
  }
  return sums_on(LayerView{layer.geometry, layer.surface.data() + first, first}, count, stations, precision);
}

std::vector<double> distances_from_box(const std::array<double, 6>& box, const std::vector<Station>& stations) {
  std::vector<double> distance(stations.size());
  for (std::size_t s = 0; s < stations.size(); ++s) {
    const double x[3] = {stations[s].easting, stations[s].northing, stations[s].upward};
    double squared = 0;
    for (int a = 0; a < 3; ++a) {
      const double outside = std::max({box[2 * a] - x[a], x[a] - box[2 * a + 1], 0.0});
      squared += outside * outside;
    }
    distance[s] = std::sqrt(squared);
  }
  return distance;
}

std::vector<std::string> assess_accuracy(const std::vector<const char*>& names, const std::vector<int>& groups,
                                         const std::vector<std::vector<double>>& values,
                                         const std::vector<std::vector<double>>& absolute,
                                         const RoundingBudget& budget, std::vector<std::vector<double>>& estimate) {
  const std::size_t fields = values.size(), n = fields ? values[0].size() : 0;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  estimate.assign(fields, std::vector<double>(n, nan));
  const double goal = accuracy_goal(budget.precision);
  // A group that vanishes at a station (g at the centre of a symmetric
  // body) is measured against its largest magnitude over the stations.
  std::vector<double> survey_scale(fields, 0.0);
  for (std::size_t f = 0; f < fields; ++f)
    for (std::size_t s = 0; s < n; ++s)
      if (std::isfinite(values[f][s]))
        for (std::size_t g = 0; g < fields; ++g)
          if (groups[g] == groups[f]) survey_scale[g] = std::max(survey_scale[g], std::abs(values[f][s]));
  std::size_t missing = 0, worst_field = 0, worst_station = 0;
  double worst = -1, best_station = HUGE_VAL;
  bool any_defined = false;
  for (std::size_t s = 0; s < n; ++s) {
    double station_worst = -1;
    for (std::size_t f = 0; f < fields; ++f) {
      if (std::isnan(values[f][s])) continue;
      double scale = 0;
      for (std::size_t g = 0; g < fields; ++g)
        if (groups[g] == groups[f] && std::isfinite(values[g][s])) scale = std::max(scale, std::abs(values[g][s]));
      // Relative to the smallest magnitude the group can have, so that a
      // value swamped by its error cannot make the estimate look small.
      const double magnitude = (scale > 0 ? scale : survey_scale[f]) - absolute[f][s];
      const double relative = magnitude > 0 ? absolute[f][s] / magnitude : HUGE_VAL;
      estimate[f][s] = relative;
      if (relative > station_worst) station_worst = relative;
      if (relative > worst) {
        worst = relative;
        worst_field = f;
        worst_station = s;
      }
    }
    if (station_worst < 0) continue;  // every field undefined
    any_defined = true;
    if (station_worst > goal) ++missing;
    best_station = std::min(best_station, station_worst);
  }
  std::vector<std::string> warnings;
  const char* precision = budget.precision == Precision::Single ? "single" : "double";
  if (missing > 0)
    warnings.push_back(std::to_string(missing) + " station(s) miss the relative accuracy of " + short_number(goal) +
                       " that " + precision + " precision is meant to give: the estimated rounding error reaches " +
                       short_number(worst) + " (" + names[worst_field] + " at station " +
                       std::to_string(worst_station) + ", " + short_number(budget.distance[worst_station]) +
                       " m from the model; docs/readers.md#accuracy-of-the-fields)");
  if (budget.precision == Precision::Single && !budget.force && any_defined && best_station > single_precision_floor)
    throw UsageError("single precision cannot give a relative accuracy of " + short_number(single_precision_floor) +
                     " at any station (the smallest estimated rounding error is " + short_number(best_station) +
                     "): compute in double precision, or force single precision (--force)");
  return warnings;
}

}  // namespace geobem::gravity

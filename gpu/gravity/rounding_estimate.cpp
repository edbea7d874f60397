// The rounding estimates of rounding_estimate.hpp (their sums come from the
// drivers' pass, RoundingKernel beside the field kernel): the relative
// estimates of a complete result and their warnings. The per-station loops
// run on all OpenMP threads: on a large survey they are most of a public
// call's host time after the device's sums.
#include "gpu/gravity/rounding_estimate.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "gpu/core/input_error.hpp"

namespace geobem::gravity {
namespace {

/// "%.2g" of a number.
std::string short_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2g", x);
  return text;
}

}  // namespace

double accuracy_goal(Precision precision) { return precision == Precision::Single ? 1e-3 : 1e-6; }

std::vector<double> distances_from_box(const std::array<double, 6>& box, const std::vector<Station>& stations) {
  std::vector<double> distance(stations.size());
  const std::int64_t n = static_cast<std::int64_t>(stations.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < n; ++s) {
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
  if (fields > static_cast<std::size_t>(max_estimated_fields))
    throw InputError("assess_accuracy: " + std::to_string(fields) + " fields, at most " +
                     std::to_string(max_estimated_fields));
  estimate.assign(fields, std::vector<double>(n, std::numeric_limits<double>::quiet_NaN()));
  const double goal = accuracy_goal(budget.precision);
  // A group that vanishes at a station (g at the centre of a symmetric
  // body) is measured against its largest magnitude over the stations.
  double survey_scale[max_estimated_fields] = {};
  for (std::size_t f = 0; f < fields; ++f)
    for (std::size_t s = 0; s < n; ++s)
      if (std::isfinite(values[f][s]))
        for (std::size_t g = 0; g < fields; ++g)
          if (groups[g] == groups[f]) survey_scale[g] = std::max(survey_scale[g], std::abs(values[f][s]));
  // Each thread summarizes a contiguous block of stations (static schedule,
  // blocks in thread order); merged in that order, the first station that
  // reaches the worst estimate is the one reported, as in a single pass.
  std::vector<AccuracySummary> blocks(static_cast<std::size_t>(omp_get_max_threads()));
#pragma omp parallel num_threads(static_cast<int>(blocks.size()))
  {
    AccuracySummary& block = blocks[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < static_cast<std::int64_t>(n); ++i) {
      const std::size_t s = static_cast<std::size_t>(i);
      double at[max_estimated_fields], bound[max_estimated_fields], relative[max_estimated_fields];
      for (std::size_t f = 0; f < fields; ++f) {
        at[f] = values[f][s];
        bound[f] = absolute[f][s];
      }
      int field = 0;
      const double station_worst =
          station_estimates(static_cast<int>(fields), groups.data(), at, bound, survey_scale, relative, &field);
      for (std::size_t f = 0; f < fields; ++f) estimate[f][s] = relative[f];
      if (station_worst < 0) continue;  // every field undefined
      block.any_defined = true;
      if (station_worst > goal) ++block.missing;
      block.best_station = std::min(block.best_station, station_worst);
      if (station_worst > block.worst) {
        block.worst = station_worst;
        block.worst_field = static_cast<std::size_t>(field);
        block.worst_station = s;
      }
    }
  }
  AccuracySummary summary;
  for (const AccuracySummary& block : blocks) {
    summary.any_defined = summary.any_defined || block.any_defined;
    summary.missing += block.missing;
    summary.best_station = std::min(summary.best_station, block.best_station);
    if (block.worst > summary.worst) {
      summary.worst = block.worst;
      summary.worst_field = block.worst_field;
      summary.worst_station = block.worst_station;
    }
  }
  const double distance = summary.missing > 0 ? budget.distance[summary.worst_station] : 0.0;
  return accuracy_warnings(summary, names, budget.precision, budget.force, distance);
}

std::vector<std::string> accuracy_warnings(const AccuracySummary& summary, const std::vector<const char*>& names,
                                           Precision precision, bool force, double worst_distance) {
  std::vector<std::string> warnings;
  const char* word = precision == Precision::Single ? "single" : "double";
  if (summary.missing > 0)
    warnings.push_back(std::to_string(summary.missing) + " station(s) miss the relative accuracy of " +
                       short_number(accuracy_goal(precision)) + " that " + word +
                       " precision is meant to give: the estimated rounding error reaches " +
                       short_number(summary.worst) + " (" + names[summary.worst_field] + " at station " +
                       std::to_string(summary.worst_station) + ", " + short_number(worst_distance) +
                       " m from the model; docs/readers.md#accuracy-of-the-fields)");
  if (precision == Precision::Single && !force && summary.any_defined && summary.best_station > single_precision_floor)
    throw InputError::usage("single precision cannot give a relative accuracy of " +
                            short_number(single_precision_floor) +
                            " at any station (the smallest estimated rounding error is " +
                            short_number(summary.best_station) +
                            "): compute in double precision, or force single precision (--force)");
  return warnings;
}

}  // namespace geobem::gravity

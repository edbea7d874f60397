#pragma once
// Probes of geobem-time: the displacement at chosen places over time.
#include <array>
#include <string>
#include <vector>

#include "gpu/bem/bem_model.hpp"

namespace geobem::cq_stage {

/// A probe is a weighted mean of nodal displacements: one node (weight 1)
/// for a point, the nodes of a group weighted by area/3 of each of their
/// triangles for a group (the exact mean of the piecewise linear
/// displacement over the group's surface).
struct Probe {
  std::string description;  ///< what it measures, for the CSV header and stderr
  std::vector<int> nodes;
  std::vector<double> weights;  ///< sum to 1
};

/// The node nearest to `point` (m).
Probe nearest_node_probe(const bem::BemModel& model, const std::array<double, 3>& point);

/// The area-weighted mean over group `name`; throws InputError
/// naming the group (and the groups there are) when the model lacks it.
Probe group_mean_probe(const bem::BemModel& model, const std::string& name);

/// Displacement (m, 3 components) of the probe at time step `step` of
/// solve_cq's unknowns; fixed nodes have zero displacement.
std::array<double, 3> probe_displacement(const bem::BemModel& model, const std::vector<double>& unknowns, int step,
                                         const Probe& probe);

}  // namespace geobem::cq_stage

#include "stages/time/cavity_problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>

#include "gpu/core/input_error.hpp"

namespace geobem::cq_stage {

namespace {

/// Centre c of the sphere through `points` in the least-squares sense of
/// |x|² = 2 c·x + (R² − |c|²), linear in (c, R² − |c|²): the normal
/// equations, 4 × 4, by Gaussian elimination with partial pivoting. The mean
/// of the nodes would do for an even spread of them; Gmsh's is not even.
bem::Vec3 fitted_sphere_centre(const std::vector<bem::Vec3>& points) {
  double a[4][5] = {};
  for (const bem::Vec3& x : points) {
    const double row[4] = {2 * x.x, 2 * x.y, 2 * x.z, 1.0}, rhs = dot(x, x);
    for (int i = 0; i < 4; ++i) {
      for (int j = 0; j < 4; ++j) a[i][j] += row[i] * row[j];
      a[i][4] += row[i] * rhs;
    }
  }
  for (int k = 0; k < 4; ++k) {
    int pivot = k;
    for (int i = k + 1; i < 4; ++i)
      if (std::abs(a[i][k]) > std::abs(a[pivot][k])) pivot = i;
    std::swap(a[k], a[pivot]);
    if (a[k][k] == 0) throw InputError("--closed-form cavity: the nodes lie in one plane: not a sphere");
    for (int i = k + 1; i < 4; ++i) {
      const double f = a[i][k] / a[k][k];
      for (int j = k; j < 5; ++j) a[i][j] -= f * a[k][j];
    }
  }
  double c[4];
  for (int k = 3; k >= 0; --k) {
    c[k] = a[k][4];
    for (int j = k + 1; j < 4; ++j) c[k] -= a[k][j] * c[j];
    c[k] /= a[k][k];
  }
  return {c[0], c[1], c[2]};
}

}  // namespace

CavityProblem cavity_problem_of(const bem::BemModel& model) {
  const std::string what = "--closed-form cavity: ";
  if (!model.unbounded_solid)
    throw InputError(what + "the mesh bounds a finite body, not a cavity in an unbounded solid");
  if (model.load_case_count() != 1 || !model.fixed_elements.empty())
    throw InputError(what + "needs one loaded group and no fixed one (the model has " +
                     std::to_string(model.load_case_count()) + " load cases and " +
                     std::to_string(model.fixed_elements.size()) + " fixed elements)");
  CavityProblem problem;
  double pressure = 0;
  for (std::size_t e = 0; e < model.areas.size(); ++e) {
    const bem::Vec3 t = model.element_traction[e], n = model.normals[e];
    const double p = -dot(t, n);
    const double off = bem::norm(t + p * n);
    if (model.element_load_case[e] != 0 || off > 1e-9 * std::abs(p) || (e > 0 && std::abs(p - pressure) > 1e-9 * std::abs(pressure)))
      throw InputError(what + "needs one uniform pressure on the whole surface (element " +
                       std::to_string(e) + " differs)");
    pressure = p;
  }
  problem.centre = fitted_sphere_centre(model.nodes);
  double radius = 0, smallest = 1e300, largest = 0;
  for (const bem::Vec3& x : model.nodes) {
    const double r = norm(x - problem.centre);
    radius += r / model.nodes.size();
    smallest = std::min(smallest, r);
    largest = std::max(largest, r);
  }
  if (largest - smallest > 0.02 * radius) {
    char text[200];
    std::snprintf(text, sizeof text, "the nodes lie %.6g to %.6g m from their centre: not a sphere", smallest,
                  largest);
    throw InputError(what + text);
  }
  const bem::Material& m = model.material;
  const double poisson_ratio = m.lame_lambda / (2 * (m.lame_lambda + m.shear_modulus));
  problem.cavity = {radius, pressure, m.shear_modulus, poisson_ratio, m.density};
  return problem;
}

double wall_mean_radial_displacement(const bem::BemModel& model, const CavityProblem& problem,
                                     const std::vector<double>& unknowns, int step) {
  const std::size_t n = model.unknown_count();
  double sum = 0;
  for (std::size_t p = 0; p < model.free_nodes.size(); ++p)
    sum += problem.radial(model.nodes[model.free_nodes[p]], &unknowns[step * n + 3 * p]);
  return sum / model.free_nodes.size();
}

}  // namespace geobem::cq_stage

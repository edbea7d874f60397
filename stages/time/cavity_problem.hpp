#pragma once
// The pressurized spherical cavity a BEM model describes, for geobem-time's
// --closed-form cavity: Sharpe's closed form (gpu/bem/cavity_closed_form.hpp)
// beside the wall's mean radial displacement and each receiver's.
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/cavity_closed_form.hpp"

namespace geobem::cq_stage {

struct CavityProblem {
  bem::SphericalCavity cavity;
  bem::Vec3 centre;  ///< m
  /// Radial component (x − centre)·u/|x − centre| of u at x.
  double radial(const bem::Vec3& x, const double u[3]) const {
    const bem::Vec3 d = x - centre;
    return (d.x * u[0] + d.y * u[1] + d.z * u[2]) / bem::norm(d);
  }
};

/// The cavity of `model`: an unbounded solid around one closed surface, all
/// of it free and the one load case, a uniform pressure p (traction −p n on
/// every element); centre that of the sphere fitted to the nodes (least
/// squares), radius their mean distance from it, μ, ν, ρ the model's. Throws InputError saying which
/// of these the model breaks (a bounded solid, another load, fixed
/// elements, nodes farther than 1 % of the radius from the sphere).
CavityProblem cavity_problem_of(const bem::BemModel& model);

/// Mean over the free nodes of the radial displacement at time step `step`
/// of solve_cq's unknowns (m): the wall displacement Sharpe's form gives.
double wall_mean_radial_displacement(const bem::BemModel& model, const CavityProblem& problem,
                                     const std::vector<double>& unknowns, int step);

}  // namespace geobem::cq_stage

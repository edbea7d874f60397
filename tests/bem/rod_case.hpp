#pragma once
// The rod benchmark as every BEM test and benchmark sets it up: a steel bar
// 3 m × 1 m × 1 m (E = 2.1e11 Pa, ρ = 7850 kg/m³, ν = 0) fixed on x_min,
// pulled on x_max by p = 1 MPa along +x, the other faces traction-free; and
// the free-end error against the 1D closed form (gpu/bem/rod_closed_form.hpp).
#include <cmath>
#include <string>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/convolution_quadrature.hpp"
#include "gpu/bem/rod_closed_form.hpp"
#include "mesh/surface/box_generator.hpp"
#include "stages/cq_stage/cq_problem.hpp"

namespace geobem::test {

constexpr double rod_young = 2.1e11, rod_density = 7850.0, rod_pressure = 1e6, rod_length = 3.0;
/// Element sizes of the generator: 112 triangles (2 cells across), 1,008 (6 across).
constexpr double rod_h112 = 0.7072, rod_h1008 = 0.24;

/// The rod's material (geobem-laplace has no default one) ...
inline const std::string rod_material = " --young-modulus 2.1e11 --poisson-ratio 0 --density 7850";
/// ... and its boundary conditions with it, on a stage's command line.
inline const std::string rod_conditions =
    " --fixed x_min --free y_min,y_max,z_min,z_max --traction x_max=1e6:1,0,0" + rod_material;

inline surface::SurfaceMesh rod_mesh(double element_size) {
  return surface::generate_box_surface({rod_length, 1.0, 1.0}, {0.0, 0.0, 0.0}, element_size);
}

inline bem::BemModel rod_model(const surface::SurfaceMesh& mesh) {
  return bem::make_bem_model(cq_stage::bem_surface(mesh),
                             {{"x_min", true, {}}, {"x_max", false, {rod_pressure, 0, 0}}, {"y_min", false, {}},
                              {"y_max", false, {}}, {"z_min", false, {}}, {"z_max", false, {}}},
                             bem::material_from_young(rod_young, 0.0, rod_density));
}

inline bem::BemModel rod_model(double element_size) { return rod_model(rod_mesh(element_size)); }

/// CQ settings of stability ratio β over `periods` free-end periods 4l/c.
inline bem::CqSettings rod_settings(const bem::BemModel& model, double beta, double periods, double epsilon = 1e-10) {
  const double c = model.material.p_wave_speed;
  const double dt = bem::cq_time_step_from_beta(beta, model.smallest_element_size(), c);
  return {bem::cq_steps_for_duration(periods * 4.0 * rod_length / c, dt), dt, epsilon};
}

/// Mean x-displacement of the x = l nodes at every step of solve_cq's unknowns.
inline std::vector<double> rod_free_end_mean(const bem::BemModel& model, const std::vector<double>& unknowns) {
  const std::size_t n = model.unknown_count(), steps = unknowns.size() / n;
  std::vector<double> means(steps, 0.0);
  for (std::size_t step = 0; step < steps; ++step) {
    int count = 0;
    for (std::size_t p = 0; p < model.free_nodes.size(); ++p)
      if (std::abs(model.nodes[model.free_nodes[p]].x - rod_length) < 1e-9) {
        means[step] += unknowns[step * n + 3 * p];
        ++count;
      }
    means[step] /= count;
  }
  return means;
}

/// Relative L2 error of the free-end mean against the closed form over the steps.
inline double rod_free_end_l2_error(const bem::BemModel& model, const std::vector<double>& unknowns, double dt) {
  const std::vector<double> mean = rod_free_end_mean(model, unknowns);
  double err2 = 0, ref2 = 0;
  for (std::size_t step = 0; step < mean.size(); ++step) {
    const double ref = bem::rod_free_end_displacement(step * dt, rod_pressure, rod_young, rod_density, rod_length);
    err2 += (mean[step] - ref) * (mean[step] - ref);
    ref2 += ref * ref;
  }
  return std::sqrt(err2 / ref2);
}

}  // namespace geobem::test

// The exterior problem on the pressurized spherical cavity
// (tests/bem/cavity_case.hpp): the free term of an unbounded solid from the
// rigid-body condition (gpu/bem/free_term.hpp), the Laplace-domain wall
// displacement against Sharpe's transform, and the time-domain wall
// displacement against Sharpe's closed form, late times against Lamé's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "mesh/surface/box_generator.hpp"
#include "tests/bem/cavity_case.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::test;
namespace surface = geobem::surface;

/// Largest |c_ij − δ_ij/2| over the free nodes whose position passes `keep`,
/// with c = I − S0, the free term plus the own principal value of an unbounded solid.
template <class Keep>
double largest_departure_from_half(const BemModel& model, Keep keep, int& checked) {
  const std::vector<double> sums = rigid_body_sums_cpu(model);
  double largest = 0;
  checked = 0;
  for (std::size_t p = 0; p < model.free_nodes.size(); ++p) {
    if (!keep(model.nodes[model.free_nodes[p]])) continue;
    ++checked;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) largest = std::max(largest, std::abs(-sums[9 * p + 3 * i + j] - (i == j ? 0.5 : 0.0)));
  }
  return largest;
}

TEST(CavityBem, UnboundedFreeTermIsHalfAtFlatNodesOfABoxCavity) {
  // A box-shaped cavity: at a node inside a flat face with a centrally
  // symmetric fan the free term is exactly I/2 (smooth boundary), so
  // c + PV∫T0 λ_a = I/2 + 0, the same value as the bounded rod's but now from
  // I − S0 with the normals pointing into the cavity.
  surface::SurfaceMesh mesh = surface::generate_box_surface({3.0, 1.0, 1.0}, {0.0, 0.0, 0.0}, 0.7072);
  surface::orient_outward(mesh, surface::SolidDomain::exterior);
  SurfaceView view = geobem::cq_stage::bem_surface(mesh);
  view.unbounded_solid = true;
  std::vector<GroupCondition> conditions;
  for (const auto& group : mesh.group_names) conditions.push_back({group, false, {}, 1e6});
  const BemModel model = make_bem_model(view, conditions, material_from_young(cavity_young, cavity_poisson, cavity_density));
  int checked = 0;
  const double departure = largest_departure_from_half(
      model, [](Vec3 x) { return std::abs(x.y) < 1e-9 && x.x > 0.1 && x.x < 2.9 && x.z > 0.1 && x.z < 0.9; }, checked);
  EXPECT_GT(checked, 0);
  EXPECT_LT(departure, 2e-3);
  // Without the identity the same sums would give −I/2 there.
  view.unbounded_solid = false;
  for (auto& condition : conditions) condition.fixed = condition.group == "x_min";
  const BemModel bounded_by_mistake = make_bem_model(view, conditions, model.material);
  EXPECT_GT(largest_departure_from_half(
                bounded_by_mistake, [](Vec3 x) { return std::abs(x.y) < 1e-9 && x.x > 0.1 && x.x < 2.9; }, checked),
            0.9);
}

TEST(CavityBem, BoundedSolidStillNeedsAFixedGroupAndUnboundedDoesNot) {
  const surface::SurfaceMesh mesh = cavity_mesh(0.5);
  SurfaceView view = geobem::cq_stage::bem_surface(mesh);
  const Material rock = material_from_young(cavity_young, cavity_poisson, cavity_density);
  EXPECT_THROW(make_bem_model(view, {{"wall", false, {}, 1e6}}, rock), std::invalid_argument);
  view.unbounded_solid = true;
  const BemModel model = make_bem_model(view, {{"wall", false, {}, 1e6}}, rock);
  EXPECT_EQ(model.load_case_count(), 1);
  // The pressure is −p n with n into the cavity: the traction points away from the centre.
  for (std::size_t e = 0; e < model.centroids.size(); ++e)
    EXPECT_NEAR(dot(model.element_traction[e], model.centroids[e]) / norm(model.centroids[e]), 1e6, 2e4);
}

/// Relative difference of the BEM's mean radial wall displacement x̂ at CQ
/// point l of `settings` and Sharpe's s û(a, s): x̂ answers the unit load
/// history (ĝ = 1), Sharpe's û the load p·H(t) (ĝ = 1/s).
std::vector<double> laplace_wall_errors(const BemModel& model, const CqSettings& settings,
                                        const std::vector<int>& frequencies) {
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed();
  CqTimings timings;
  CqOptions options;
  options.quiet = true;
  const LaplaceSolution solution = solve_laplace(model, settings, frequencies, options, timings);
  const std::vector<Complex> bem = wall_mean_radial(model, solution.values, solution.unknowns);
  std::vector<double> errors;
  for (std::size_t k = 0; k < frequencies.size(); ++k) {
    const Complex s = cq_laplace_point(settings, frequencies[k]);
    const std::complex<double> z(s.re, s.im);
    const std::complex<double> exact = z * cavity_radial_displacement_laplace(cavity, cavity_radius, z);
    errors.push_back(std::abs(std::complex<double>(bem[k].re, bem[k].im) - exact) / std::abs(exact));
    std::printf("s a/c = %9.4f%+9.4fi: BEM %.6e%+.6ei, Sharpe %.6e%+.6ei, relative difference %.2e\n",
                s.re * cavity_radius / c, s.im * cavity_radius / c, bem[k].re, bem[k].im, exact.real(), exact.imag(),
                errors.back());
  }
  return errors;
}

TEST(CavityBem, QuasiStaticWallDisplacementIsLames) {
  // Final-value theorem: u(t → ∞) = lim_{s→0} s û(s) = p a/(4μ). A step of
  // 20 a/c puts the lowest CQ point at s ≈ 0.006 c/a, where Sharpe's s û is
  // Lamé's value to 0.2 %; measured 4.4 % low on this 162-node mesh. Without the unbounded solid's identity in the
  // free term this system describes no solid at all and misses by far more.
  const BemModel model = cavity_model(cavity_mesh(0.5));
  const double c = cavity_reference().p_wave_speed();
  const double error = laplace_wall_errors(model, {100, 20 * cavity_radius / c}, {0})[0];
  EXPECT_LT(error, 0.05);
}

TEST(CavityBem, LaplaceDomainWallDisplacementMatchesSharpe) {
  // CQ points of Δt = 0.1 a/c, N = 100, from |s| a/c ≈ 1.2 through the
  // wall's ringing to |s| a/c ≈ 37. Measured on this 162-node mesh: 4.0 %,
  // 8.4 %, 9.3 % (the flat facets lie inside the sphere by up to h²/(8a)).
  const BemModel model = cavity_model(cavity_mesh(0.5));
  const double c = cavity_reference().p_wave_speed();
  for (double error : laplace_wall_errors(model, {100, 0.1 * cavity_radius / c}, {0, 10, 50}))
    EXPECT_LT(error, 0.12);
}

TEST(CavityBem, WallDisplacementFollowsSharpeAndTendsToLame) {
  // 10 a/c in 40 steps of 0.25 a/c (27 steps per period of the wall's ringing).
  const BemModel model = cavity_model(cavity_mesh(0.5));
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed();
  const double dt = 0.25 * cavity_radius / c;
  const CqSettings settings{40, dt};
  CqOptions options;
  options.quiet = true;
  const CqResult result = solve_cq(model, settings, std::vector<double>(settings.steps + 1, 1.0), options);
  const std::vector<double> wall = wall_mean_radial(model, result.unknowns, model.unknown_count());
  double squared_error = 0, squared_norm = 0;
  for (int n = 0; n <= settings.steps; ++n) {
    const double exact = cavity_radial_displacement(cavity, cavity_radius, n * dt);
    squared_error += (wall[n] - exact) * (wall[n] - exact);
    squared_norm += exact * exact;
  }
  const double l2 = std::sqrt(squared_error / squared_norm);
  const double lame = cavity.static_displacement(cavity_radius);
  std::printf("%zu nodes, %d steps of %.3g a/c: relative L2 error %.3g; u(10 a/c) = %.6e m, Lame %.6e m\n",
              model.free_nodes.size(), settings.steps, dt * c / cavity_radius, l2, wall.back(), lame);
  // Measured: 5.8 %, and 4.3 % below Lamé at 10 a/c, as quasi-static above.
  EXPECT_LT(l2, 0.08);
  // e^{−αt} at t = 10 a/c is 1.3e-3 for ν = 0.25: the wall has settled.
  for (int n = settings.steps - static_cast<int>(cavity_radius / c / dt); n <= settings.steps; ++n)
    EXPECT_NEAR(wall[n], lame, 0.05 * lame) << "step " << n;
}

}  // namespace

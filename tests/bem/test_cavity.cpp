// The exterior problem on the pressurized spherical cavity
// (tests/bem/cavity_case.hpp): the free term of an unbounded solid from the
// rigid-body condition (gpu/bem/free_term.hpp) and the identity behind it on
// a sphere; the static wall displacement converging to Lamé's as h²; the
// Laplace-domain wall and receiver displacements against Sharpe's transform;
// the time-stepping error alone (the CQ of Sharpe's transfer function); and
// the time-domain wall and receivers (gpu/bem/receiver_field.hpp) against
// Sharpe's closed form within the error model of the convergence study in
// bench/RESULTS.md, late times against Lamé's, arrival times along a line
// of receivers against r/c.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/receiver_field.hpp"
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
      for (int j = 0; j < 3; ++j)
        largest = std::max(largest, std::abs(-sums[9 * p + 3 * i + j] - (i == j ? 0.5 : 0.0)));
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
  const BemModel model =
      make_bem_model(view, conditions, material_from_young(cavity_young, cavity_poisson, cavity_density));
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

/// ∫_Γ T0(ξ, y) dΓ_y (blocks [i][j]) over the whole mesh for a point ξ off
/// it, by the receivers' quadrature plans (no singular element).
std::array<double, 9> kelvin_traction_integral(const BemModel& model, Vec3 xi) {
  static const QuadratureTable table = make_quadrature_table();
  const ModelView mv = model.view();
  std::array<double, 9> sum{};
  for (int e = 0; e < mv.element_count; ++e) {
    StaticIntegrand<ElastodynamicFullSpace> integrand;
    integrand.xi = xi;
    integrand.normal = mv.normals[e];
    integrand.material = mv.material;
    const Vec3 v[3] = {mv.nodes[mv.triangles[3 * e]], mv.nodes[mv.triangles[3 * e + 1]],
                       mv.nodes[mv.triangles[3 * e + 2]]};
    const QuadraturePlan plan = quadrature_plan(norm(xi - mv.centroids[e]), mv.longest_edges[e], PairWaves{}, false);
    integrate_triangle(v, mv.areas[e], -1, false, nullptr, plan, table, integrand);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) sum[3 * i + j] += integrand.s0[i][j];
  }
  return sum;
}

TEST(CavityBem, RigidBodyIdentityOfAnExteriorSphere) {
  // The identity that closes an unbounded solid (gpu/bem/free_term.hpp): the
  // Kelvin traction over a closed surface carries the unit point force, so
  // with normals out of the solid (into the cavity) ∫_Γ T0 dΓ = I for ξ in
  // the cavity and 0 for ξ in the solid, exactly on any closed polyhedron
  // (points 0.1a from the wall take the near rules); on the wall the free
  // term and the principal value share it: c + PV∫_Γ T0 dΓ = I.
  for (double h : {0.5, 0.25}) {
    const BemModel model = cavity_model(cavity_mesh(h));
    for (double r : {0.0, 0.5, 0.9, 1.1, 1.5, 3.0}) {
      const Vec3 xi = r * Vec3{0.36, -0.48, 0.8};
      const std::array<double, 9> sum = kelvin_traction_integral(model, xi);
      const double expected = r < cavity_radius ? 1.0 : 0.0;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          EXPECT_NEAR(sum[3 * i + j], i == j ? expected : 0.0, 1e-6) << "h " << h << " r " << r << " " << i << j;
    }
  }
}

/// solve_laplace of the listed CQ frequencies of `settings`, without progress lines.
LaplaceSolution solve_quietly(const BemModel& model, const CqSettings& settings, const std::vector<int>& frequencies) {
  CqTimings timings;
  CqOptions options;
  options.quiet = true;
  return solve_laplace(model, settings, frequencies, options, timings);
}

/// Relative difference of the BEM's mean radial wall displacement x̂ at each
/// CQ point of `solution` (solve_laplace's for `settings`) and Sharpe's
/// s û(a, s): x̂ answers the unit load history (ĝ = 1), Sharpe's û the load
/// p·H(t) (ĝ = 1/s).
std::vector<double> laplace_wall_errors(const BemModel& model, const CqSettings& settings,
                                        const LaplaceSolution& solution) {
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed();
  const std::vector<Complex> bem = wall_mean_radial(model, solution.values, solution.unknowns);
  std::vector<double> errors;
  for (std::size_t k = 0; k < solution.frequencies.size(); ++k) {
    const Complex s = cq_laplace_point(settings, solution.frequencies[k]);
    const std::complex<double> z(s.re, s.im);
    const std::complex<double> exact = z * cavity_radial_displacement_laplace(cavity, cavity_radius, z);
    errors.push_back(std::abs(std::complex<double>(bem[k].re, bem[k].im) - exact) / std::abs(exact));
    std::printf("s a/c = %9.4f%+9.4fi: BEM %.6e%+.6ei, Sharpe %.6e%+.6ei, relative difference %.2e\n",
                s.re * cavity_radius / c, s.im * cavity_radius / c, bem[k].re, bem[k].im, exact.real(), exact.imag(),
                errors.back());
  }
  return errors;
}

/// The spatial error model of the cavity meshes, from the convergence study
/// in bench/RESULTS.md ("Pressurized spherical cavity"): on Gmsh spheres of
/// 320 to 3,166 triangles the wall's error in the static limit is
/// 0.411–0.423 (h̄/a)² (order 2.0), and at Δt ≈ 0.02 a/c the time-domain
/// errors less the time-stepping error alone are at most 0.39 (wall),
/// 0.51 (2a) and 0.43 (5a) times (h̄/a)². The bounds take 0.5 and 0.6.
constexpr double static_error_per_h2 = 0.5, time_domain_error_per_h2 = 0.6;

TEST(CavityBem, StaticWallErrorFallsAsHSquaredTowardsLame) {
  // Final-value theorem: u(t → ∞) = lim_{s→0} s û(s) = p a/(4μ) (Lamé). A
  // step of 20 a/c puts the lowest CQ point at s ≈ 0.006 c/a, where Sharpe's
  // s û is Lamé's value to 0.2 %. Two Gmsh spheres, 320 and 540 triangles:
  // measured 4.39 % and 2.58 %, observed order 2.07 in h̄. Without the
  // unbounded solid's identity in the free term this system describes no
  // solid at all and misses by far more.
  const double c = cavity_reference().p_wave_speed();
  double errors[2], sizes[2];
  const double element_sizes[2] = {0.5, 0.25};
  for (int m = 0; m < 2; ++m) {
    const BemModel model = cavity_model(cavity_mesh(element_sizes[m]));
    sizes[m] = mean_edge(model) / cavity_radius;
    const CqSettings settings{100, 20 * cavity_radius / c};
    errors[m] = laplace_wall_errors(model, settings, solve_quietly(model, settings, {0}))[0];
    std::printf("%zu triangles, mean edge %.4f a: static wall error %.4f = %.3f (h/a)^2\n", model.areas.size(),
                sizes[m], errors[m], errors[m] / (sizes[m] * sizes[m]));
    EXPECT_LT(errors[m], static_error_per_h2 * sizes[m] * sizes[m]);
  }
  const double order = std::log(errors[0] / errors[1]) / std::log(sizes[0] / sizes[1]);
  std::printf("observed order %.2f\n", order);
  EXPECT_GT(order, 1.6);
  EXPECT_LT(order, 2.5);
}

TEST(CavityBem, LaplaceDomainWallAndReceiversMatchSharpe) {
  // CQ points of Δt = 0.1 a/c, N = 100, from |s| a/c ≈ 1.2 through the
  // wall's ringing to |s| a/c ≈ 37. Measured at the wall of this 162-node
  // mesh: 4.0 %, 8.4 %, 9.3 %. The error grows with |s|: 0.42 (h̄/a)² at
  // the lowest point, 0.8–0.9 (h̄/a)² at the other two on this mesh (and at
  // |s| a/c = 37 it falls as h̄^1.3 between 320 and 3,166 triangles).
  const BemModel model = cavity_model(cavity_mesh(0.5));
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed();
  const CqSettings settings{100, 0.1 * cavity_radius / c};
  const std::vector<int> frequencies = {0, 10, 50};
  const LaplaceSolution boundary = solve_quietly(model, settings, frequencies);
  for (double error : laplace_wall_errors(model, settings, boundary)) EXPECT_LT(error, 0.12);

  // r = 1.1a lies 0.1a–0.13a from the facets (0.2–0.3 of their edges): the
  // near rules. Compared where the wave has not decayed on its way out
  // (frequency 50 carries e^{−37(r−a)/a}). Measured: 5.5–6.0 % at frequency 0
  // and 10.5–12.7 % at 10, at every radius and direction alike, as the wall's
  // 4.0 % and 8.4 %: the boundary solution's error carried out, not the
  // receivers' quadrature.
  CqOptions options;
  options.quiet = true;
  const std::vector<int> carried = {0, 1};
  for (double r : {1.1, 2.0, 5.0}) {
    const std::vector<Vec3> receivers = cavity_receivers(r * cavity_radius);
    const LaplaceSolution field = receiver_laplace(model, receivers, settings, boundary, options);
    ASSERT_EQ(field.unknowns, 9);
    for (int k : carried) {
      const Complex s = cq_laplace_point(settings, frequencies[k]);
      const std::complex<double> z(s.re, s.im);
      const std::complex<double> exact = z * cavity_radial_displacement_laplace(cavity, r * cavity_radius, z);
      for (std::size_t q = 0; q < receivers.size(); ++q) {
        const Complex* u = &field.at(0, k, 3 * static_cast<int>(q));
        const Complex radial = radial_component(receivers[q], u);
        double tangential = 0;
        for (int i = 0; i < 3; ++i)
          tangential = std::max(tangential, abs(u[i] - (receivers[q][i] / norm(receivers[q])) * radial));
        const double error = std::abs(std::complex<double>(radial.re, radial.im) - exact) / std::abs(exact);
        std::printf("r = %.1f a, s a/c = %8.3f%+8.3fi, receiver %zu: radial %.3e%+.3ei, Sharpe %.3e%+.3ei, "
                    "relative difference %.2e, tangential %.2e\n",
                    r, s.re / c, s.im / c, q, radial.re, radial.im, exact.real(), exact.imag(), error,
                    tangential / std::abs(exact));
        EXPECT_LT(error, 0.15) << "r " << r << " frequency " << frequencies[k] << " receiver " << q;
        EXPECT_LT(tangential, 0.05 * std::abs(exact)) << "r " << r << " frequency " << frequencies[k];
      }
    }
  }
}

TEST(CavityBem, TimeSteppingErrorAloneIsFirstOrderUnderASuddenLoad) {
  // BDF2 CQ is O(Δt²) for data that start smoothly, but p·H(t) jumps at
  // t = 0 and its wave carries a kink (a jump in velocity) out to every
  // receiver, where BDF2's phase error ∝ ω³Δt²·(r − a)/c spreads it: the
  // L2 error is O(Δt) at the wall and the receivers alike. Over 10 a/c,
  // measured 4.33 %, 5.92 %, 16.0 % (wall, 2a, 5a) at Δt = 0.25 a/c and
  // 2.12 %, 3.04 %, 8.20 % at 0.125 a/c; down to Δt = 0.02 a/c the error
  // stays below 0.18, 0.27 and 0.78 times Δt c/a.
  const double c = cavity_reference().p_wave_speed();
  const double per_step[3] = {0.2, 0.3, 0.8};
  const double radii[3] = {1.0, 2.0, 5.0};
  for (int k = 0; k < 3; ++k) {
    const double coarse = cq_error_of_sharpe(radii[k] * cavity_radius, {40, 0.25 * cavity_radius / c});
    const double fine = cq_error_of_sharpe(radii[k] * cavity_radius, {80, 0.125 * cavity_radius / c});
    std::printf("r = %.0f a: CQ alone %.4f at 0.25 a/c, %.4f at 0.125 a/c, order %.2f\n", radii[k], coarse, fine,
                std::log2(coarse / fine));
    EXPECT_LT(coarse, per_step[k] * 0.25);
    EXPECT_LT(fine, per_step[k] * 0.125);
    EXPECT_NEAR(std::log2(coarse / fine), 1.0, 0.15);
  }
}

TEST(CavityBem, TimeSeriesFollowSharpeAndArriveAtRadiusOverC) {
  // 10 a/c in 40 steps of 0.25 a/c (27 steps per period of the wall's
  // ringing); one Laplace-domain solve for the wall, the receivers at 2a and
  // 5a and a line of receivers along z. Each error is bounded by the model of
  // the study: the time-stepping error alone (computed here from Sharpe's
  // transfer function) plus 0.6 (h̄/a)². Measured on this 162-node mesh: wall
  // 5.8 % (bound 10.6 %), 2a 8.0 % (12.1 %), 5a 17.1 % (22.2 %); 4.3 % below
  // Lamé at 10 a/c, as the static limit.
  const BemModel model = cavity_model(cavity_mesh(0.5));
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed(), h = mean_edge(model) / cavity_radius;
  const double dt = 0.25 * cavity_radius / c;
  const CqSettings settings{40, dt};
  std::vector<Vec3> receivers = cavity_receivers(2 * cavity_radius);
  for (const Vec3& x : cavity_receivers(5 * cavity_radius)) receivers.push_back(x);
  const int line_first = static_cast<int>(receivers.size());
  std::vector<double> line_radii;
  for (double r = 1.5; r <= 4.01; r += 0.5) {
    line_radii.push_back(r * cavity_radius);
    receivers.push_back({0.0, 0.0, r * cavity_radius});
  }
  CqOptions options;
  options.quiet = true;
  const CavityRun run = run_cavity(model, settings, receivers, options);
  const double wall_l2 =
      relative_l2(run.wall, dt, [&](double t) { return cavity_radial_displacement(cavity, cavity_radius, t); });
  const double wall_bound = cq_error_of_sharpe(cavity_radius, settings) + time_domain_error_per_h2 * h * h;
  const double lame = cavity.static_displacement(cavity_radius);
  std::printf("%zu nodes, %d steps of %.3g a/c: wall relative L2 error %.3g (bound %.3g); u(10 a/c) = %.6e m, "
              "Lame %.6e m\n",
              model.free_nodes.size(), settings.steps, dt * c / cavity_radius, wall_l2, wall_bound, run.wall.back(),
              lame);
  EXPECT_LT(wall_l2, wall_bound);
  // Late times tend to Lamé: e^{−αt} at t = 9 a/c is 2.5e-3 for ν = 0.25,
  // so the last a/c lies within the static error 0.5 (h̄/a)² of Lamé.
  for (int n = settings.steps - static_cast<int>(cavity_radius / c / dt); n <= settings.steps; ++n)
    EXPECT_NEAR(run.wall[n], lame, (static_error_per_h2 * h * h + 0.01) * lame) << "step " << n;

  for (int q = 0; q < line_first; ++q) {
    const double r = norm(receivers[q]);
    const double l2 =
        relative_l2(run.receiver[q], dt, [&](double t) { return cavity_radial_displacement(cavity, r, t); });
    const double bound = cq_error_of_sharpe(r, settings) + time_domain_error_per_h2 * h * h;
    std::printf("receiver at r = %.1f a: relative L2 error %.3g (bound %.3g)\n", r / cavity_radius, l2, bound);
    EXPECT_LT(l2, bound) << "receiver " << q;
  }
  // Arrival: the first time the radial displacement reaches a quarter of
  // Lamé's static value there (linear between steps); along the line the
  // arrival times grow as r/c, whatever delay the threshold adds.
  std::vector<double> arrivals;
  for (std::size_t j = 0; j < line_radii.size(); ++j) {
    const std::vector<double>& u = run.receiver[line_first + j];
    const double threshold = 0.25 * cavity.static_displacement(line_radii[j]);
    double arrival = -1;
    for (int n = 1; n <= settings.steps && arrival < 0; ++n)
      if (u[n] >= threshold) arrival = (n - 1 + (threshold - u[n - 1]) / (u[n] - u[n - 1])) * dt;
    ASSERT_GT(arrival, 0) << "no arrival at r = " << line_radii[j];
    arrivals.push_back(arrival);
  }
  double mean_r = 0, mean_t = 0;
  for (std::size_t j = 0; j < arrivals.size(); ++j) {
    mean_r += line_radii[j] / arrivals.size();
    mean_t += arrivals[j] / arrivals.size();
  }
  double covariance = 0, variance = 0;
  for (std::size_t j = 0; j < arrivals.size(); ++j) {
    covariance += (line_radii[j] - mean_r) * (arrivals[j] - mean_t);
    variance += (line_radii[j] - mean_r) * (line_radii[j] - mean_r);
  }
  const double slowness = covariance / variance;
  std::printf("arrival slowness along the line: %.4g s/m, 1/c = %.4g s/m\n", slowness, 1 / c);
  // Measured 0.84/c with 0.25 a/c steps (the smeared front crosses the
  // threshold early, more so farther out); an S-wave speed would give 1.7/c.
  EXPECT_NEAR(slowness * c, 1.0, 0.2);
}

}  // namespace

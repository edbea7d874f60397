// The exterior problem on the pressurized spherical cavity
// (tests/bem/cavity_case.hpp): the free term of an unbounded solid from the
// rigid-body condition (gpu/bem/free_term.hpp), the Laplace-domain wall
// displacement against Sharpe's transform, and the time-domain wall
// displacement against Sharpe's closed form, late times against Lamé's; the
// displacement at receivers in the rock (gpu/bem/receiver_field.hpp) against
// Sharpe's, and the arrival times along a line of receivers against r/c.
#include <gtest/gtest.h>

#include <algorithm>
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

/// Receivers at radius r in three directions (on an axis, in a diagonal
/// plane, off every symmetry plane of the mesh).
std::vector<Vec3> receivers_at(double r) {
  const Vec3 directions[3] = {{0, 0, 1}, {1 / std::sqrt(2.0), 1 / std::sqrt(2.0), 0}, {0.36, -0.48, 0.8}};
  std::vector<Vec3> out;
  for (const Vec3& d : directions) out.push_back(r * d);
  return out;
}

/// Radial and largest tangential component of receiver r's displacement, values[3r..3r+2].
template <class T>
void radial_and_tangential(const Vec3& x, const T* u, T& radial, double& tangential) {
  using std::abs;
  const double r = norm(x);
  radial = (x.x / r) * u[0] + (x.y / r) * u[1] + (x.z / r) * u[2];
  tangential = 0;
  for (int i = 0; i < 3; ++i) tangential = std::max(tangential, abs(u[i] - (x[i] / r) * radial));
}

TEST(CavityBem, LaplaceDomainWallAndReceiversMatchSharpe) {
  // CQ points of Δt = 0.1 a/c, N = 100, from |s| a/c ≈ 1.2 through the
  // wall's ringing to |s| a/c ≈ 37. Measured at the wall of this 162-node
  // mesh: 4.0 %, 8.4 %, 9.3 % (the flat facets lie inside the sphere by up to
  // h²/(8a)).
  const BemModel model = cavity_model(cavity_mesh(0.5));
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed();
  const CqSettings settings{100, 0.1 * cavity_radius / c};
  const std::vector<int> frequencies = {0, 10, 50};
  for (double error : laplace_wall_errors(model, settings, frequencies)) EXPECT_LT(error, 0.12);

  CqTimings timings;
  CqOptions options;
  options.quiet = true;
  const LaplaceSolution boundary = solve_laplace(model, settings, frequencies, options, timings);
  // r = 1.1a lies 0.1a–0.13a from the facets (0.2–0.3 of their edges): the
  // near rules. Compared where the wave has not decayed on its way out
  // (frequency 50 carries e^{−37(r−a)/a}). Measured: 5.5–6.0 % at frequency 0
  // and 10.5–12.7 % at 10, at every radius and direction alike, as the wall's
  // 4.0 % and 8.4 %: the boundary solution's error carried out, not the
  // receivers' quadrature.
  const std::vector<int> carried = {0, 1};
  for (double r : {1.1, 2.0, 5.0}) {
    const std::vector<Vec3> receivers = receivers_at(r * cavity_radius);
    const LaplaceSolution field = receiver_laplace(model, receivers, settings, boundary, options);
    ASSERT_EQ(field.unknowns, 9);
    for (int k : carried) {
      const Complex s = cq_laplace_point(settings, frequencies[k]);
      const std::complex<double> z(s.re, s.im);
      const std::complex<double> exact = z * cavity_radial_displacement_laplace(cavity, r * cavity_radius, z);
      for (std::size_t q = 0; q < receivers.size(); ++q) {
        Complex radial;
        double tangential;
        radial_and_tangential(receivers[q], &field.at(0, k, 3 * static_cast<int>(q)), radial,
                              tangential);
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

/// Relative L2 difference of `bem` (one value per step of Δt) from `exact(t)`.
template <class Exact>
double relative_l2(const std::vector<double>& bem, double dt, Exact exact) {
  double squared_error = 0, squared_norm = 0;
  for (std::size_t n = 0; n < bem.size(); ++n) {
    const double reference = exact(n * dt);
    squared_error += (bem[n] - reference) * (bem[n] - reference);
    squared_norm += reference * reference;
  }
  return std::sqrt(squared_error / squared_norm);
}

TEST(CavityBem, TimeSeriesFollowSharpeAndArriveAtRadiusOverC) {
  // 10 a/c in 40 steps of 0.25 a/c (27 steps per period of the wall's
  // ringing); one Laplace-domain solve for the wall, the receivers at 2a and
  // 5a and a line of receivers along z.
  const BemModel model = cavity_model(cavity_mesh(0.5));
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed();
  const double dt = 0.25 * cavity_radius / c;
  const CqSettings settings{40, dt};
  CqOptions options;
  options.quiet = true;
  CqTimings timings;
  const LaplaceSolution boundary = solve_laplace(model, settings, {}, options, timings);
  const std::vector<double> heaviside(settings.steps + 1, 1.0);
  const std::vector<double> unknowns = cq_time_series(boundary, {heaviside}, settings);
  const std::vector<double> wall = wall_mean_radial(model, unknowns, model.unknown_count());
  const double wall_l2 = relative_l2(wall, dt, [&](double t) { return cavity_radial_displacement(cavity, cavity_radius, t); });
  const double lame = cavity.static_displacement(cavity_radius);
  std::printf("%zu nodes, %d steps of %.3g a/c: wall relative L2 error %.3g; u(10 a/c) = %.6e m, Lame %.6e m\n",
              model.free_nodes.size(), settings.steps, dt * c / cavity_radius, wall_l2, wall.back(), lame);
  // Measured: 5.8 %, and 4.3 % below Lamé at 10 a/c, as quasi-static above.
  EXPECT_LT(wall_l2, 0.08);
  // e^{−αt} at t = 10 a/c is 1.3e-3 for ν = 0.25: the wall has settled.
  for (int n = settings.steps - static_cast<int>(cavity_radius / c / dt); n <= settings.steps; ++n)
    EXPECT_NEAR(wall[n], lame, 0.05 * lame) << "step " << n;

  // Receivers at 2a and 5a (three directions each), then a line along z.
  std::vector<Vec3> receivers = receivers_at(2 * cavity_radius);
  for (const Vec3& x : receivers_at(5 * cavity_radius)) receivers.push_back(x);
  const int line_first = static_cast<int>(receivers.size());
  std::vector<double> line_radii;
  for (double r = 1.5; r <= 4.01; r += 0.5) {
    line_radii.push_back(r * cavity_radius);
    receivers.push_back({0.0, 0.0, r * cavity_radius});
  }
  const LaplaceSolution field = receiver_laplace(model, receivers, settings, boundary, options);
  const std::vector<double> series = cq_time_series(field, {heaviside}, settings);
  const std::size_t stride = 3 * receivers.size();
  auto radial_series = [&](int q) {
    std::vector<double> out(settings.steps + 1);
    double tangential;
    for (int n = 0; n <= settings.steps; ++n) radial_and_tangential(receivers[q], &series[n * stride + 3 * q], out[n], tangential);
    return out;
  };
  for (int q = 0; q < line_first; ++q) {
    const double r = norm(receivers[q]);
    const double l2 = relative_l2(radial_series(q), dt, [&](double t) { return cavity_radial_displacement(cavity, r, t); });
    std::printf("receiver at r = %.1f a: relative L2 error %.3g\n", r / cavity_radius, l2);
    // Measured 8.0 % at 2a and 17.1 % at 5a: on this coarse mesh and step
    // BDF2's numerical dissipation smears the front over its 4a of travel.
    EXPECT_LT(l2, r < 3 * cavity_radius ? 0.1 : 0.2) << "receiver " << q;
  }
  // Arrival: the first time the radial displacement reaches a quarter of
  // Lamé's static value there (linear between steps); along the line the
  // arrival times grow as r/c, whatever delay the threshold adds.
  std::vector<double> arrivals;
  for (std::size_t j = 0; j < line_radii.size(); ++j) {
    const std::vector<double> u = radial_series(line_first + static_cast<int>(j));
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

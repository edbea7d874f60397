// Collocation BEM with CQ on the rod (tests/bem/rod_case.hpp): free terms
// from the rigid-body condition, Gauss's theorem for the Kelvin traction, the
// free-end displacement and fixed-end traction against the 1D closed forms,
// and the properties the two-stage split rests on: frequencies solved apart
// equal the same frequencies solved together, and the time series of a
// delayed load history is the delayed time series.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "gpu/bem/collocation_pair.hpp"
#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/rod_closed_form.hpp"
#include "gpu/core/device.hpp"
#include "gpu/core/resource_error.hpp"
#include "tests/bem/rod_case.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::test;
using geobem::ComputeDevice;

TEST(RodBem, FreeTermIsHalfAtFlatNodesAndSumsAreRigidBody) {
  const BemModel model = rod_model(rod_h112);  // 6 x 2 x 2 cells, 112 triangles
  const std::vector<double> sums = rigid_body_sums_cpu(model);
  // A node inside a flat face with a centrally symmetric fan: c + PV∫T0 λ_a = c = I/2.
  int checked = 0;
  for (std::size_t p = 0; p < model.free_nodes.size(); ++p) {
    const Vec3 x = model.nodes[model.free_nodes[p]];
    const bool face_interior = std::abs(x.y) < 1e-9 && x.x > 0.1 && x.x < 2.9 && x.z > 0.1 && x.z < 0.9;
    if (!face_interior) continue;
    ++checked;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(-sums[9 * p + 3 * i + j], i == j ? 0.5 : 0.0, 2e-3) << p << i << j;
  }
  EXPECT_GT(checked, 0);
}

TEST(RodBem, KelvinTractionIntegratesToMinusIdentityInside) {
  // Gauss's theorem: ∫_Γ T0(ξ, x) dΓ = −I for ξ inside, 0 outside.
  const BemModel model = rod_model(rod_h112);
  const QuadratureTable table = make_quadrature_table();
  for (const Vec3 point : {Vec3{1.3, 0.4, 0.6}, Vec3{0.2, 0.15, 0.9}, Vec3{4.0, 0.5, 0.5}}) {
    ModelView mv = model.view();
    const int node = -1, element = -1;
    mv.collocation_points = &point;
    mv.collocation_node = &node;
    mv.collocation_element = &element;
    double total[3][3] = {};
    for (int e = 0; e < mv.element_count; ++e) {
      StaticIntegrand<ElastodynamicFullSpace> integrand;
      integrate_pair_static(mv, 0, e, table, integrand);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) total[i][j] += integrand.s0[i][j];
    }
    const double inside = point.x < rod_length ? -1.0 : 0.0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(total[i][j], i == j ? inside : 0.0, 2e-4) << point.x << i << j;
  }
}

TEST(RodBem, FreeEndDisplacementAndFixedEndTractionMatchClosedForm) {
  // 112 triangles (h = 0.707 m longest edge), β = 0.3, one period (both
  // traction jumps and a full displacement cycle) to keep the test short on
  // 2 cores. The coarse mesh is allowed 6% (two periods give 5.75%).
  const BemModel model = rod_model(rod_h112);
  const CqSettings settings = rod_settings(model, 0.3, 1.0);
  const CqResult result = solve_cq(model, settings, std::vector<double>(settings.steps + 1, 1.0),
                                   {ComputeDevice::Cpu, true});
  const double displacement_error = rod_free_end_l2_error(model, result.unknowns, settings.time_step);
  // Traction on x = 0 (outward normal −x): t_x = −σ_xx; area-weighted mean
  // over the face, away from the jumps at t = (2k+1) l/c (more than 20% of l/c off).
  const int n = model.unknown_count();
  const double c = std::sqrt(rod_young / rod_density);
  double traction_error = 0;
  int samples = 0;
  for (int step = 0; step <= settings.steps; ++step) {
    const double t = step * settings.time_step;
    double force = 0, area = 0;
    for (int e : model.fixed_elements) {
      force += model.areas[e] * result.unknowns[static_cast<std::size_t>(step) * n + 3 * model.element_block[e]];
      area += model.areas[e];
    }
    const double phase = std::fmod(t * c / rod_length, 2.0);
    if (t * c / rod_length > 1.0 && std::abs(phase - 1.0) > 0.2) {
      traction_error += std::abs(-force / area - rod_fixed_end_stress(t, rod_pressure, rod_young, rod_density,
                                                                      rod_length)) / (2.0 * rod_pressure);
      ++samples;
    }
  }
  traction_error /= samples;
  std::printf("rod 112 elements, beta 0.3, one period: displacement L2 error %.4f, fixed-end traction mean error "
              "%.4f\n", displacement_error, traction_error);
  EXPECT_LT(displacement_error, 0.06);
  EXPECT_LT(traction_error, 0.15);
}

TEST(RodBem, FrequenciesSolvedApartEqualThoseSolvedTogether) {
  // What the MPI split rests on: frequency l's solution does not depend on
  // which other frequencies are solved beside it.
  const BemModel model = rod_model(5.0);  // 12 triangles
  const CqSettings settings = rod_settings(model, 0.3, 0.5);
  CqTimings timings;
  const LaplaceSolution all = solve_laplace(model, settings, {}, {ComputeDevice::Cpu, true}, timings);
  const LaplaceSolution some = solve_laplace(model, settings, {3, 1}, {ComputeDevice::Cpu, true}, timings);
  ASSERT_EQ(all.frequencies.size(), static_cast<std::size_t>(cq_frequency_count(settings)));
  ASSERT_EQ(some.frequencies, (std::vector<int>{3, 1}));
  for (int k = 0; k < 2; ++k)
    for (int i = 0; i < all.unknowns; ++i) EXPECT_EQ(abs(some.at(0, k, i) - all.at(0, some.frequencies[k], i)), 0.0);
  EXPECT_THROW(solve_laplace(model, settings, {cq_frequency_count(settings)}, {ComputeDevice::Cpu, true}, timings),
               std::invalid_argument);
}

TEST(RodBem, DelayedLoadHistoryDelaysTheTimeSeries) {
  // The FFT-based CQ is a circular convolution of the damped sequences R^j ω_j
  // and R^j g_j: x_n = Σ_{j≤n} ω_j g_{n−j} + R^L Σ_{j>n} ω_j g_{n−j+L} (+ O(R^{2L})),
  // R^L = ε^{(N+1)/(2N)}. For the Heaviside history (x_n = Σ_{j≤n} ω_j) and the
  // delayed one H(t − Δt) (g_0 = 0, g_n = 1) this gives exactly
  //   y_n = x_{n−1} − R^L (x_n − x_{n−1})  (n ≥ 1),   y_0 = R^L (x_N − x_0),
  // up to rounding, which the transform multiplies by R^{−N} = ε^{−1/2} = 1e5
  // (allowed: 1e-9 of the largest value).
  const BemModel model = rod_model(5.0);
  const CqSettings settings = rod_settings(model, 0.3, 1.0);
  CqTimings timings;
  const LaplaceSolution solution = solve_laplace(model, settings, {}, {ComputeDevice::Cpu, true}, timings);
  std::vector<double> step(settings.steps + 1, 1.0), delayed = step;
  delayed[0] = 0.0;
  const std::vector<double> x = cq_time_series(solution, {step}, settings);
  const std::vector<double> y = cq_time_series(solution, {delayed}, settings);
  const int n = model.unknown_count(), displacements = 3 * static_cast<int>(model.free_nodes.size());
  const double wrap = std::pow(cq_radius(settings), settings.steps + 1);
  const int last = settings.steps;
  for (const bool displacement : {true, false}) {  // m and Pa, compared within their kind
    double scale = 0, diff = 0;
    for (int s = 0; s <= last; ++s)
      for (int i = 0; i < n; ++i)
        if ((i < displacements) == displacement) {
          scale = std::max(scale, std::abs(x[s * n + i]));
          const double expected = s == 0 ? wrap * (x[last * n + i] - x[i])
                                         : x[(s - 1) * n + i] - wrap * (x[s * n + i] - x[(s - 1) * n + i]);
          diff = std::max(diff, std::abs(y[s * n + i] - expected));
        }
    EXPECT_LT(diff, 1e-9 * scale) << displacement;
  }
  EXPECT_THROW(cq_time_series(solution, {step, step}, settings), std::invalid_argument);
}

TEST(RodBem, LoadCasesAreTheLoadedGroupsAndRodProblemIsFound) {
  const BemModel model = rod_model(5.0);
  EXPECT_EQ(model.load_case_groups, (std::vector<std::string>{"x_max"}));
  const RodProblem rod = rod_problem_of(model);
  EXPECT_DOUBLE_EQ(rod.pressure, rod_pressure);
  EXPECT_DOUBLE_EQ(rod.length, rod_length);
  // Two loaded groups: two cases, one right-hand side column each.
  const auto mesh = rod_mesh(5.0);
  const BemModel two = make_bem_model(geobem::cq_stage::bem_surface(mesh),
                                      {{"x_min", true, {}}, {"x_max", false, {1, 0, 0}}, {"y_min", false, {0, 2, 0}},
                                       {"y_max", false, {}}, {"z_min", false, {}}, {"z_max", false, {}}},
                                      material_from_young(rod_young, 0.0, rod_density));
  EXPECT_EQ(two.load_case_groups, (std::vector<std::string>{"x_max", "y_min"}));
  EXPECT_THROW(rod_problem_of(two), std::invalid_argument);
  std::vector<Complex> matrix, rhs;
  assemble_system_cpu(two, rigid_body_sums_cpu(two), Complex(1e3, 2e3), matrix, rhs);
  EXPECT_EQ(rhs.size(), 2u * two.unknown_count());
}

TEST(RodBem, TimeStepFromBetaAndStepsForDuration) {
  // Δt = β h / c; N = ⌈T/Δt⌉ with T/Δt within 1e-9 of an integer kept.
  EXPECT_DOUBLE_EQ(cq_time_step_from_beta(0.2, 0.5, 5000.0), 2e-5);
  EXPECT_EQ(cq_steps_for_duration(1e-3, 2e-5), 50);
  EXPECT_EQ(cq_steps_for_duration(1.00001e-3, 2e-5), 51);
  EXPECT_EQ(cq_steps_for_duration(1e-9, 2e-5), 1);
  EXPECT_THROW(cq_time_step_from_beta(0.0, 0.5, 5000.0), std::invalid_argument);
  EXPECT_THROW(cq_time_step_from_beta(0.2, 0.5, -1.0), std::invalid_argument);
  EXPECT_THROW(cq_steps_for_duration(-1.0, 2e-5), std::invalid_argument);
  EXPECT_THROW(cq_steps_for_duration(1.0, 1e-9), std::invalid_argument);
}

TEST(RodBem, DenseSystemThatDoesNotFitIsRefusedWithItsBytes) {
  // n = 30,000 unknowns, one case: 16 (n² + n) bytes = 14,400,480,000.
  EXPECT_EQ(dense_system_bytes(30000, 1), 14400480000ull);
  try {
    require_dense_system_fits(30000, 1, 8000000000ull, "device memory");
    FAIL();
  } catch (const geobem::ResourceError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("14400480000 bytes"), std::string::npos) << text;
    EXPECT_NE(text.find("device memory has 8 GB"), std::string::npos) << text;
  }
  EXPECT_NO_THROW(require_dense_system_fits(1000, 1, 16016000ull, "device memory"));
}

TEST(RodBem, CpuAssemblyUsesSeveralThreads) {
  if (geobem::cpu_thread_count() < 2) GTEST_SKIP() << "one CPU thread";
  const BemModel model = rod_model(1.5);
  std::vector<Complex> matrix, rhs;
  int threads = 0;
  assemble_system_cpu(model, rigid_body_sums_cpu(model), Complex(1e3, 2e3), matrix, rhs, &threads);
  EXPECT_GE(threads, 2);
}

TEST(RodBem, BadInputIsRefusedWithItsName) {
  const auto mesh = rod_mesh(1.5);
  const SurfaceView surface = geobem::cq_stage::bem_surface(mesh);
  const Material m = material_from_young(rod_young, 0.0, rod_density);
  try {
    make_bem_model(surface, {{"x_min", true, {}}}, m);
    FAIL();
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("x_max"), std::string::npos) << error.what();
  }
  EXPECT_THROW(make_bem_model(surface, {{"side", true, {}}}, m), std::invalid_argument);
  std::vector<GroupCondition> free_all;
  for (const auto& g : mesh.group_names) free_all.push_back({g, false, {}});
  EXPECT_THROW(make_bem_model(surface, free_all, m), std::invalid_argument);
  EXPECT_NE(cq_step_warning(5000.0, 1e-4, 0.5).find("c*dt/h = 1 "), std::string::npos);
  EXPECT_EQ(cq_step_warning(5000.0, 2e-5, 0.5), "");
  // The range's ends given as β come back from dt = βh/c within rounding: no warning; just beyond, one.
  for (const double c : {4714.045207910317, 5172.19, 333.3})
    for (const double h : {0.2528762, 0.24, 1.0 / 3.0})
      for (const double beta : {0.1, 0.3}) {
        EXPECT_EQ(cq_step_warning(c, cq_time_step_from_beta(beta, h, c), h), "") << c << " " << h << " " << beta;
        EXPECT_NE(cq_step_warning(c, cq_time_step_from_beta(beta * (beta < 0.2 ? 0.999 : 1.001), h, c), h), "");
      }
}

}  // namespace

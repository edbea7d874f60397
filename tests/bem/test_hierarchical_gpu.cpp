// The hierarchical CQ-BEM's CUDA path against its CPU path and the dense one
// (label gpu): the same leaves dropped and the near field from the same pair
// kernel (rounding apart), the device's ACA within its own reported error of
// the dense matrix, each frequency's x̂ within 10 ε of the dense x̂ (scaled
// unknowns), and the time series within 1e-4 of the dense ones, on a cubed
// sphere (no Gmsh where the GPU tests run) and the rod. Small leaves, so that
// these small meshes have admissible blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/hierarchical/hierarchical_assembly.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"
#include "gpu/core/relative_difference.hpp"
#include "tests/bem/cavity_case.hpp"
#include "tests/bem/hierarchical_support.hpp"
#include "tests/bem/rod_case.hpp"
#include "tests/support/backend_test.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::bem::hierarchical;
using namespace geobem::test;

class HierarchicalGpu : public CudaTest {};

CqOptions options_of(geobem::ComputeDevice device, BemSolver solver, double tolerance) {
  CqOptions options(device, true);
  options.solver = solver;
  options.hierarchical = small_leaves(tolerance);
  return options;
}

TEST_F(HierarchicalGpu, OperatorMatchesCpuNearFieldAndDenseWithinItsError) {
  const BemModel model = cavity_model(cubed_sphere_mesh(0.5));  // 432 triangles
  const double c = cavity_reference().p_wave_speed();
  const CqSettings settings{40, 0.25 * cavity_radius / c};
  const std::vector<double> sums = rigid_body_sums_cpu(model);
  const int frequencies = cq_frequency_count(settings);
  const std::vector<Complex> s = {cq_laplace_point(settings, 0), cq_laplace_point(settings, frequencies / 3),
                                  cq_laplace_point(settings, frequencies - 1)};
  for (const double tolerance : {1e-4, 1e-8}) {
    const HierarchicalLayout layout = make_hierarchical_layout(model, small_leaves(tolerance));
    const FreeTerms free_terms = free_terms_in_tree_order(model, layout, sums);
    std::vector<std::vector<std::vector<Complex>>> gpu_rhs;
    const std::vector<CompressedOperator> gpu = assemble_compressed_cuda(model, layout, free_terms, s, tolerance, gpu_rhs);
    ASSERT_EQ(gpu.size(), s.size());
    for (std::size_t f = 0; f < s.size(); ++f) {
      std::vector<std::vector<Complex>> cpu_rhs;
      const CompressedOperator cpu = assemble_compressed_cpu(model, layout, free_terms, s[f], tolerance, cpu_rhs);
      // The same leaves kept, and the same near field but for rounding
      // (summation order, fused multiply-adds).
      ASSERT_EQ(gpu[f].near_kept, cpu.near_kept) << tolerance << " " << f;
      const double near_difference = geobem::largest_relative_difference(gpu[f].near, cpu.near);
      std::vector<Complex> matrix, dense_rhs;
      assemble_system_cpu(model, sums, s[f], matrix, dense_rhs);
      const double measured = relative_operator_error(model, gpu[f], matrix);
      double rhs_difference = 0.0, rhs_norm = 0.0;
      for (std::size_t p = 0; p < layout.rows.order.size(); ++p)
        for (int i = 0; i < 3; ++i) {
          const Complex reference = dense_rhs[3 * layout.rows.order[p] + i];
          rhs_difference += std::pow(abs(gpu_rhs[f][0][3 * p + i] - reference), 2);
          rhs_norm += std::pow(abs(reference), 2);
        }
      std::printf("tolerance %.0e, point %zu: near field GPU-CPU %.3g; GPU operator against dense %.3g (reported "
                  "%.3g), right-hand side %.3g\n",
                  tolerance, f, near_difference, measured, gpu[f].report.error_estimate,
                  std::sqrt(rhs_difference / rhs_norm));
      EXPECT_LT(near_difference, 1e-11);
      EXPECT_LE(measured, gpu[f].report.error_estimate);
      EXPECT_LE(gpu[f].report.error_estimate, tolerance);
      EXPECT_LE(std::sqrt(rhs_difference / rhs_norm), 10 * tolerance);
    }
  }
}

TEST_F(HierarchicalGpu, CavitySolutionsAndWallSeriesMatchDense) {
  const BemModel model = cavity_model(cubed_sphere_mesh(0.5));
  const double c = cavity_reference().p_wave_speed();
  const CqSettings settings{40, 0.25 * cavity_radius / c};
  CqTimings timings;
  const LaplaceSolution dense = solve_laplace(model, settings, {}, {geobem::ComputeDevice::Cpu, true}, timings);
  const LaplaceSolution gpu = solve_laplace(
      model, settings, {}, options_of(geobem::ComputeDevice::Cuda, BemSolver::hierarchical, 1e-8), timings);
  const LaplaceSolution cpu = solve_laplace(
      model, settings, {}, options_of(geobem::ComputeDevice::Cpu, BemSolver::hierarchical, 1e-8), timings);
  ASSERT_EQ(gpu.solves.size(), dense.frequencies.size());
  for (std::size_t k = 0; k < dense.frequencies.size(); ++k) {
    const int f = static_cast<int>(k);
    const double difference = relative_solution_difference(model, gpu, dense, 0, f);
    std::printf("frequency %2zu: GPU hierarchical against dense %.3g, CPU hierarchical %.3g; GMRES steps %d (CPU %d)\n",
                k, difference, relative_solution_difference(model, cpu, dense, 0, f), gpu.solves[k].iterations,
                cpu.solves[k].iterations);
    EXPECT_LE(difference, 1e-7) << k;
    EXPECT_LE(gpu.solves[k].residual, 1e-8) << k;
  }
  const std::vector<double> heaviside(settings.steps + 1, 1.0);
  const std::vector<double> wall_dense =
      wall_mean_radial(model, cq_time_series(dense, {heaviside}, settings), model.unknown_count());
  const std::vector<double> wall_gpu =
      wall_mean_radial(model, cq_time_series(gpu, {heaviside}, settings), model.unknown_count());
  const double series = relative_l2_difference(wall_gpu, wall_dense);
  std::printf("wall series: GPU hierarchical against dense %.3g\n", series);
  EXPECT_LE(series, 1e-4);
}

TEST_F(HierarchicalGpu, RodSolutionsMatchDense) {
  // Fixed-end tractions beside free displacements (the traction columns scaled by w).
  const BemModel model = rod_model(rod_h112);
  const CqSettings settings = rod_settings(model, 0.3, 0.5);
  CqTimings timings;
  const LaplaceSolution dense = solve_laplace(model, settings, {}, {geobem::ComputeDevice::Cpu, true}, timings);
  const LaplaceSolution gpu = solve_laplace(
      model, settings, {}, options_of(geobem::ComputeDevice::Cuda, BemSolver::hierarchical, 1e-8), timings);
  for (std::size_t k = 0; k < dense.frequencies.size(); ++k)
    EXPECT_LE(relative_solution_difference(model, gpu, dense, 0, static_cast<int>(k)), 1e-7) << k;
}

}  // namespace

// The pressurized spherical cavity (tests/bem/cavity_case.hpp) on the CUDA
// path against the CPU path (label gpu): an unbounded solid, its free term
// with the identity, and the receivers in the rock. The Laplace-domain
// solutions (cuSOLVER against OpenBLAS) agree to rounding; the wall's time
// series within the bound ε^{−1/2}·L·η that the inverse CQ transform puts on
// a Laplace-domain difference η (derived in tests/bem/test_bem_gpu.cpp); the
// receivers' fields, from one boundary solution, to rounding. The mesh is a
// cubed sphere (no Gmsh where the GPU tests run).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "gpu/core/relative_difference.hpp"
#include "tests/bem/cavity_case.hpp"
#include "tests/support/backend_test.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::test;
using geobem::largest_relative_difference;

class CavityGpu : public CudaTest {};

TEST_F(CavityGpu, SolutionWallSeriesAndReceiversMatchCpu) {
  const BemModel model = cavity_model(cubed_sphere_mesh(0.5));  // 6 × 6 × 6 cells: 432 triangles
  ASSERT_TRUE(model.unbounded_solid);
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed(), dt = 0.25 * cavity_radius / c;
  const CqSettings settings{40, dt};  // 10 a/c, 21 frequencies
  CqTimings cpu_timings, gpu_timings;
  const LaplaceSolution cpu = solve_laplace(model, settings, {}, {geobem::ComputeDevice::Cpu, true}, cpu_timings);
  const LaplaceSolution gpu = solve_laplace(model, settings, {}, {geobem::ComputeDevice::Cuda, true}, gpu_timings);
  ASSERT_EQ(cpu.values.size(), gpu.values.size());
  // Every unknown is a displacement (no fixed group): one η for all.
  const std::vector<double> heaviside(settings.steps + 1, 1.0);
  const std::vector<Complex> load = cq_forward_transform(heaviside, settings);
  double laplace_diff = 0, laplace_scale = 0;
  for (std::size_t k = 0; k < cpu.values.size(); ++k) {
    const Complex g = load[k / cpu.unknowns];
    laplace_diff = std::max(laplace_diff, abs(g * (cpu.values[k] - gpu.values[k])));
    laplace_scale = std::max(laplace_scale, abs(g * cpu.values[k]));
  }
  const double eta = laplace_diff / laplace_scale;
  const std::vector<double> wall_cpu =
      wall_mean_radial(model, cq_time_series(cpu, {heaviside}, settings), model.unknown_count());
  const std::vector<double> wall_gpu =
      wall_mean_radial(model, cq_time_series(gpu, {heaviside}, settings), model.unknown_count());
  const double time_difference = largest_relative_difference(wall_gpu, wall_cpu);
  const double bound = std::pow(settings.epsilon, -0.5) * (settings.steps + 1) * eta;
  const double wall_l2 =
      relative_l2(wall_gpu, dt, [&](double t) { return cavity_radial_displacement(cavity, cavity_radius, t); });
  std::printf("%zu nodes: Laplace-domain difference %.3g, wall time series %.3g (bound %.3g); GPU wall L2 error "
              "against Sharpe %.3g\n",
              model.free_nodes.size(), eta, time_difference, bound, wall_l2);
  EXPECT_LT(eta, 1e-11);
  EXPECT_LE(time_difference, bound);
  // The GPU's wall against Sharpe: O(h²) space and O(Δt) time error, as the CPU's
  // (test_bem_cavity); a loose check that the GPU path solved the right problem.
  EXPECT_LT(wall_l2, 0.1);

  // Receivers near the wall (the near rules), at 2a and 5a; both paths from the CPU's boundary solution.
  std::vector<Vec3> receivers = cavity_receivers(1.1 * cavity_radius);
  for (double r : {2.0, 5.0})
    for (const Vec3& x : cavity_receivers(r * cavity_radius)) receivers.push_back(x);
  const LaplaceSolution field_cpu =
      receiver_laplace(model, receivers, settings, cpu, {geobem::ComputeDevice::Cpu, true});
  const LaplaceSolution field_gpu =
      receiver_laplace(model, receivers, settings, cpu, {geobem::ComputeDevice::Cuda, true});
  ASSERT_EQ(field_cpu.values.size(), field_gpu.values.size());
  const double receiver_difference = largest_relative_difference(field_gpu.values, field_cpu.values);
  std::printf("receivers: largest GPU-CPU difference %.3g of the largest value\n", receiver_difference);
  EXPECT_LT(receiver_difference, 1e-11);
}

}  // namespace

// The cubature on several MPI ranks (run with 2 ranks by CTest, label mpi):
// every rank gets the same result, bit-identical to one rank, and it matches
// the closed form.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cmath>

#include "gpu/quadrature/cubature.hpp"
#include "gpu/quadrature/cubature_mpi.hpp"

using namespace geobem::quadrature;
using geobem::ComputeDevice;

TEST(CubatureMpi, IdenticalToOneRankAndToClosedForm) {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CubatureOptions o;
  o.dim = 4;
  o.rel_tol = 1e-11;
  o.min_regions = 5000;  // two chunks of phase-one regions: each rank refines one
  const CubatureIntegrand f = make_cubature_integrand(cubature_family<GenzOscillatory>, 4, 2.0, 0.3);
  ASSERT_GT(cubature_phase_one(f, o, ComputeDevice::Cpu).live_regions, kPhaseTwoChunk);
  const CubatureResult distributed = integrate_cubature_mpi(f, o, ComputeDevice::Cpu, MPI_COMM_WORLD);
  const CubatureResult single = integrate_cubature(f, o, ComputeDevice::Cpu);
  EXPECT_GE(size, 2) << "run with at least 2 ranks";
  EXPECT_EQ(distributed.status, IntegrationStatus::Converged);
  EXPECT_EQ(distributed.estimate, single.estimate);  // bit-identical
  EXPECT_EQ(distributed.error, single.error);
  EXPECT_EQ(distributed.evaluations, single.evaluations);
  EXPECT_EQ(distributed.regions, single.regions);
  const double exact = genz_exact_integral(f, 4);
  EXPECT_LE(std::fabs(distributed.estimate - exact), 1e-11 * std::fabs(exact));
  double rank_estimate[2] = {distributed.estimate, -distributed.estimate};
  MPI_Allreduce(MPI_IN_PLACE, rank_estimate, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  EXPECT_EQ(rank_estimate[0], -rank_estimate[1]) << "ranks disagree";
}

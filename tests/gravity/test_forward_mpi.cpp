// The gravity fields on several MPI ranks (CTest runs 2, label mpi): each
// rank evaluates its share of the prisms or grid nodes and rank 0's reduced
// fields equal one process's to 1e-12 of each field's largest magnitude, for
// the general and the grid path.
#include <gtest/gtest.h>
#include <mpi.h>

#include "gpu/gravity/forward_mpi.hpp"
#include "gpu/gravity/gravity.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "mesh/prisms/stations.hpp"
#include "gravity_test_support.hpp"

namespace geobem::gravity {
namespace {

void expect_equal_on_root(const ForwardResult& distributed, const ForwardResult& single, int rank) {
  if (rank != 0) return;
  const auto difference = test::relative_max_difference(distributed, single);
  for (std::size_t f = 0; f < single.values.size(); ++f) EXPECT_LE(difference[f], 1e-12) << field_name(single.fields[f]);
}

TEST(ForwardMpi, RanksSumToOneProcess) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  EXPECT_GE(size, 2) << "run with at least 2 ranks";
  const PrismGrid grid = prisms::sphere_grid(prisms::couder_grid(60, 60, 16), prisms::couder_spheres());
  const auto prisms = prisms::grid_prisms(grid);
  const auto stations = prisms::grid_stations({0, 22000, 0, 22000, 9, 7, 100});
  const auto fields = parse_fields("all");
  ForwardOptions one;
  one.quiet = true;
  const ForwardOptions mine = rank_options(one, rank, size);
  EXPECT_EQ(mine.part, rank);
  EXPECT_EQ(mine.parts, size);

  ForwardResult general = forward_model(prisms, stations, fields, mine);
  reduce_to_root(general, MPI_COMM_WORLD);
  expect_equal_on_root(general, forward_model(prisms, stations, fields, one), rank);

  ForwardResult on_grid = forward_model_grid(grid, stations, fields, mine);
  reduce_to_root(on_grid, MPI_COMM_WORLD);
  expect_equal_on_root(on_grid, forward_model_grid(grid, stations, fields, one), rank);
}

}  // namespace
}  // namespace geobem::gravity

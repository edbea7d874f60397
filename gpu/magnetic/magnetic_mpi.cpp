#include "gpu/magnetic/magnetic_mpi.hpp"

#include "gpu/gravity/forward_mpi.hpp"

namespace geobem::magnetic {

void reduce_to_root(Result& result, MPI_Comm comm) {
  for (auto& column : result.values) gravity::reduce_sums(column, comm);
  gravity::reduce_sums(result.budget.sums, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) complete_estimates(result);
}

}  // namespace geobem::magnetic

#include "gpu/gravity/forward_mpi.hpp"

#include <stdexcept>
#include <string>

#include "gpu/core/device.hpp"

namespace geobem::gravity {

ForwardOptions rank_options(ForwardOptions options, int rank, int size) {
  options.part = rank;
  options.parts = size;
  options.quiet = options.quiet || rank != 0;
  if (options.device == ComputeDevice::Cuda) select_cuda_device_for_rank(rank);
  return options;
}

void reduce_sums(std::vector<double>& values, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const int status = MPI_Reduce(rank == 0 ? MPI_IN_PLACE : values.data(), rank == 0 ? values.data() : nullptr,
                                static_cast<int>(values.size()), MPI_DOUBLE, MPI_SUM, 0, comm);
  if (status != MPI_SUCCESS)
    throw std::runtime_error("reduce_to_root: MPI_Reduce failed with code " + std::to_string(status));
}

void reduce_to_root(ForwardResult& result, MPI_Comm comm) {
  for (auto& column : result.values) reduce_sums(column, comm);
  reduce_sums(result.budget.sums, comm);
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == 0) complete_estimates(result);
}

}  // namespace geobem::gravity

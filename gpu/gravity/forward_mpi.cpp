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

void reduce_to_root(ForwardResult& result, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  for (auto& column : result.values) {
    const int status = MPI_Reduce(rank == 0 ? MPI_IN_PLACE : column.data(), rank == 0 ? column.data() : nullptr,
                                  static_cast<int>(column.size()), MPI_DOUBLE, MPI_SUM, 0, comm);
    if (status != MPI_SUCCESS)
      throw std::runtime_error("reduce_to_root: MPI_Reduce failed with code " + std::to_string(status));
  }
}

}  // namespace geobem::gravity

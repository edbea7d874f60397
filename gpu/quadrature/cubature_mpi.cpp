#include "gpu/quadrature/cubature_mpi.hpp"

namespace geobem::quadrature {

CubatureResult integrate_cubature_mpi(const CubatureIntegrand& f, const CubatureOptions& options,
                                      ComputeDevice device, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  if (device == ComputeDevice::Cuda) select_cuda_device_for_rank(rank);
  CubatureOptions local = options;
  local.quiet = options.quiet || rank != 0;
  const CubaturePhaseOne one = cubature_phase_one(f, local, device);
  if (one.converged || one.capped) return combine_phases(one, CubaturePhaseTwo{}, local);
  // Every rank passes the whole remainder: the per-region caps it is shared
  // into do not depend on which rank refines which chunk.
  CubaturePhaseTwo two = cubature_phase_two(f, local, one, rank, size, options.max_evaluations - one.evaluations, device);
  // Chunks a rank did not refine hold exact zeros, so the sums are exact copies.
  const int chunks = static_cast<int>(two.chunk_estimate.size());
  MPI_Allreduce(MPI_IN_PLACE, two.chunk_estimate.data(), chunks, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, two.chunk_error.data(), chunks, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, two.chunk_change.data(), chunks, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, two.chunk_rounding.data(), chunks, MPI_DOUBLE, MPI_SUM, comm);
  std::uint64_t totals[2] = {two.evaluations, two.regions};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_UINT64_T, MPI_SUM, comm);
  two.evaluations = totals[0];
  two.regions = totals[1];
  int capped = two.capped ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &capped, 1, MPI_INT, MPI_LOR, comm);
  two.capped = capped != 0;
  return combine_phases(one, two, options);
}

}  // namespace geobem::quadrature

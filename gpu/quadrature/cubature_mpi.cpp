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
  static_assert(sizeof(FinalRegionSums) == kFinalRegionSumsWords * sizeof(double), "chunk sums are reduced as doubles");
  const int words = static_cast<int>(two.chunks.size()) * kFinalRegionSumsWords;
  MPI_Allreduce(MPI_IN_PLACE, reinterpret_cast<double*>(two.chunks.data()), words, MPI_DOUBLE, MPI_SUM, comm);
  std::uint64_t totals[3] = {two.evaluations, two.regions, two.checked_regions};
  MPI_Allreduce(MPI_IN_PLACE, totals, 3, MPI_UINT64_T, MPI_SUM, comm);
  two.evaluations = totals[0];
  two.regions = totals[1];
  two.checked_regions = totals[2];
  int capped = two.capped ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &capped, 1, MPI_INT, MPI_LOR, comm);
  two.capped = capped != 0;
  return combine_phases(one, two, options);
}

}  // namespace geobem::quadrature

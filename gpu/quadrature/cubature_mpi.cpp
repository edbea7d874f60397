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
  std::vector<std::size_t> mine;
  for (std::size_t r = rank; r < one.live_regions; r += size) mine.push_back(r);
  // Every rank passes the whole remainder: the per-region caps it is shared
  // into do not depend on which rank refines which region.
  CubaturePhaseTwo two = cubature_phase_two(f, local, one, mine, options.max_evaluations - one.evaluations, device);
  // Regions a rank did not refine hold exact zeros, so the sums are exact copies.
  const int count = static_cast<int>(one.live_regions);
  MPI_Allreduce(MPI_IN_PLACE, two.estimate.data(), count, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, two.error.data(), count, MPI_DOUBLE, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, two.evaluations.data(), count, MPI_UINT64_T, MPI_SUM, comm);
  MPI_Allreduce(MPI_IN_PLACE, two.regions.data(), count, MPI_UINT64_T, MPI_SUM, comm);
  int capped = two.capped ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &capped, 1, MPI_INT, MPI_LOR, comm);
  two.capped = capped != 0;
  return combine_phases(one, two, options);
}

}  // namespace geobem::quadrature

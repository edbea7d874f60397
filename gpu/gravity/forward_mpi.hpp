#pragma once
// Several ranks (one GPU each, docs/design.md#distribution): each rank evaluates
// its share of the sources (ForwardOptions::part/parts = rank/size) and the
// station fields are summed on rank 0, which alone writes outputs.
#include <mpi.h>

#include "gpu/gravity/gravity.hpp"

namespace geobem::gravity {

/// ForwardOptions for rank `rank` of `size`: part = rank, parts = size,
/// progress only on rank 0; with ComputeDevice::Cuda it also selects device
/// rank mod (devices per host) for this process.
ForwardOptions rank_options(ForwardOptions options, int rank, int size);

/// Sums every rank's partial result (same fields, same stations) into rank
/// 0's, in place (MPI_Reduce, MPI_SUM), values and rounding budget, and
/// completes rank 0's estimates and warnings (complete_estimates); other
/// ranks keep their partial result. Collective over `comm`. Throws
/// std::runtime_error on an MPI error, InputError::usage as
/// complete_estimates (rank 0).
void reduce_to_root(ForwardResult& result, MPI_Comm comm);

/// Sums `values` over the ranks into rank 0's, in place (MPI_Reduce,
/// MPI_SUM). Collective over `comm`; throws std::runtime_error on an MPI error.
void reduce_sums(std::vector<double>& values, MPI_Comm comm);

}  // namespace geobem::gravity

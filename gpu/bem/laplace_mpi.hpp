#pragma once
// CQ frequencies over MPI ranks (one rank per GPU): the frequencies are
// independent, so rank r of P solves l = r, r + P, r + 2P, … (cyclic, which
// evens out the cost that grows with |s_l|), and rank 0 gathers the
// Laplace-domain solutions and alone writes them.
#include <mpi.h>

#include <vector>

#include "gpu/bem/cq_solver.hpp"

namespace geobem::bem {

/// The frequencies rank `rank` of `size` solves: rank, rank + size, … below `frequencies`.
std::vector<int> rank_frequencies(int frequencies, int rank, int size);

/// solve_laplace of this rank's share (rank r on CUDA device r mod devices
/// per host), then the gather on rank 0: rank 0 returns the solution of
/// every frequency in order, the other ranks an empty one. Collective over
/// `comm`. Timings are this rank's. Throws std::runtime_error on an MPI error.
template <class Solution = ElastodynamicFullSpace>
LaplaceSolution solve_laplace_mpi(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                  MPI_Comm comm, CqTimings& timings);

}  // namespace geobem::bem

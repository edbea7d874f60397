#pragma once
// Several ranks for the magnetic field, as gravity's forward_mpi.hpp: each
// rank evaluates its share of the prisms or layer cells, and the fields are
// summed on rank 0, which alone writes outputs.
#include <mpi.h>

#include "gpu/magnetic/magnetic.hpp"

namespace geobem::magnetic {

/// Sums every rank's partial result (same fields, same stations; all four
/// outputs are linear in the sources) into rank 0's, in place, values and
/// rounding budget, and completes rank 0's estimates and warnings
/// (complete_estimates). Collective over `comm`. Throws std::runtime_error on
/// an MPI error, InputError::usage as complete_estimates (rank 0).
void reduce_to_root(Result& result, MPI_Comm comm);

}  // namespace geobem::magnetic

#pragma once
// Several ranks (one GPU each, docs/design.md#distribution): every rank runs
// phase one (it is cheap and deterministic), rank k refines the phase-one
// regions r with r mod size = k in phase two, and the per-region results are
// summed over ranks so that every rank combines the same arrays in the same
// order: the result is bit-identical to one rank unless the evaluation cap
// (split evenly over the ranks) is reached.
#include <mpi.h>

#include "gpu/quadrature/cubature.hpp"

namespace geobem::quadrature {

/// Collective over `comm`; every rank returns the same result. With
/// ComputeDevice::Cuda each rank first takes device rank mod (devices per host).
/// Throws like integrate_cubature.
CubatureResult integrate_cubature_mpi(const CubatureIntegrand& integrand, const CubatureOptions& options,
                                      ComputeDevice device, MPI_Comm comm);

}  // namespace geobem::quadrature

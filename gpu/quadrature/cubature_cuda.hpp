#pragma once
// CUDA phases of the two-phase cubature for the catalogue integrand
// (instantiations of the templates in cubature_cuda.cuh). Throw
// geobem::DeviceError on CUDA failures.
#include "gpu/quadrature/cubature.hpp"

namespace geobem::quadrature {

/// Phase one on the current CUDA device (see cubature_cuda.cuh).
CubaturePhaseOne cuda_cubature_phase_one(const CubatureIntegrand& f, const CubatureOptions& options);

/// Phase two on the current CUDA device for the chunks of `rank` of `ranks`.
CubaturePhaseTwo cuda_cubature_phase_two(const CubatureIntegrand& f, const CubatureOptions& options,
                                         const CubaturePhaseOne& phase_one, int rank, int ranks,
                                         std::uint64_t evaluation_cap);

/// Copies live regions that a CUDA phase one left on its device to the host.
std::vector<CubatureRegion> cuda_copy_regions_to_host(const CubatureDeviceRegions& regions);

}  // namespace geobem::quadrature

// CUDA phases of the cubature for the catalogue integrand.
#include "gpu/quadrature/cubature_cuda.cuh"
#include "gpu/quadrature/cubature_cuda.hpp"

namespace geobem::quadrature {

CubaturePhaseOne cuda_cubature_phase_one(const CubatureIntegrand& f, const CubatureOptions& options) {
  return cuda_cubature_phase_one_for(f, options);
}

CubaturePhaseTwo cuda_cubature_phase_two(const CubatureIntegrand& f, const CubatureOptions& options,
                                         const CubaturePhaseOne& phase_one, int rank, int ranks,
                                         std::uint64_t evaluation_cap) {
  return cuda_cubature_phase_two_for(f, options, phase_one, rank, ranks, evaluation_cap);
}

std::vector<CubatureRegion> cuda_copy_regions_to_host(const CubatureDeviceRegions& regions) {
  std::vector<CubatureRegion> out(regions.count);
  GEOBEM_CUDA_CHECK(cudaSetDevice(regions.device));
  regions.buffer.download(out.data(), regions.count);
  return out;
}

}  // namespace geobem::quadrature

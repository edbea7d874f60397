// StreamedLuSolver (streamed_lu.hpp): systems dealt round-robin to the streams.
#include <cusolverDn.h>

#include <algorithm>

#include "gpu/bem/streamed_lu.hpp"
#include "gpu/core/cuda_check.hpp"

namespace geobem::bem {

StreamedLuSolver::StreamedLuSolver(int n, int cases, int streams) : n_(n), cases_(cases), lanes_(streams) {
  for (Lane& lane : lanes_) {
    lane.handle.set_stream(lane.stream.get());
    int workspace = 0;
    GEOBEM_CHECK(cusolverDnZgetrf_bufferSize(lane.handle.get(), n, n, nullptr, n, &workspace));
    lane.workspace = DeviceBuffer<Complex>(std::max(1, workspace));
    lane.pivots = DeviceBuffer<int>(n);
  }
}

void StreamedLuSolver::enqueue(Complex* matrices, Complex* rhs, int count, int* info, cudaEvent_t ready) {
  const long n = n_;
  for (Lane& lane : lanes_) GEOBEM_CUDA_CHECK(cudaStreamWaitEvent(lane.stream.get(), ready, 0));
  for (int f = 0; f < count; ++f) {
    Lane& lane = lanes_[f % lanes_.size()];
    auto* a = reinterpret_cast<cuDoubleComplex*>(matrices + f * n * n);
    auto* b = reinterpret_cast<cuDoubleComplex*>(rhs + f * n * cases_);
    GEOBEM_CHECK(cusolverDnZgetrf(lane.handle.get(), n_, n_, a, n_,
                                  reinterpret_cast<cuDoubleComplex*>(lane.workspace.data()), lane.pivots.data(),
                                  info + f));
    GEOBEM_CHECK(cusolverDnZgetrs(lane.handle.get(), CUBLAS_OP_N, n_, cases_, a, n_, lane.pivots.data(), b, n_,
                                  info + count + f));
  }
}

void StreamedLuSolver::synchronize() const {
  for (const Lane& lane : lanes_) lane.stream.synchronize();
}

}  // namespace geobem::bem

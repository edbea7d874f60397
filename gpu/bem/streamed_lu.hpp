#pragma once
// Dense solves A_f X_f = B_f of a few large systems on the GPU: cuSOLVER
// getrf/getrs of one system at a time, on several streams. For batches too
// small for BatchedLuSolver (batched_lu.hpp), whose panels run one thread
// block per system: with few systems of many unknowns one getrf fills the
// device better (measured on an H100, 6 systems of 5,382 unknowns: 0.208 s
// here, 0.217 s batched).
#include <cuda_runtime_api.h>

#include <vector>

#include "gpu/bem/complex.hpp"
#include "gpu/core/cuda_stream.hpp"
#include "gpu/core/library_handle.hpp"
#include "gpu/core/device_buffer.hpp"

namespace geobem::bem {

/// cuSOLVER getrf/getrs on `streams` streams, each with its own handle,
/// workspace and pivots.
class StreamedLuSolver {
 public:
  /// Throws DeviceError when a stream, handle or buffer cannot be made.
  StreamedLuSolver(int n, int cases, int streams);

  /// Queues, after `ready`, the solves of `count` systems in place:
  /// `matrices` (count · n², column-major, one after the other) end as
  /// LAPACK's LU factors, `rhs` (count · n · cases) as X. `info` (device,
  /// 2·count ints): getrf's (j + 1 for a zero pivot in column j), then
  /// getrs's. Throws DeviceError for a failed call.
  void enqueue(Complex* matrices, Complex* rhs, int count, int* info, cudaEvent_t ready);
  /// Waits for the queued solves; throws DeviceError for a failure of them.
  void synchronize() const;

 private:
  struct Lane {
    CudaStream stream;
    CusolverDnHandle handle;
    DeviceBuffer<Complex> workspace;
    DeviceBuffer<int> pivots;
  };
  int n_, cases_;
  std::vector<Lane> lanes_;
};

}  // namespace geobem::bem

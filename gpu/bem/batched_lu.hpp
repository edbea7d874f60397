#pragma once
// Dense solves A_f X_f = B_f of many systems of one size at once on the GPU
// (the CQ frequencies of a batch): blocked right-looking LU with partial
// pivoting (Golub & Van Loan, Matrix Computations, 4th ed., §3.4; the row
// interchange chosen as LAPACK's zgetf2 chooses it, the first largest
// |Re| + |Im| of the column) over the whole batch at once. Each step factors
// a panel of 64 columns of every system (one thread block per system),
// swaps the rows of the rest, solves for the panel's block row of U and
// updates the trailing matrices by one strided-batched ZGEMM (cuBLAS, FP64
// tensor cores). The right-hand sides are eliminated alongside, so only back
// substitution with U remains (blockwise, the same kernels and ZGEMMs).
// Measured on an H100 (bench_bem lu): 171 systems of 1,587 unknowns in
// 0.125 s, against 0.50 s for cuSOLVER getrf/getrs of one system at a time
// on 16 streams; backward error 6e-16.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

#include "gpu/bem/complex.hpp"
#include "gpu/core/library_handle.hpp"
#include "gpu/core/cuda_stream.hpp"
#include "gpu/core/device_buffer.hpp"

namespace geobem::bem {

/// Blocked LU of up to `max_count` systems at once, on a stream of its own.
class BatchedLuSolver {
 public:
  /// Columns per elimination step: the inner dimension of the trailing
  /// ZGEMMs (wide enough for the tensor cores).
  static constexpr int panel_width = 64;
  /// Device bytes a system needs beyond its matrix and right-hand sides (its
  /// row interchanges and status).
  static constexpr std::size_t bytes_per_system = (panel_width + 1) * sizeof(int);

  /// For up to `max_count` systems of n unknowns and `cases` right-hand sides.
  /// Throws DeviceError when the stream, handle or pivot buffer cannot be made.
  BatchedLuSolver(int n, int cases, int max_count);

  /// Queues, after `ready`, the solves of `count` ≤ max_count systems in
  /// place: `matrices` (count · n², column-major, one after the other) end as
  /// U above the diagonal and the multipliers of each step below it (not
  /// permuted as LAPACK's L is), `rhs` (count · n · cases, column-major n ×
  /// cases each) as X. `info` (device, ≥ count ints, cleared by the caller):
  /// info[f] = j + 1 for the first column j of system f without a nonzero
  /// pivot (then X_f is not usable). Throws InputError naming both
  /// counts when count > max_count, DeviceError for a failed launch.
  void enqueue(Complex* matrices, Complex* rhs, int count, int* info, cudaEvent_t ready);
  /// Waits for the queued solves; throws DeviceError for a failure of them.
  void synchronize() const { stream_.synchronize(); }

 private:
  /// The solves of at most 65,535 systems (a grid's y extent).
  void enqueue_slice(Complex* matrices, Complex* rhs, int count, int* info);

  int n_, cases_, max_count_;
  CudaStream stream_;
  CublasHandle blas_;
  DeviceBuffer<int> pivots_;  ///< one panel's row interchanges per system
};

}  // namespace geobem::bem

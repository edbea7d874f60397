// Kernels and cuBLAS calls of BatchedLuSolver (batched_lu.hpp). All
// matrices are column-major with leading dimension n.
#include <cublas_v2.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpu/bem/batched_lu.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/library_handle.hpp"
#include "gpu/core/cuda_check.hpp"

namespace geobem::bem {

namespace {

constexpr int panel_width = BatchedLuSolver::panel_width;
static_assert(panel_width == 64, "the triangular kernels hold a panel's rows in two values per lane");
/// Columns a panel is factorised by before the rest of it is updated.
constexpr int sub_width = 8;
constexpr int panel_threads = 512;
constexpr int triangular_threads = 256;
constexpr unsigned full_warp = 0xffffffffu;

__device__ double abs1(Complex z) { return fabs(z.re) + fabs(z.im); }

__device__ Complex shuffle(Complex z, int lane) {
  return {__shfl_sync(full_warp, z.re, lane), __shfl_sync(full_warp, z.im, lane)};
}

/// Block f: LU with partial pivoting (LAPACK zgetf2's choice of pivot) of
/// columns k…k+width−1, rows k…n−1, of system f, in sub-panels of
/// `sub_width` columns: each sub-panel column by column, then one rank-8
/// update of the panel's columns right of it, so that those are read and
/// written once per sub-panel instead of once per column (the panel, about
/// n·64 complex values a system, does not fit on chip). Rows are swapped
/// within the panel only; pivots[f·panel_width + j] is the row swapped with
/// k + j. info[f] is set to the first column without a nonzero pivot.
__global__ void __launch_bounds__(panel_threads)
    factor_panel_kernel(Complex* matrices, long n, long k, int width, int* pivots, int* info) {
  __shared__ Complex pivot_row[panel_width];
  __shared__ Complex u[sub_width][panel_width];  // the sub-panel's rows of U right of it
  __shared__ double warp_value[panel_threads / 32];
  __shared__ int warp_row[panel_threads / 32];
  __shared__ int pivot;
  const int f = blockIdx.x, warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  Complex* a = matrices + f * n * n;
  for (int s0 = 0; s0 < width; s0 += sub_width) {
    const int s1 = min(s0 + sub_width, width);
    for (int j = s0; j < s1; ++j) {
      const long column = k + j;
      Complex* c = a + column * n;
      // The first row of the largest |Re| + |Im| (NaN never wins; an all-NaN
      // or all-zero column keeps its own row and is reported below).
      double value = -1.0;
      int row = static_cast<int>(column);
      for (long r = column + threadIdx.x; r < n; r += blockDim.x) {
        const double v = abs1(c[r]);
        if (v > value) {
          value = v;
          row = static_cast<int>(r);
        }
      }
      for (int offset = 16; offset > 0; offset >>= 1) {
        const double v = __shfl_down_sync(full_warp, value, offset);
        const int r = __shfl_down_sync(full_warp, row, offset);
        if (v > value || (v == value && r < row)) {
          value = v;
          row = r;
        }
      }
      if (lane == 0) {
        warp_value[warp] = value;
        warp_row[warp] = row;
      }
      __syncthreads();
      if (threadIdx.x == 0) {
        for (int w = 1; w < static_cast<int>(blockDim.x / 32); ++w)
          if (warp_value[w] > value || (warp_value[w] == value && warp_row[w] < row)) {
            value = warp_value[w];
            row = warp_row[w];
          }
        pivot = row;
        pivots[f * panel_width + j] = row;
        if (!(value > 0.0) && info[f] == 0) info[f] = static_cast<int>(column) + 1;
      }
      __syncthreads();
      const long p = pivot;
      for (int col = threadIdx.x; col < width; col += blockDim.x) {
        Complex* panel_column = a + (k + col) * n;
        const Complex t = panel_column[p];
        if (p != column) {
          panel_column[p] = panel_column[column];
          panel_column[column] = t;
        }
        pivot_row[col] = t;
      }
      __syncthreads();
      const Complex d = pivot_row[j];
      if (d.re != 0.0 || d.im != 0.0) {
        const Complex inverse = 1.0 / d;
        for (long r = column + 1 + threadIdx.x; r < n; r += blockDim.x) {
          const Complex l = c[r] * inverse;
          c[r] = l;
          for (int col = j + 1; col < s1; ++col) a[r + (k + col) * n] -= l * pivot_row[col];
        }
      }
      __syncthreads();
    }
    if (s1 == width) break;  // a sub-panel short of sub_width columns is the panel's last
    // Rows k+s0…k+s1−1 of the columns right of the sub-panel: forward
    // substitution with its unit lower triangle.
    for (int col = s1 + threadIdx.x; col < width; col += blockDim.x) {
      Complex* target = a + (k + col) * n + k + s0;
      Complex x[sub_width];
#pragma unroll
      for (int q = 0; q < sub_width; ++q) {
        Complex v = target[q];
#pragma unroll
        for (int t = 0; t < q; ++t) v -= a[(k + s0 + q) + (k + s0 + t) * n] * x[t];
        x[q] = v;
        target[q] = v;
        u[q][col] = v;
      }
    }
    __syncthreads();
    // Rank-sub_width update of rows k+s1…n−1 of those columns.
    for (long r = k + s1 + threadIdx.x; r < n; r += blockDim.x) {
      Complex l[sub_width];
#pragma unroll
      for (int q = 0; q < sub_width; ++q) l[q] = a[r + (k + s0 + q) * n];
      for (int col = s1; col < width; ++col) {
        Complex v = a[r + (k + col) * n];
#pragma unroll
        for (int q = 0; q < sub_width; ++q) v -= l[q] * u[q][col];
        a[r + (k + col) * n] = v;
      }
    }
    __syncthreads();
  }
}

/// Thread (column, f): the panel's row interchanges of system f, in order, in
/// columns first_column…first_column+columns−1 of `systems` (stride `stride`
/// between systems).
__global__ void swap_rows_kernel(Complex* systems, long stride, long n, long first_column, long columns, long k,
                                 int width, const int* pivots) {
  const long column = blockIdx.x * static_cast<long>(blockDim.x) + threadIdx.x;
  if (column >= columns) return;
  const int f = blockIdx.y;
  Complex* c = systems + f * stride + (first_column + column) * n;
  const int* p = pivots + f * panel_width;
  for (int j = 0; j < width; ++j) {
    const long r = p[j];
    if (r == k + j) continue;
    const Complex t = c[r];
    c[r] = c[k + j];
    c[k + j] = t;
  }
}

/// Warp (column, f): T x = b in place for rows k…k+width−1 of one column of
/// `right` (system f at f·right_stride, columns from first_column), T the
/// width × width diagonal block at (k, k) of matrix f: unit lower triangular
/// (forward substitution) or upper triangular (back substitution). Lane i
/// holds rows k + i and k + 32 + i.
template <bool upper>
__global__ void __launch_bounds__(triangular_threads)
    diagonal_block_solve_kernel(const Complex* matrices, long n, long k, int width, Complex* right,
                                long right_stride, long first_column, long columns) {
  const long column = blockIdx.x * static_cast<long>(blockDim.x / 32) + threadIdx.x / 32;
  if (column >= columns) return;  // the whole warp: one column per warp
  const int lane = threadIdx.x % 32, f = blockIdx.y;
  const Complex* t = matrices + f * n * n + k + k * n;  // T(i, j) = t[i + j·n]
  Complex* x = right + f * right_stride + (first_column + column) * n + k;
  Complex low = lane < width ? x[lane] : Complex(), high = lane + 32 < width ? x[lane + 32] : Complex();
  if (upper) {
    for (int j = width - 1; j >= 0; --j) {
      if (lane == j % 32) {
        if (j < 32)
          low = low / t[j + j * n];
        else
          high = high / t[j + j * n];
      }
      const Complex xj = shuffle(j < 32 ? low : high, j % 32);
      if (lane < j) low -= t[lane + j * n] * xj;
      if (lane + 32 < j) high -= t[lane + 32 + j * n] * xj;
    }
  } else {
    for (int j = 0; j + 1 < width; ++j) {
      const Complex xj = shuffle(j < 32 ? low : high, j % 32);
      if (lane > j && lane < width) low -= t[lane + j * n] * xj;
      if (lane + 32 > j && lane + 32 < width) high -= t[lane + 32 + j * n] * xj;
    }
  }
  if (lane < width) x[lane] = low;
  if (lane + 32 < width) x[lane + 32] = high;
}

template <bool upper>
void diagonal_block_solve(const Complex* matrices, long n, long k, int width, Complex* right, long right_stride,
                          long first_column, long columns, int count, cudaStream_t stream) {
  if (columns <= 0) return;
  constexpr int warps = triangular_threads / 32;
  const dim3 grid(static_cast<unsigned>((columns + warps - 1) / warps), count);
  diagonal_block_solve_kernel<upper>
      <<<grid, triangular_threads, 0, stream>>>(matrices, n, k, width, right, right_stride, first_column, columns);
  GEOBEM_CUDA_CHECK_LAUNCH();
}

void swap_rows(Complex* systems, long stride, long n, long first_column, long columns, long k, int width,
               const int* pivots, int count, cudaStream_t stream) {
  if (columns <= 0) return;
  constexpr int threads = 128;
  const dim3 grid(static_cast<unsigned>((columns + threads - 1) / threads), count);
  swap_rows_kernel<<<grid, threads, 0, stream>>>(systems, stride, n, first_column, columns, k, width, pivots);
  GEOBEM_CUDA_CHECK_LAUNCH();
}

/// C_f −= A_f B_f for every system f (m × columns, inner dimension `inner`).
void subtract_products(cublasHandle_t blas, int m, int columns, int inner, const Complex* a, long long a_stride,
                       const Complex* b, long long b_stride, Complex* c, long long c_stride, int n, int count) {
  if (m <= 0 || columns <= 0) return;
  const cuDoubleComplex minus_one{-1.0, 0.0}, one{1.0, 0.0};
  GEOBEM_CUBLAS_CHECK(cublasZgemmStridedBatched(
      blas, CUBLAS_OP_N, CUBLAS_OP_N, m, columns, inner, &minus_one, reinterpret_cast<const cuDoubleComplex*>(a), n,
      a_stride, reinterpret_cast<const cuDoubleComplex*>(b), n, b_stride, &one, reinterpret_cast<cuDoubleComplex*>(c),
      n, c_stride, count));
}

}  // namespace

BatchedLuSolver::BatchedLuSolver(int n, int cases, int max_count)
    : n_(n),
      cases_(cases),
      max_count_(max_count),
      pivots_(static_cast<std::size_t>(std::max(1, max_count)) * panel_width) {
  blas_.set_stream(stream_.get());
}

void BatchedLuSolver::enqueue(Complex* matrices, Complex* rhs, int count, int* info, cudaEvent_t ready) {
  if (count > max_count_)
    throw InputError("BatchedLuSolver: " + std::to_string(count) + " systems, but it was made for at most " +
                     std::to_string(max_count_));
  GEOBEM_CUDA_CHECK(cudaStreamWaitEvent(stream_.get(), ready, 0));
  // The kernels take the system from gridDim.y, at most 65,535.
  constexpr int slice = 65535;
  const std::size_t square = static_cast<std::size_t>(n_) * n_, block = static_cast<std::size_t>(n_) * cases_;
  for (int first = 0; first < count; first += slice)
    enqueue_slice(matrices + first * square, rhs + first * block, std::min(slice, count - first), info + first);
}

void BatchedLuSolver::enqueue_slice(Complex* matrices, Complex* rhs, int count, int* info) {
  const long n = n_, square = n * n, rhs_stride = n * cases_;
  cudaStream_t stream = stream_.get();
  // Forward: factor, and eliminate the right-hand sides alongside.
  for (long k = 0; k < n; k += panel_width) {
    const int width = static_cast<int>(std::min<long>(panel_width, n - k));
    const long rest = n - k - width;
    factor_panel_kernel<<<count, panel_threads, 0, stream>>>(matrices, n, k, width, pivots_.data(), info);
    GEOBEM_CUDA_CHECK_LAUNCH();
    // Columns left of the panel hold multipliers no later step reads: not swapped.
    swap_rows(matrices, square, n, k + width, rest, k, width, pivots_.data(), count, stream);
    swap_rows(rhs, rhs_stride, n, 0, cases_, k, width, pivots_.data(), count, stream);
    diagonal_block_solve<false>(matrices, n, k, width, matrices, square, k + width, rest, count, stream);
    diagonal_block_solve<false>(matrices, n, k, width, rhs, rhs_stride, 0, cases_, count, stream);
    const Complex* below = matrices + (k + width) + k * n;  // the panel's multipliers under its diagonal block
    subtract_products(blas_.get(), rest, rest, width, below, square, matrices + k + (k + width) * n, square,
                      matrices + (k + width) + (k + width) * n, square, n_, count);
    subtract_products(blas_.get(), rest, cases_, width, below, square, rhs + k, rhs_stride, rhs + k + width,
                      rhs_stride, n_, count);
  }
  // Back substitution with U, one diagonal block after another from the last.
  for (long k = (n - 1) / panel_width * panel_width; k >= 0; k -= panel_width) {
    const int width = static_cast<int>(std::min<long>(panel_width, n - k));
    diagonal_block_solve<true>(matrices, n, k, width, rhs, rhs_stride, 0, cases_, count, stream);
    subtract_products(blas_.get(), static_cast<int>(k), cases_, width, matrices + k * n, square, rhs + k, rhs_stride,
                      rhs, rhs_stride, n_, count);
  }
}

}  // namespace geobem::bem

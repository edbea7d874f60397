// CUDA path of the hierarchical solver (hierarchical_solver.hpp). Once per
// mesh: the layout (host), the rigid-body sums (GPU), the model and layout on
// the device. Per batch of frequencies (as many as the device-memory budget
// allows, at most max_batch_frequencies):
//  1. the leaves the damping drops (host, error_budget.hpp);
//  2. the near field: a thread block per (collocation point, frequency)
//     integrates the pairs of the dense leaves over its row leaf, tile by
//     tile, through the dense path's pair kernel and rounds
//     (pair_rounds.cuh), into 3 rows in shared memory, then writes them into
//     each leaf; its part of the right-hand side likewise;
//  3. ACA: a thread block per (admissible leaf, frequency), the element
//     columns from the same pair kernel (element_columns.hpp), its pivots
//     and residuals in global workspace, in chunks within the budget; then a
//     block per leaf sums the factors into the unknowns' columns (G) and the
//     right-hand side; a leaf ACA does not converge for within aca_rank_cap
//     is formed dense from its element columns, and without ACA for the next
//     batches (AcaHistory). The factors are
//     kept as ACA leaves them (no SVD recompression on the device: at the
//     ranks measured, 0–12, it would save little), so ACA takes the leaf's
//     whole share of the error;
//  4. the block-Jacobi factors of every frequency (cuBLAS getrfBatched);
//  5. GMRES per frequency and load case on the device (gmres.hpp with
//     DeviceVectors), x̂ copied back.
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/bem/device_model.cuh"
#include "gpu/bem/hierarchical/block_reduce.cuh"
#include "gpu/bem/hierarchical/device_operator.hpp"
#include "gpu/bem/hierarchical/element_columns.hpp"
#include "gpu/bem/hierarchical/error_budget.hpp"
#include "gpu/bem/hierarchical/gmres.hpp"
#include "gpu/bem/hierarchical/hierarchical_assembly.hpp"
#include "gpu/bem/hierarchical/hierarchical_solver.hpp"
#include "gpu/bem/pair_rounds.cuh"
#include "gpu/core/cuda_check.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/device_memory_budget.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/core/seconds_since.hpp"

namespace geobem::bem {

using namespace hierarchical;

namespace {

/// Frequencies per batch at most: 8 already launch 8 × (collocation points)
/// near-field blocks, several waves on 132 SMs from 1,000 points up, and more
/// would only hold more memory.
constexpr int max_batch_frequencies = 8;

/// (Collocation point, frequency) near-field blocks a batch holds at most:
/// hundreds of waves on 132 SMs, so that a larger mesh takes fewer
/// frequencies per batch and its peak memory stays near one frequency's (the
/// batches measured: 8 frequencies up to 12,180 triangles, 3 at 31,644, 1 at
/// 50,456, 13.2 GB of peak device memory there; bench/RESULTS.md).
constexpr long long max_batch_point_frequencies = 50000;

/// ACA's workspace at once: a quarter of the device-memory budget, at most
/// 4 GB. Each item reserves its rank cap (aca_rank_cap, about 21 on leaves
/// of 24 points and 48 elements): a chunk of 4 GB holds about 18,000 such
/// leaves.
std::uint64_t aca_workspace_bytes(std::uint64_t budget) { return std::min<std::uint64_t>(budget / 4, 4ull << 30); }

/// The admissible leaves ACA failed on lately: a leaf formed dense after ACA
/// at a batch's frequencies is formed dense without ACA for the next
/// retry_batches batches, then tried again. Neighbouring CQ frequencies have
/// nearly the same kernel, and a failed ACA costs more than the dense leaf
/// (it runs to aca_rank_cap before the leaf is computed again).
struct AcaHistory {
  static constexpr int retry_batches = 4;
  std::vector<int> failed_at;  ///< per admissible leaf: the batch ACA last failed on it at, −1 never
  int batch = 0;
  explicit AcaHistory(int admissible) : failed_at(admissible, -1) {}
  bool predicts_dense(int slot) const { return failed_at[slot] >= 0 && batch - failed_at[slot] <= retry_batches; }
};

// ---------------------------------------------------------------- near field

/// Adds pair (p, e)'s integrals into the tile's 3 shared rows (scatter_pair's
/// Adder): the element's unknowns' local columns from its leaf's first
/// column `base`, a fixed element's traction column scaled by w, the
/// right-hand side per case.
struct TileAdder {
  Complex *rows, *rhs_rows;
  int columns, p, base;
  int global[4], local[4];
  double traction_scale;
  __device__ static void add(Complex* target, Complex value) {
    double* slot = reinterpret_cast<double*>(target);
    atomicAdd(slot, value.re);
    atomicAdd(slot + 1, value.im);
  }
  __device__ void matrix(int row, int column, Complex value) {
    for (int k = 0; k < 4; ++k)
      if (global[k] == column / 3) {
        add(rows + (row - 3 * p) * columns + base + 3 * local[k] + column % 3,
            k == 3 ? traction_scale * value : value);
        return;
      }
  }
  __device__ void rhs(int row, int load_case, Complex value) { add(rhs_rows + 3 * load_case + (row - 3 * p), value); }
};

/// The tile's pairs of collocation point p whose dense leaf is kept at s.
template <class Solution>
struct TileSource {
  const ModelView& mv;
  const LayoutView& lv;
  NearTile tile;
  int p;
  Complex s;
  const char* kept;
  __device__ int count() const { return tile.pair_end - tile.pair_begin; }
  __device__ int element(int index) const { return lv.near_pairs[tile.pair_begin + index].element; }
  __device__ bool take(int index, PairRule& rule, bool& flag) const {
    const NearPair pair = lv.near_pairs[tile.pair_begin + index];
    flag = false;
    return kept[pair.near] && pair_rule<Solution>(mv, p, pair.element, s, rule);
  }
};

struct TileSink {
  const ModelView& mv;
  const LayoutView& lv;
  NearTile tile;
  int p;
  Complex *rows, *rhs;
  template <class Integrand>
  __device__ void add(int index, int e, const Integrand& integrand, bool) {
    const NearPair pair = lv.near_pairs[tile.pair_begin + index];
    const int* local = lv.local_columns + 4 * pair.columns;
    TileAdder adder{rows,
                    rhs,
                    tile.shared_columns,
                    p,
                    pair.shared,
                    {mv.node_block[mv.triangles[3 * e]], mv.node_block[mv.triangles[3 * e + 1]],
                     mv.node_block[mv.triangles[3 * e + 2]], mv.element_block[e]},
                    {local[0], local[1], local[2], local[3]},
                    lv.traction_scale};
    scatter_pair(mv, p, e, integrand, adder);
  }
};

/// Block (k, f): tree position k's 3 rows of every dense leaf over its row
/// leaf at frequency f of the batch, and its part of the right-hand sides.
template <class Solution>
__global__ void __launch_bounds__(assembly_threads)
    near_field_kernel(ModelView mv, LayoutView lv, const QuadratureTable* table, const Complex* s, const char* near_kept,
                      std::size_t near_values, int n, Complex* near, Complex* rhs) {
  extern __shared__ Complex shared[];
  const int k = blockIdx.x, f = blockIdx.y, cases = mv.load_case_count;
  const int p = lv.row_order[k], leaf = lv.leaf_of_position[k];
  const char* kept = near_kept + static_cast<std::size_t>(f) * lv.near_count;
  Complex *rhs_rows = shared, *rows = shared + 3 * cases;
  for (int i = threadIdx.x; i < 3 * cases; i += blockDim.x) rhs_rows[i] = Complex();
  for (int t = lv.tile_offset[leaf]; t < lv.tile_offset[leaf + 1]; ++t) {
    const NearTile tile = lv.tiles[t];
    for (int i = threadIdx.x; i < 3 * tile.shared_columns; i += blockDim.x) rows[i] = Complex();
    const TileSource<Solution> source{mv, lv, tile, p, s[f], kept};
    TileSink sink{mv, lv, tile, p, rows, rhs_rows};
    integrate_in_rounds<Solution>(mv, p, s[f], *table, source, sink);  // ends at a barrier
    for (int b = tile.block_begin; b < tile.block_end; ++b) {
      const int slot = lv.tile_blocks[b], first = lv.tile_block_shared[b];
      if (!kept[slot]) continue;
      const LayoutBlock block = lv.blocks[lv.near_blocks[slot]];
      const int row = 3 * (k - lv.row_clusters[block.row_cluster].begin);
      Complex* target = near + static_cast<std::size_t>(f) * near_values + block.near_offset;
      for (int idx = threadIdx.x; idx < 3 * block.columns; idx += blockDim.x) {
        const int i = idx % 3, column = idx / 3;
        target[row + i + static_cast<std::size_t>(column) * block.rows] = rows[i * tile.shared_columns + first + column];
      }
    }
    __syncthreads();
  }
  for (int i = threadIdx.x; i < 3 * cases; i += blockDim.x)
    rhs[(static_cast<std::size_t>(f) * cases + i / 3) * n + 3 * k + i % 3] = rhs_rows[i];
}

// ---------------------------------------------------------------------- ACA

/// One ACA of the batch: an admissible leaf (slot) at a frequency of the
/// batch, its rank cap (0: formed dense without ACA), its absolute target (in
/// element columns), where its workspace starts, and its seed.
struct AcaItem {
  int slot, frequency, max_rank;
  double target;
  std::size_t workspace, flags;
  unsigned long long seed;
};

struct AcaOutcome {
  int rank, converged;
  double error;  ///< ACA's estimate of ‖E − U Vᵀ‖_F
};

/// Complex values of an item's workspace: U (m × cap), V (n × cap), its rows'
/// cache (3 × n), its columns' cache (12 × m), a residual row (n) and column
/// (m), r (cap × cases) for the right-hand side.
GEOBEM_HD std::size_t aca_workspace(int m, int n, int cap, int cases) {
  return static_cast<std::size_t>(m + n) * cap + 3ull * n + 12ull * m + n + m + static_cast<std::size_t>(cap) * cases;
}

__device__ unsigned long long next_random(unsigned long long& state) {
  unsigned long long z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The ACA of aca.hpp on one admissible leaf's element columns (rows by
/// collocation point, columns by element), block-wide: every step's pair
/// integrals over the block's threads, its residuals and pivots by block
/// reductions. The same decisions as the CPU's: the pivot row, the pivot
/// column, three zero rows, the two sampled check points.
template <class Solution>
__global__ void __launch_bounds__(assembly_threads)
    aca_kernel(ModelView mv, LayoutView lv, const QuadratureTable* table, const Complex* s, const AcaItem* items,
               Complex* workspace, char* flags, AcaOutcome* outcomes) {
  __shared__ double values[assembly_threads];
  __shared__ int indices[assembly_threads];
  __shared__ int cached_point, cached_element, next_row;
  __shared__ unsigned long long state;
  const AcaItem item = items[blockIdx.x];
  if (item.max_rank == 0) {  // the same in every thread: formed dense
    if (threadIdx.x == 0) outcomes[blockIdx.x] = AcaOutcome{0, 0, 0.0};
    return;
  }
  const LayoutBlock block = lv.blocks[lv.admissible_blocks[item.slot]];
  const Cluster tau = lv.row_clusters[block.row_cluster], sigma = lv.element_clusters[block.column_cluster];
  const int m = 3 * tau.size(), n = 12 * sigma.size(), cap = item.max_rank;
  const Complex laplace = s[item.frequency];
  Complex* u = workspace + item.workspace;
  Complex* v = u + static_cast<std::size_t>(m) * cap;
  Complex* row_cache = v + static_cast<std::size_t>(n) * cap;
  Complex* column_cache = row_cache + 3 * static_cast<std::size_t>(n);
  Complex* row = column_cache + 12 * static_cast<std::size_t>(m);
  Complex* column = row + n;
  char* used_row = flags + item.flags;
  char* used_column = used_row + m;
  for (int i = threadIdx.x; i < m; i += blockDim.x) used_row[i] = 0;
  for (int j = threadIdx.x; j < n; j += blockDim.x) used_column[j] = 0;
  if (threadIdx.x == 0) {
    cached_point = cached_element = -1;
    next_row = 0;
    state = item.seed;
  }
  __syncthreads();
  auto cache_rows = [&](int group) {  // the 3 rows of collocation point `group`
    if (cached_point == group) return;
    const int p = lv.row_order[tau.begin + group];
    for (int k = threadIdx.x; k < sigma.size(); k += blockDim.x) {
      Complex e_block[3][12];
      element_columns<Solution>(mv, p, lv.element_order[sigma.begin + k], laplace, *table, lv.traction_scale,
                                e_block);
      for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 12; ++c) row_cache[static_cast<std::size_t>(i) * n + 12 * k + c] = e_block[i][c];
    }
    __syncthreads();
    if (threadIdx.x == 0) cached_point = group;
    __syncthreads();
  };
  auto cache_columns = [&](int group) {  // the 12 columns of element `group`
    if (cached_element == group) return;
    const int e = lv.element_order[sigma.begin + group];
    for (int k = threadIdx.x; k < tau.size(); k += blockDim.x) {
      Complex e_block[3][12];
      element_columns<Solution>(mv, lv.row_order[tau.begin + k], e, laplace, *table, lv.traction_scale, e_block);
      for (int i = 0; i < 3; ++i)
        for (int c = 0; c < 12; ++c) column_cache[static_cast<std::size_t>(c) * m + 3 * k + i] = e_block[i][c];
    }
    __syncthreads();
    if (threadIdx.x == 0) cached_element = group;
    __syncthreads();
  };
  int rank = 0, zero_rows = 0;
  auto residual_row = [&](int i) {  // row = M(i, :) − Σ_l u_l(i) v_l; returns its squared norm
    cache_rows(i / 3);
    double norm2 = 0.0;
    for (int j = threadIdx.x; j < n; j += blockDim.x) {
      Complex value = row_cache[static_cast<std::size_t>(i % 3) * n + j];
      for (int l = 0; l < rank; ++l) value -= u[i + static_cast<std::size_t>(l) * m] * v[j + static_cast<std::size_t>(l) * n];
      row[j] = value;
      norm2 += value.re * value.re + value.im * value.im;
    }
    return block_sum(norm2, values);
  };
  AcaOutcome outcome{0, 0, 0.0};
  for (;;) {
    const int i = next_row;
    bool converged_step = false;
    if (threadIdx.x == 0) used_row[i] = 1;  // seen by all after residual_row's barriers
    residual_row(i);
    double largest = -1.0;
    int pivot = -1;
    {
      double own = -1.0;
      int own_index = -1;
      for (int j = threadIdx.x; j < n; j += blockDim.x)
        if (!used_column[j] && abs(row[j]) > own) {
          own = abs(row[j]);
          own_index = j;
        }
      block_argmax(own, own_index, values, indices, largest, pivot);
    }
    double step = 0.0;
    if (pivot < 0 || largest == 0.0) {
      pivot = -1;
      converged_step = ++zero_rows >= 3;
    } else {
      zero_rows = 0;
      if (rank == cap) break;  // not converged within the cap
      cache_columns(pivot / 12);
      const Complex inverse = Complex(1.0) / row[pivot];
      double u2 = 0.0, v2 = 0.0;
      for (int k = threadIdx.x; k < m; k += blockDim.x) {
        Complex value = column_cache[static_cast<std::size_t>(pivot % 12) * m + k];
        for (int l = 0; l < rank; ++l) value -= v[pivot + static_cast<std::size_t>(l) * n] * u[k + static_cast<std::size_t>(l) * m];
        column[k] = value;
        u[k + static_cast<std::size_t>(rank) * m] = value;
        u2 += value.re * value.re + value.im * value.im;
      }
      for (int j = threadIdx.x; j < n; j += blockDim.x) {
        const Complex value = row[j] * inverse;
        v[j + static_cast<std::size_t>(rank) * n] = value;
        v2 += value.re * value.re + value.im * value.im;
      }
      u2 = block_sum(u2, values);
      v2 = block_sum(v2, values);
      if (threadIdx.x == 0) used_column[pivot] = 1;
      ++rank;
      step = sqrt(u2 * v2);
      converged_step = step <= item.target;
    }
    // The next pivot row: the largest |u| among unused rows.
    int unused = 0, candidate = -1;
    {
      double own = -1.0;
      int own_index = -1, own_unused = 0;
      for (int k = threadIdx.x; k < m; k += blockDim.x)
        if (!used_row[k]) {
          ++own_unused;
          if (pivot >= 0 && abs(column[k]) > own) {
            own = abs(column[k]);
            own_index = k;
          }
        }
      unused = static_cast<int>(block_sum(own_unused, values));
      double best;
      block_argmax(own, own_index, values, indices, best, candidate);
    }
    if (unused == 0) {  // every row a pivot row: exact
      outcome = {rank, 1, 0.0};
      break;
    }
    if (threadIdx.x == 0) {
      next_row = candidate;
      if (candidate < 0 || (pivot < 0 && !converged_step)) {
        const int skip = static_cast<int>(next_random(state) % unused);
        for (int k = 0, seen = 0; k < m; ++k)
          if (!used_row[k] && seen++ == skip) next_row = k;
      }
    }
    __syncthreads();
    if (!converged_step) continue;
    // Check: two sampled collocation points' unused rows against the target.
    double sampled = 0.0, worst_norm = -1.0;
    int sampled_rows = 0, worst = -1;
    for (int trial = 0; trial < 2; ++trial) {
      __shared__ int group;
      if (threadIdx.x == 0) group = static_cast<int>(next_random(state) % (m / 3));
      __syncthreads();
      const int g = group;
      __syncthreads();
      for (int r = 0; r < 3; ++r) {
        const int k = 3 * g + r;
        if (used_row[k]) continue;
        const double norm2 = residual_row(k);
        sampled += norm2;
        ++sampled_rows;
        if (norm2 > worst_norm) {
          worst_norm = norm2;
          worst = k;
        }
      }
    }
    const double estimate = sampled_rows ? sqrt(sampled * unused / sampled_rows) : 0.0;
    if (estimate <= item.target) {
      outcome = {rank, 1, fmax(step, estimate)};
      break;
    }
    if (threadIdx.x == 0) next_row = worst;
    zero_rows = 0;
    __syncthreads();
  }
  if (!outcome.converged) outcome.rank = rank;
  if (threadIdx.x == 0) outcomes[blockIdx.x] = outcome;
}

/// Where an item's results go: its low-rank factors or dense block in a
/// pool, and r (rank × cases) for the right-hand side.
struct ItemTarget {
  Complex *u, *w;
};

__device__ inline void atomic_add(Complex* target, Complex value) {
  double* slot = reinterpret_cast<double*>(target);
  atomicAdd(slot, value.re);
  atomicAdd(slot + 1, value.im);
}

/// Block: item blockIdx.x, converged: U copied, W = Gᵀ V summed over its
/// elements, r = (V's traction columns)ᵀ t/w, then rhs += U r. W and r zeroed before.
__global__ void __launch_bounds__(assembly_threads)
    sum_factors_kernel(ModelView mv, LayoutView lv, const AcaItem* items, const AcaOutcome* outcomes,
                       const ItemTarget* targets, Complex* workspace, int n_total, Complex* rhs) {
  const AcaItem item = items[blockIdx.x];
  const AcaOutcome outcome = outcomes[blockIdx.x];
  if (!outcome.converged) return;
  const ItemTarget target = targets[blockIdx.x];
  const LayoutBlock block = lv.blocks[lv.admissible_blocks[item.slot]];
  const Cluster tau = lv.row_clusters[block.row_cluster], sigma = lv.element_clusters[block.column_cluster];
  const int m = 3 * tau.size(), n = 12 * sigma.size(), rank = outcome.rank, cases = mv.load_case_count;
  const Complex* u = workspace + item.workspace;
  const Complex* v = u + static_cast<std::size_t>(m) * item.max_rank;
  Complex* r = workspace + item.workspace + aca_workspace(m, n, item.max_rank, 0);
  for (std::size_t k = threadIdx.x; k < static_cast<std::size_t>(m) * rank; k += blockDim.x) target.u[k] = u[k];
  for (int k = threadIdx.x; k < sigma.size(); k += blockDim.x) {
    const int e = lv.element_order[sigma.begin + k];
    const int* local = lv.local_columns + 4 * (lv.element_offset[block.column_cluster] + k);
    const int load_case = mv.element_load_case[e];
    const Vec3 t = (1.0 / lv.traction_scale) * mv.element_traction[e];
    for (int l = 0; l < rank; ++l) {
      const Complex* ev = v + static_cast<std::size_t>(l) * n + 12 * k;
      Complex* w = target.w + static_cast<std::size_t>(l) * block.columns;
      for (int b = 0; b < 3; ++b)
        if (local[b] >= 0)
          for (int j = 0; j < 3; ++j) atomic_add(w + 3 * local[b] + j, ev[3 * b + j]);
      if (local[3] >= 0)
        for (int j = 0; j < 3; ++j) atomic_add(w + 3 * local[3] + j, -ev[9 + j]);
      if (load_case >= 0) atomic_add(r + l + static_cast<std::size_t>(load_case) * rank, ev[9] * t.x + ev[10] * t.y + ev[11] * t.z);
    }
  }
  __syncthreads();
  for (int i = threadIdx.x; i < m; i += blockDim.x)
    for (int c = 0; c < cases; ++c) {
      Complex sum;
      for (int l = 0; l < rank; ++l) sum += u[i + static_cast<std::size_t>(l) * m] * r[l + static_cast<std::size_t>(c) * rank];
      atomic_add(rhs + (static_cast<std::size_t>(item.frequency) * cases + c) * n_total + 3 * tau.begin + i, sum);
    }
}

/// Block (g, d): collocation point g of dense item d's leaf: its element
/// columns summed into the leaf's dense block (rows × columns, zeroed
/// before) and the right-hand side.
template <class Solution>
__global__ void __launch_bounds__(assembly_threads)
    dense_leaf_kernel(ModelView mv, LayoutView lv, const QuadratureTable* table, const Complex* s,
                      const AcaItem* items, const int* dense_items, const ItemTarget* targets, int n_total,
                      Complex* rhs) {
  const int g = blockIdx.x, d = dense_items[blockIdx.y];
  const AcaItem item = items[d];
  const LayoutBlock block = lv.blocks[lv.admissible_blocks[item.slot]];
  const Cluster tau = lv.row_clusters[block.row_cluster], sigma = lv.element_clusters[block.column_cluster];
  if (g >= tau.size()) return;
  const int p = lv.row_order[tau.begin + g], cases = mv.load_case_count;
  Complex* dense = targets[d].u;
  for (int k = threadIdx.x; k < sigma.size(); k += blockDim.x) {
    const int e = lv.element_order[sigma.begin + k];
    Complex e_block[3][12];
    element_columns<Solution>(mv, p, e, s[item.frequency], *table, lv.traction_scale, e_block);
    const int* local = lv.local_columns + 4 * (lv.element_offset[block.column_cluster] + k);
    const int load_case = mv.element_load_case[e];
    const Vec3 t = (1.0 / lv.traction_scale) * mv.element_traction[e];
    for (int i = 0; i < 3; ++i) {
      const int row = 3 * g + i;
      for (int b = 0; b < 3; ++b)
        if (local[b] >= 0)
          for (int j = 0; j < 3; ++j)
            atomic_add(dense + row + static_cast<std::size_t>(3 * local[b] + j) * block.rows, e_block[i][3 * b + j]);
      if (local[3] >= 0)
        for (int j = 0; j < 3; ++j)
          atomic_add(dense + row + static_cast<std::size_t>(3 * local[3] + j) * block.rows, -e_block[i][9 + j]);
      if (load_case >= 0)
        atomic_add(rhs + (static_cast<std::size_t>(item.frequency) * cases + load_case) * n_total + 3 * (tau.begin + g) + i,
                   e_block[i][9] * t.x + e_block[i][10] * t.y + e_block[i][11] * t.z);
    }
  }
}

/// What a batch's assembly keeps on the device besides the batch.
template <class Solution>
struct DeviceProblem {
  const BemModel& model;
  const HierarchicalLayout& layout;
  const FreeTerms& free_terms;
  DeviceModel dm;
  DeviceLayout dl;
  DeviceBuffer<QuadratureTable> table;
  DeviceProblem(const BemModel& m, const HierarchicalLayout& l, const FreeTerms& f)
      : model(m), layout(l), free_terms(f), dm(m), dl(l, m.load_case_count()),
        table(std::vector<QuadratureTable>{make_quadrature_table()}) {
    GEOBEM_CUDA_CHECK(cudaFuncSetAttribute(near_field_kernel<Solution>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                           static_cast<int>(dl.near_shared_bytes())));
  }
};

/// Assembles the batch of Laplace points `s` into `batch` (near field, ACA,
/// dense admissible leaves, right-hand sides, preconditioner) and returns each
/// frequency's compression error estimate. ACA's workspace within
/// `workspace_budget` bytes at once; each phase's seconds and ACA's leaves and
/// ranks added to `profile`; the leaves ACA failed on in `history`.
template <class Solution>
std::vector<double> assemble_batch(const DeviceProblem<Solution>& problem, const std::vector<Complex>& s,
                                   double tolerance, std::uint64_t workspace_budget, DeviceBatch& batch,
                                   CqTimings::Compression& profile, AcaHistory& history) {
  using clock = std::chrono::steady_clock;
  auto phase_start = clock::now();
  auto end_phase = [&](double& seconds) {
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    seconds += seconds_since(phase_start);
    phase_start = clock::now();
  };
  const HierarchicalLayout& layout = problem.layout;
  const LayoutView& lv = problem.dl.view();
  const int frequencies = static_cast<int>(s.size()), cases = problem.model.load_case_count(), n = batch.size();
  const int admissible = lv.admissible_count, near = lv.near_count;
  const DeviceBuffer<Complex> laplace(s);
  // 1. Drops, per frequency.
  std::vector<double> error_squared(frequencies, 0.0);
  std::vector<char> kept(static_cast<std::size_t>(frequencies) * std::max(1, near), 0);
  std::vector<std::vector<char>> dropped(frequencies);
  for (int f = 0; f < frequencies; ++f) {
    DroppedLeaves drops = dropped_leaves<Solution>(problem.model, layout, s[f], tolerance, problem.free_terms.norm);
    error_squared[f] = drops.error_squared;
    for (int k = 0; k < near; ++k) kept[static_cast<std::size_t>(f) * near + k] = !drops.dropped[layout.near_blocks[k]];
    dropped[f] = std::move(drops.dropped);
  }
  if (near) GEOBEM_CUDA_CHECK(cudaMemcpy(batch.near_kept(), kept.data(), kept.size(), cudaMemcpyHostToDevice));
  // 2. The near field.
  if (lv.positions > 0) {
    near_field_kernel<Solution><<<dim3(lv.positions, frequencies), assembly_threads, problem.dl.near_shared_bytes()>>>(
        problem.dm.view, lv, problem.table.data(), laplace.data(), batch.near_kept(), layout.near_values, n,
        batch.near(), batch.right_hand_sides());
    GEOBEM_CUDA_CHECK_LAUNCH();
  }
  end_phase(profile.near_field_seconds);
  // 3. ACA on the kept admissible leaves, in chunks of workspace.
  std::vector<AcaItem> items;
  for (int f = 0; f < frequencies; ++f)
    for (int a = 0; a < admissible; ++a) {
      const int b = layout.admissible_blocks[a];
      if (dropped[f][b]) continue;
      const LayoutBlock& block = layout.blocks[b];
      const int cap = history.predicts_dense(a) ? 0 : aca_rank_cap(block);
      const double target =
          leaf_error_share(layout, block, tolerance, problem.free_terms.norm) / std::sqrt(double(layout.largest_valence));
      items.push_back({a, f, cap, target, 0, 0, 0x5EED0000ull + static_cast<unsigned long long>(b)});
    }
  std::vector<DeviceLeaf> leaves(static_cast<std::size_t>(frequencies) * admissible);
  std::vector<DeviceBuffer<Complex>> pools;
  for (std::size_t first = 0; first < items.size();) {
    // The chunk: items while their workspace fits (one at least).
    std::size_t complex_values = 0, flag_bytes = 0, last = first;
    for (; last < items.size(); ++last) {
      const LayoutBlock& block = layout.blocks[layout.admissible_blocks[items[last].slot]];
      const int m = block.rows, e_columns = 12 * layout.elements.clusters[block.column_cluster].size();
      const std::size_t values = aca_workspace(m, e_columns, items[last].max_rank, cases);
      if (last > first && 16 * (complex_values + values) + flag_bytes + m + e_columns > workspace_budget) break;
      items[last].workspace = complex_values;
      items[last].flags = flag_bytes;
      complex_values += values;
      flag_bytes += m + e_columns;
    }
    const int count = static_cast<int>(last - first);
    const std::vector<AcaItem> chunk(items.begin() + first, items.begin() + last);
    DeviceBuffer<Complex> workspace(complex_values);
    DeviceBuffer<char> flags(flag_bytes);
    DeviceBuffer<AcaItem> device_items(chunk);
    DeviceBuffer<AcaOutcome> device_outcomes(count);
    aca_kernel<Solution><<<count, assembly_threads>>>(problem.dm.view, lv, problem.table.data(), laplace.data(),
                                                      device_items.data(), workspace.data(), flags.data(),
                                                      device_outcomes.data());
    GEOBEM_CUDA_CHECK_LAUNCH();
    const std::vector<AcaOutcome> outcomes = device_outcomes.to_host();
    end_phase(profile.aca_seconds);
    profile.aca_leaves += count;
    // The chunk's pool: low-rank factors, or dense blocks.
    std::vector<std::size_t> at(count);
    std::size_t pool_values = 0;
    std::vector<int> dense_items;
    for (int k = 0; k < count; ++k) {
      const LayoutBlock& block = layout.blocks[layout.admissible_blocks[chunk[k].slot]];
      at[k] = pool_values;
      if (outcomes[k].converged) {
        profile.rank_sum += outcomes[k].rank;
        profile.largest_rank = std::max(profile.largest_rank, outcomes[k].rank);
        pool_values += static_cast<std::size_t>(block.rows + block.columns) * outcomes[k].rank;
        error_squared[chunk[k].frequency] +=
            layout.largest_valence * outcomes[k].error * outcomes[k].error;
      } else {
        pool_values += static_cast<std::size_t>(block.rows) * block.columns;
        dense_items.push_back(k);
        ++profile.dense_leaves;
        if (chunk[k].max_rank == 0)
          ++profile.dense_without_aca;
        else
          history.failed_at[chunk[k].slot] = history.batch;
      }
    }
    DeviceBuffer<Complex> pool(std::max<std::size_t>(1, pool_values));
    GEOBEM_CUDA_CHECK(cudaMemset(pool.data(), 0, sizeof(Complex) * pool.size()));
    std::vector<ItemTarget> targets(count);
    for (int k = 0; k < count; ++k) {
      const LayoutBlock& block = layout.blocks[layout.admissible_blocks[chunk[k].slot]];
      Complex* u = pool.data() + at[k];
      targets[k] = {u, outcomes[k].converged ? u + static_cast<std::size_t>(block.rows) * outcomes[k].rank : nullptr};
      DeviceLeaf& leaf = leaves[static_cast<std::size_t>(chunk[k].frequency) * admissible + chunk[k].slot];
      leaf.form = static_cast<int>(outcomes[k].converged ? LeafForm::low_rank : LeafForm::dense);
      leaf.rank = outcomes[k].converged ? outcomes[k].rank : 0;
      leaf.u = targets[k].u;
      leaf.w = targets[k].w;
    }
    const DeviceBuffer<ItemTarget> device_targets(targets);
    // r of every item (after its workspace's factors) from zero.
    for (int k = 0; k < count; ++k) {
      const LayoutBlock& block = layout.blocks[layout.admissible_blocks[chunk[k].slot]];
      const std::size_t r_at = chunk[k].workspace + aca_workspace(block.rows, 12 * layout.elements.clusters[block.column_cluster].size(),
                                                                   chunk[k].max_rank, 0);
      GEOBEM_CUDA_CHECK(cudaMemset(workspace.data() + r_at, 0, sizeof(Complex) * chunk[k].max_rank * cases));
    }
    sum_factors_kernel<<<count, assembly_threads>>>(problem.dm.view, lv, device_items.data(), device_outcomes.data(),
                                                    device_targets.data(), workspace.data(), n,
                                                    batch.right_hand_sides());
    GEOBEM_CUDA_CHECK_LAUNCH();
    if (!dense_items.empty()) {
      int rows = 0;
      for (int k : dense_items)
        rows = std::max(rows, layout.rows.clusters[layout.blocks[layout.admissible_blocks[chunk[k].slot]].row_cluster].size());
      const DeviceBuffer<int> device_dense(dense_items);
      for (std::size_t from = 0; from < dense_items.size(); from += 65535) {  // a grid's y extent
        const unsigned slice = static_cast<unsigned>(std::min<std::size_t>(65535, dense_items.size() - from));
        dense_leaf_kernel<Solution><<<dim3(rows, slice), assembly_threads>>>(
            problem.dm.view, lv, problem.table.data(), laplace.data(), device_items.data(), device_dense.data() + from,
            device_targets.data(), n, batch.right_hand_sides());
        GEOBEM_CUDA_CHECK_LAUNCH();
      }
    }
    end_phase(profile.factors_seconds);
    pools.push_back(std::move(pool));
    first = last;
  }
  ++history.batch;
  batch.set_leaves(leaves, std::move(pools));
  batch.factorise();
  end_phase(profile.preconditioner_seconds);
  // 4. Each frequency's estimate against the free terms' norm, which the
  // system's exceeds (the CPU path's denominator adds the leaves' norms).
  std::vector<double> estimates(frequencies);
  for (int f = 0; f < frequencies; ++f)
    estimates[f] = std::sqrt(error_squared[f]) / problem.free_terms.norm + 4 * 2.220446049250313e-16;
  return estimates;
}

}  // namespace

template <class Solution>
std::vector<CompressedOperator> hierarchical::assemble_compressed_cuda(const BemModel& model, const HierarchicalLayout& layout,
                                                         const FreeTerms& free_terms, const std::vector<Complex>& s,
                                                         double tolerance,
                                                         std::vector<std::vector<std::vector<Complex>>>& rhs) {
  const DeviceProblem<Solution> problem(model, layout, free_terms);
  const int frequencies = static_cast<int>(s.size()), cases = model.load_case_count(), n = model.unknown_count();
  DeviceBatch batch(layout, problem.dl, free_terms.diagonal, frequencies, cases);
  CqTimings::Compression profile;
  AcaHistory history(static_cast<int>(layout.admissible_blocks.size()));
  const std::vector<double> estimates = assemble_batch<Solution>(
      problem, s, tolerance, aca_workspace_bytes(device_memory_budget()), batch, profile, history);
  std::vector<Complex> all(static_cast<std::size_t>(frequencies) * cases * n);
  GEOBEM_CUDA_CHECK(cudaMemcpy(all.data(), batch.right_hand_sides(), sizeof(Complex) * all.size(), cudaMemcpyDeviceToHost));
  std::vector<CompressedOperator> out;
  rhs.assign(frequencies, {});
  for (int f = 0; f < frequencies; ++f) {
    out.push_back(batch.download(f));
    out.back().report.error_estimate = estimates[f];
    for (int c = 0; c < cases; ++c)
      rhs[f].emplace_back(all.begin() + (static_cast<std::size_t>(f) * cases + c) * n,
                          all.begin() + (static_cast<std::size_t>(f) * cases + c + 1) * n);
  }
  return out;
}

template <class Solution>
void solve_laplace_hierarchical_cuda(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                     LaplaceSolution& solution, CqTimings& timings) {
  const std::vector<int>& frequencies = solution.frequencies;
  const int n = model.unknown_count(), cases = model.load_case_count();
  const int count = static_cast<int>(frequencies.size());

  auto start = std::chrono::steady_clock::now();
  const double tolerance = options.hierarchical.tolerance;
  const HierarchicalLayout layout = make_hierarchical_layout(model, options.hierarchical);
  HierarchicalMemoryPlan plan = plan_hierarchical_memory(layout, cases, tolerance);
  const char* where = "the device-memory budget (80% of the free device memory)";
  // Refuse before any device work when the near field and the workspace of
  // one frequency do not fit; the low-rank part once the free terms' norm
  // tells which leaves the damping drops.
  plan.low_rank = 0;
  require_hierarchical_plan_fits(plan, device_memory_budget(), where);
  const FreeTerms free_terms = free_terms_in_tree_order(model, layout, rigid_body_sums_cuda<Solution>(model));
  std::vector<Complex> points(count);
  for (int k = 0; k < count; ++k) points[k] = cq_laplace_point(settings, frequencies[k]);
  plan.low_rank = planned_low_rank_bytes<Solution>(model, layout, points, tolerance, free_terms.norm);
  require_hierarchical_plan_fits(plan, device_memory_budget(), where);
  const DeviceProblem<Solution> problem(model, layout, free_terms);
  // GMRES's basis and vectors of one frequency, then the batch within the rest.
  const std::uint64_t gmres_bytes = 16ull * n * (gmres_restart + 5);
  const std::uint64_t budget = device_memory_budget();
  const std::uint64_t per_frequency = plan.near_field + plan.low_rank + (plan.workspace - 16ull * n * (gmres_restart + 5));
  const std::uint64_t workspace_budget = aca_workspace_bytes(budget);
  const std::uint64_t room = budget > gmres_bytes + workspace_budget ? budget - gmres_bytes - workspace_budget : 0;
  const int by_points = static_cast<int>(max_batch_point_frequencies / std::max(1, n / 3));
  const int batch_size = std::max(1, std::min({count, max_batch_frequencies, by_points,
                                               static_cast<int>(room / std::max<std::uint64_t>(1, per_frequency))}));
  timings.batch_frequencies = batch_size;
  GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
  timings.setup_seconds += seconds_since(start);

  AcaHistory history(static_cast<int>(layout.admissible_blocks.size()));
  ProgressReporter progress("geobem-bem: CQ frequencies (compress + GMRES)", count, "frequencies", options.quiet);
  for (int first = 0; first < count; first += batch_size) {
    const int size = std::min(batch_size, count - first);
    start = std::chrono::steady_clock::now();
    const std::vector<Complex> batch_points(points.begin() + first, points.begin() + first + size);
    DeviceBatch batch(layout, problem.dl, free_terms.diagonal, size, cases);
    const std::vector<double> estimates =
        assemble_batch<Solution>(problem, batch_points, tolerance, workspace_budget, batch, timings.compression, history);
    GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());
    timings.assembly_seconds += seconds_since(start);
    start = std::chrono::steady_clock::now();
    const DeviceVectors vectors(n, batch.cublas());
    DeviceBuffer<Complex> x(n);
    std::vector<Complex> host(n);
    for (int f = 0; f < size; ++f) {
      const int k = first + f;
      FrequencySolve& solve = solution.solves[k];
      solve.compression_error = estimates[f];
      timings.note_compressed_system(batch.frequency_bytes(f));
      for (int c = 0; c < cases; ++c) {
        const GmresResult result = gmres(
            vectors, [&](const Complex* in, Complex* out) { batch.apply(f, in, out); },
            [&](const Complex* in, Complex* out) { batch.precondition(f, in, out); },
            batch.right_hand_sides() + (static_cast<std::size_t>(f) * cases + c) * n, x.data(), tolerance,
            gmres_restart, gmres_max_iterations);
        if (!result.converged) {
          char text[256];
          std::snprintf(text, sizeof text,
                        "CQ frequency %d: GMRES reached a relative residual of %.3g after %d steps, not the "
                        "compression tolerance %.3g: use --solver dense or a larger --compression-tolerance",
                        frequencies[k], result.relative_residual, result.iterations, tolerance);
          throw std::runtime_error(text);
        }
        solve.iterations = std::max(solve.iterations, result.iterations);
        solve.residual = std::max(solve.residual, result.relative_residual);
        x.download(host.data(), n);
        for (int position = 0; position < n / 3; ++position) {
          const int block = layout.rows.order[position];
          const double scale = block < static_cast<int>(model.free_nodes.size()) ? 1.0 : layout.traction_scale;
          for (int i = 0; i < 3; ++i) solution.at(c, k, 3 * block + i) = scale * host[3 * position + i];
        }
      }
    }
    timings.solve_seconds += seconds_since(start);
    progress.advance(size);
  }
  progress.finish();
}

template std::vector<CompressedOperator> hierarchical::assemble_compressed_cuda<ElastodynamicFullSpace>(
    const BemModel&, const HierarchicalLayout&, const FreeTerms&, const std::vector<Complex>&, double,
    std::vector<std::vector<std::vector<Complex>>>&);
template void solve_laplace_hierarchical_cuda<ElastodynamicFullSpace>(const BemModel&, const CqSettings&,
                                                                      const CqOptions&, LaplaceSolution&, CqTimings&);

}  // namespace geobem::bem

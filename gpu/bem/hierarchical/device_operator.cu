// The hierarchical path's device layout, batch storage, matvec, block-Jacobi
// preconditioner and GMRES backend (device_operator.hpp).
//
// The matvec is two launches per frequency, not cuBLAS: the leaves differ in
// size, so a batched GEMM would be one group per size, and each leaf's
// product is a matrix-vector product (one right-hand side), bound by the
// bytes of its factors. First t_b = W_bᵀ x over every low-rank leaf (a block
// per leaf), then a block per row leaf sums the rows of every leaf above it
// (dense: consecutive rows of a column-major block, coalesced; low-rank:
// U_b t_b) and the free terms, so that each row is written by one thread.
#include <cuda_runtime.h>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "gpu/bem/hierarchical/block_reduce.cuh"
#include "gpu/bem/hierarchical/device_operator.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/library_handle.hpp"
#include "gpu/core/cuda_check.hpp"

namespace geobem::bem::hierarchical {

namespace {

/// Threads of the matvec's and the preconditioner's blocks.
constexpr int operator_threads = 128;

/// Position of the first of unknowns[0, count) not below `value` (they are sorted).
__device__ int lower_bound(const int* unknowns, int count, int value) {
  int low = 0, high = count;
  while (low < high) {
    const int middle = (low + high) / 2;
    if (unknowns[middle] < value)
      low = middle + 1;
    else
      high = middle;
  }
  return low;
}

/// Block a: t[t_offset[a] + l] = Σ_c W[c, l] x[column c] of a low-rank leaf.
__global__ void __launch_bounds__(operator_threads)
    project_kernel(LayoutView lv, const DeviceLeaf* leaves, const int* t_offset, const Complex* x, Complex* t) {
  __shared__ double scratch[operator_threads];
  const int a = blockIdx.x;
  const DeviceLeaf leaf = leaves[a];
  if (leaf.form != static_cast<int>(LeafForm::low_rank)) return;
  const LayoutBlock block = lv.blocks[lv.admissible_blocks[a]];
  const int* unknowns = lv.unknowns + lv.unknown_offset[block.column_cluster];
  for (int l = 0; l < leaf.rank; ++l) {
    Complex sum;
    const Complex* w = leaf.w + static_cast<std::size_t>(l) * block.columns;
    for (int c = threadIdx.x; c < block.columns; c += blockDim.x) sum += w[c] * x[3 * unknowns[c / 3] + c % 3];
    const double re = block_sum(sum.re, scratch), im = block_sum(sum.im, scratch);
    if (threadIdx.x == 0) t[t_offset[a] + l] = Complex(re, im);
  }
}

/// Row `row` of `leaf_block` (a dense block, column-major) times x at its columns.
__device__ Complex dense_row(const LayoutView& lv, const LayoutBlock& block, const Complex* m, int row,
                             const Complex* x) {
  const int* unknowns = lv.unknowns + lv.unknown_offset[block.column_cluster];
  Complex sum;
  for (int c = 0; c < block.columns; ++c)
    sum += m[row + static_cast<std::size_t>(c) * block.rows] * x[3 * unknowns[c / 3] + c % 3];
  return sum;
}

/// Block k: the rows of row leaf k, y = D x + Σ_leaves above it.
__global__ void __launch_bounds__(operator_threads)
    rows_kernel(LayoutView lv, const Complex* near, const char* near_kept, const DeviceLeaf* leaves, const int* t_offset,
                const Complex* t, const Complex* diagonal, const Complex* x, Complex* y) {
  const int k = blockIdx.x;
  const Cluster leaf = lv.row_clusters[lv.row_leaves[k]];
  const int rows = 3 * leaf.size();
  for (int i = threadIdx.x; i < rows; i += blockDim.x) {
    const int p = leaf.begin + i / 3, component = i % 3;
    Complex sum;
    for (int j = 0; j < 3; ++j) sum += diagonal[9 * p + 3 * component + j] * x[3 * p + j];
    for (int q = lv.row_leaf_offset[k]; q < lv.row_leaf_offset[k + 1]; ++q) {
      const LayoutBlock block = lv.blocks[lv.row_leaf_blocks[q]];
      const int row = 3 * (leaf.begin - lv.row_clusters[block.row_cluster].begin) + i;
      if (!block.admissible) {
        if (near_kept[block.slot]) sum += dense_row(lv, block, near + block.near_offset, row, x);
        continue;
      }
      const DeviceLeaf a = leaves[block.slot];
      if (a.form == static_cast<int>(LeafForm::dense)) {
        sum += dense_row(lv, block, a.u, row, x);
      } else if (a.form == static_cast<int>(LeafForm::low_rank)) {
        for (int l = 0; l < a.rank; ++l)
          sum += a.u[row + static_cast<std::size_t>(l) * block.rows] * t[t_offset[block.slot] + l];
      }
    }
    y[3 * leaf.begin + i] = sum;
  }
}

/// Block k: the rows of row leaf k in its preconditioner block (padded to d,
/// column-major, zeroed before): every leaf's entries whose column is an
/// unknown of the same preconditioner cluster, and the free terms.
__global__ void __launch_bounds__(operator_threads)
    preconditioner_kernel(LayoutView lv, const Complex* near, const char* near_kept, const DeviceLeaf* leaves,
                          const Complex* diagonal, int d, Complex* blocks) {
  const int k = blockIdx.x;
  const Cluster leaf = lv.row_clusters[lv.row_leaves[k]];
  const int pi_index = lv.preconditioner_of_leaf[k];
  const Cluster pi = lv.row_clusters[lv.preconditioner_clusters[pi_index]];
  Complex* block_of_pi = blocks + static_cast<std::size_t>(pi_index) * d * d;
  const int rows = 3 * leaf.size();
  for (int i = threadIdx.x; i < rows; i += blockDim.x) {
    const int row_in_pi = 3 * (leaf.begin - pi.begin) + i;
    const int p = leaf.begin + i / 3, component = i % 3;
    for (int j = 0; j < 3; ++j)
      block_of_pi[row_in_pi + static_cast<std::size_t>(3 * (p - pi.begin) + j) * d] += diagonal[9 * p + 3 * component + j];
    for (int q = lv.row_leaf_offset[k]; q < lv.row_leaf_offset[k + 1]; ++q) {
      const LayoutBlock block = lv.blocks[lv.row_leaf_blocks[q]];
      const int row = 3 * (leaf.begin - lv.row_clusters[block.row_cluster].begin) + i;
      const int* unknowns = lv.unknowns + lv.unknown_offset[block.column_cluster];
      const int count = lv.unknown_count[block.column_cluster];
      const int from = lower_bound(unknowns, count, pi.begin), to = lower_bound(unknowns, count, pi.end);
      if (from == to) continue;
      const Complex* dense = nullptr;
      DeviceLeaf a;
      if (!block.admissible) {
        if (!near_kept[block.slot]) continue;
        dense = near + block.near_offset;
      } else {
        a = leaves[block.slot];
        if (a.form == static_cast<int>(LeafForm::dense)) dense = a.u;
        if (a.form == static_cast<int>(LeafForm::dropped)) continue;
      }
      for (int u = from; u < to; ++u)
        for (int j = 0; j < 3; ++j) {
          const int column = 3 * u + j;
          Complex value;
          if (dense) {
            value = dense[row + static_cast<std::size_t>(column) * block.rows];
          } else {
            for (int l = 0; l < a.rank; ++l)
              value += a.u[row + static_cast<std::size_t>(l) * block.rows] * a.w[column + static_cast<std::size_t>(l) * block.columns];
          }
          block_of_pi[row_in_pi + static_cast<std::size_t>(3 * (unknowns[u] - pi.begin) + j) * d] += value;
        }
    }
  }
}

/// Block c: the identity on the padding of preconditioner block c (rows past 3|π|).
__global__ void pad_kernel(LayoutView lv, int d, Complex* blocks) {
  const int c = blockIdx.x;
  const int size = 3 * lv.row_clusters[lv.preconditioner_clusters[c]].size();
  for (int i = size + threadIdx.x; i < d; i += blockDim.x)
    blocks[static_cast<std::size_t>(c) * d * d + i + static_cast<std::size_t>(i) * d] = Complex(1.0);
}

/// Block c: x's values of preconditioner cluster c into its padded segment (zeros past it), or back.
__global__ void padded_copy_kernel(LayoutView lv, int d, const Complex* from, Complex* to, bool into_padded) {
  const int c = blockIdx.x;
  const Cluster pi = lv.row_clusters[lv.preconditioner_clusters[c]];
  const int size = 3 * pi.size();
  for (int i = threadIdx.x; i < d; i += blockDim.x) {
    if (into_padded)
      to[static_cast<std::size_t>(c) * d + i] = i < size ? from[3 * pi.begin + i] : Complex();
    else if (i < size)
      to[3 * pi.begin + i] = from[static_cast<std::size_t>(c) * d + i];
  }
}

/// The near field of each row leaf cut into tiles of dense leaves whose
/// columns (3 rows each, with the right-hand sides) fit near_shared_budget.
void make_tiles(const HierarchicalLayout& layout, int cases, std::vector<int>& tile_offset, std::vector<NearTile>& tiles,
                std::vector<NearPair>& pairs, std::vector<int>& tile_blocks, std::vector<int>& tile_block_shared,
                std::size_t& widest) {
  const std::size_t per_column = 3 * sizeof(Complex), fixed = 3 * sizeof(Complex) * static_cast<std::size_t>(cases);
  widest = fixed;
  for (std::size_t k = 0; k < layout.row_leaves.size(); ++k) {
    tile_offset.push_back(static_cast<int>(tiles.size()));
    NearTile tile{static_cast<int>(pairs.size()), 0, static_cast<int>(tile_blocks.size()), 0, 0};
    auto close = [&] {
      tile.pair_end = static_cast<int>(pairs.size());
      tile.block_end = static_cast<int>(tile_blocks.size());
      if (tile.block_end > tile.block_begin) {
        tiles.push_back(tile);
        widest = std::max(widest, fixed + per_column * tile.shared_columns);
      }
      tile = NearTile{static_cast<int>(pairs.size()), 0, static_cast<int>(tile_blocks.size()), 0, 0};
    };
    for (int q = layout.row_leaf_offset[k]; q < layout.row_leaf_offset[k + 1]; ++q) {
      const int b = layout.row_leaf_blocks[q];
      const LayoutBlock& block = layout.blocks[b];
      if (block.admissible) continue;
      if (tile.shared_columns > 0 && fixed + per_column * (tile.shared_columns + block.columns) > near_shared_budget)
        close();
      if (fixed + per_column * block.columns > near_shared_budget)
        throw InputError("hierarchical layout: a dense leaf of " + std::to_string(block.columns) +
                         " columns is wider than the near-field kernel's shared memory");
      tile_blocks.push_back(block.slot);
      tile_block_shared.push_back(tile.shared_columns);
      const Cluster& sigma = layout.elements.clusters[block.column_cluster];
      for (int j = sigma.begin; j < sigma.end; ++j)
        pairs.push_back({layout.elements.order[j], layout.element_offset[block.column_cluster] + (j - sigma.begin),
                         tile.shared_columns, block.slot});
      tile.shared_columns += block.columns;
    }
    close();
  }
  tile_offset.push_back(static_cast<int>(tiles.size()));
}

}  // namespace

DeviceLayout::DeviceLayout(const HierarchicalLayout& layout, int load_cases) {
  std::vector<int> tile_offset, tile_blocks, tile_block_shared;
  std::vector<NearTile> tiles;
  std::vector<NearPair> pairs;
  make_tiles(layout, load_cases, tile_offset, tiles, pairs, tile_blocks, tile_block_shared, near_shared_bytes_);
  std::vector<int> leaf_of_position(layout.rows.order.size()), preconditioner_of_leaf(layout.row_leaves.size());
  int dimension = 0;
  for (std::size_t c = 0; c < layout.preconditioner_clusters.size(); ++c) {
    const Cluster& pi = layout.rows.clusters[layout.preconditioner_clusters[c]];
    dimension = std::max(dimension, 3 * pi.size());
    for (std::size_t k = 0; k < layout.row_leaves.size(); ++k) {
      const Cluster& leaf = layout.rows.clusters[layout.row_leaves[k]];
      if (leaf.begin >= pi.begin && leaf.end <= pi.end) preconditioner_of_leaf[k] = static_cast<int>(c);
    }
  }
  for (std::size_t k = 0; k < layout.row_leaves.size(); ++k) {
    const Cluster& leaf = layout.rows.clusters[layout.row_leaves[k]];
    for (int p = leaf.begin; p < leaf.end; ++p) leaf_of_position[p] = static_cast<int>(k);
  }
  // Every int array in one buffer; each view pointer set once it is on the device.
  const std::vector<const std::vector<int>*> arrays = {
      &layout.rows.order,      &layout.elements.order, &layout.admissible_blocks, &layout.near_blocks,
      &layout.unknown_offset,  &layout.unknown_count,  &layout.unknowns,          &layout.element_offset,
      &layout.local_columns,   &layout.row_leaves,     &layout.row_leaf_offset,   &layout.row_leaf_blocks,
      &leaf_of_position,       &preconditioner_of_leaf, &layout.preconditioner_clusters, &tile_offset,
      &tile_blocks,            &tile_block_shared};
  std::vector<int> all;
  std::vector<std::size_t> offset;
  for (const auto* array : arrays) {
    offset.push_back(all.size());
    all.insert(all.end(), array->begin(), array->end());
  }
  ints_ = DeviceBuffer<int>(all);
  std::vector<Cluster> clusters = layout.rows.clusters;
  clusters.insert(clusters.end(), layout.elements.clusters.begin(), layout.elements.clusters.end());
  clusters_ = DeviceBuffer<Cluster>(clusters);
  blocks_ = DeviceBuffer<LayoutBlock>(layout.blocks);
  tiles_ = DeviceBuffer<NearTile>(tiles);
  pairs_ = DeviceBuffer<NearPair>(pairs);
  const int* base = ints_.data();
  const int** targets[] = {&view_.row_order,       &view_.element_order,  &view_.admissible_blocks,
                           &view_.near_blocks,     &view_.unknown_offset, &view_.unknown_count,
                           &view_.unknowns,        &view_.element_offset, &view_.local_columns,
                           &view_.row_leaves,      &view_.row_leaf_offset, &view_.row_leaf_blocks,
                           &view_.leaf_of_position, &view_.preconditioner_of_leaf, &view_.preconditioner_clusters,
                           &view_.tile_offset,     &view_.tile_blocks,    &view_.tile_block_shared};
  for (std::size_t k = 0; k < arrays.size(); ++k) *targets[k] = base + offset[k];
  view_.positions = static_cast<int>(layout.rows.order.size());
  view_.row_leaf_count = static_cast<int>(layout.row_leaves.size());
  view_.admissible_count = static_cast<int>(layout.admissible_blocks.size());
  view_.near_count = static_cast<int>(layout.near_blocks.size());
  view_.preconditioner_count = static_cast<int>(layout.preconditioner_clusters.size());
  view_.preconditioner_dimension = dimension;
  view_.largest_valence = layout.largest_valence;
  view_.traction_scale = layout.traction_scale;
  view_.row_clusters = clusters_.data();
  view_.element_clusters = clusters_.data() + layout.rows.clusters.size();
  view_.blocks = blocks_.data();
  view_.tiles = tiles_.data();
  view_.near_pairs = pairs_.data();
  bytes_ = 4ull * all.size() + sizeof(Cluster) * clusters.size() + sizeof(LayoutBlock) * layout.blocks.size() +
           sizeof(NearTile) * tiles.size() + sizeof(NearPair) * pairs.size();
}

DeviceBatch::DeviceBatch(const HierarchicalLayout& layout, const DeviceLayout& device_layout,
                         const std::vector<Complex>& free_term_diagonal, int frequencies, int load_cases)
    : layout_(layout),
      device_layout_(device_layout),
      frequencies_(frequencies),
      cases_(load_cases),
      n_(3 * static_cast<int>(layout.rows.order.size())),
      near_(static_cast<std::size_t>(frequencies) * layout.near_values),
      rhs_(static_cast<std::size_t>(frequencies) * load_cases * n_),
      diagonal_(free_term_diagonal),
      near_kept_(static_cast<std::size_t>(frequencies) * std::max<std::size_t>(1, layout.near_blocks.size())) {
  GEOBEM_CUDA_CHECK(cudaMemset(near_.data(), 0, sizeof(Complex) * near_.size()));
  GEOBEM_CUDA_CHECK(cudaMemset(rhs_.data(), 0, sizeof(Complex) * rhs_.size()));
  GEOBEM_CUDA_CHECK(cudaMemset(near_kept_.data(), 0, near_kept_.size()));
}

void DeviceBatch::set_leaves(const std::vector<DeviceLeaf>& leaves, std::vector<DeviceBuffer<Complex>>&& pools) {
  host_leaves_ = leaves;
  pools_ = std::move(pools);
  const int admissible = device_layout_.view().admissible_count;
  leaves_ = DeviceBuffer<DeviceLeaf>(leaves.empty() ? std::vector<DeviceLeaf>(1) : leaves);
  // t's offsets per frequency; t holds the largest frequency's.
  std::vector<int> offsets(static_cast<std::size_t>(frequencies_) * std::max(1, admissible), 0);
  int largest = 1;
  for (int f = 0; f < frequencies_; ++f) {
    int total = 0;
    for (int a = 0; a < admissible; ++a) {
      offsets[static_cast<std::size_t>(f) * admissible + a] = total;
      const DeviceLeaf& leaf = leaves[static_cast<std::size_t>(f) * admissible + a];
      if (leaf.form == static_cast<int>(LeafForm::low_rank)) total += leaf.rank;
    }
    largest = std::max(largest, total);
  }
  t_offset_ = DeviceBuffer<int>(offsets);
  t_ = DeviceBuffer<Complex>(static_cast<std::size_t>(largest));
}

void DeviceBatch::factorise() {
  const LayoutView& lv = device_layout_.view();
  const int clusters = lv.preconditioner_count, d = lv.preconditioner_dimension;
  const std::size_t per_frequency = static_cast<std::size_t>(clusters) * d * d;
  preconditioner_ = DeviceBuffer<Complex>(static_cast<std::size_t>(frequencies_) * per_frequency);
  GEOBEM_CUDA_CHECK(cudaMemset(preconditioner_.data(), 0, sizeof(Complex) * preconditioner_.size()));
  pivots_ = DeviceBuffer<int>(static_cast<std::size_t>(frequencies_) * clusters * d);
  info_ = DeviceBuffer<int>(static_cast<std::size_t>(frequencies_) * clusters);
  padded_ = DeviceBuffer<Complex>(static_cast<std::size_t>(clusters) * d);
  std::vector<Complex*> pointers(static_cast<std::size_t>(frequencies_) * clusters), padded(clusters);
  for (int f = 0; f < frequencies_; ++f) {
    Complex* blocks = preconditioner_.data() + f * per_frequency;
    preconditioner_kernel<<<lv.row_leaf_count, operator_threads>>>(
        lv, near_.data() + f * layout_.near_values, near_kept_.data() + static_cast<std::size_t>(f) * lv.near_count,
        leaves_.data() + static_cast<std::size_t>(f) * lv.admissible_count, diagonal_.data(), d, blocks);
    GEOBEM_CUDA_CHECK_LAUNCH();
    pad_kernel<<<clusters, operator_threads>>>(lv, d, blocks);
    GEOBEM_CUDA_CHECK_LAUNCH();
    for (int c = 0; c < clusters; ++c) pointers[static_cast<std::size_t>(f) * clusters + c] = blocks + static_cast<std::size_t>(c) * d * d;
  }
  for (int c = 0; c < clusters; ++c) padded[c] = padded_.data() + static_cast<std::size_t>(c) * d;
  block_pointers_ = DeviceBuffer<Complex*>(pointers);
  padded_pointers_ = DeviceBuffer<Complex*>(padded);
  GEOBEM_CUBLAS_CHECK(cublasZgetrfBatched(cublas_.get(), d,
                                          reinterpret_cast<cuDoubleComplex* const*>(block_pointers_.data()), d,
                                          pivots_.data(), info_.data(), frequencies_ * clusters));
  const std::vector<int> info = info_.to_host();
  for (std::size_t k = 0; k < info.size(); ++k)
    if (info[k] != 0)
      throw std::runtime_error("hierarchical preconditioner: block " + std::to_string(k % clusters) +
                               " of frequency " + std::to_string(k / clusters) + " of the batch is singular " +
                               "(cuBLAS getrfBatched info " + std::to_string(info[k]) + ")");
}

void DeviceBatch::apply(int f, const Complex* x, Complex* y) {
  const LayoutView& lv = device_layout_.view();
  const int* t_offset = t_offset_.data() + static_cast<std::size_t>(f) * lv.admissible_count;
  const DeviceLeaf* leaves = leaves_.data() + static_cast<std::size_t>(f) * lv.admissible_count;
  if (lv.admissible_count > 0) {
    project_kernel<<<lv.admissible_count, operator_threads>>>(lv, leaves, t_offset, x, t_.data());
    GEOBEM_CUDA_CHECK_LAUNCH();
  }
  rows_kernel<<<lv.row_leaf_count, operator_threads>>>(
      lv, near_.data() + f * layout_.near_values, near_kept_.data() + static_cast<std::size_t>(f) * lv.near_count,
      leaves, t_offset, t_.data(), diagonal_.data(), x, y);
  GEOBEM_CUDA_CHECK_LAUNCH();
}

void DeviceBatch::precondition(int f, const Complex* x, Complex* y) {
  const LayoutView& lv = device_layout_.view();
  const int clusters = lv.preconditioner_count, d = lv.preconditioner_dimension;
  padded_copy_kernel<<<clusters, operator_threads>>>(lv, d, x, padded_.data(), true);
  GEOBEM_CUDA_CHECK_LAUNCH();
  int info = 0;
  GEOBEM_CUBLAS_CHECK(cublasZgetrsBatched(
      cublas_.get(), CUBLAS_OP_N, d, 1,
      reinterpret_cast<const cuDoubleComplex* const*>(block_pointers_.data() + static_cast<std::size_t>(f) * clusters), d,
      pivots_.data() + static_cast<std::size_t>(f) * clusters * d,
      reinterpret_cast<cuDoubleComplex* const*>(padded_pointers_.data()), d, &info, clusters));
  if (info != 0)
    throw std::runtime_error("hierarchical preconditioner: cuBLAS getrsBatched refused argument " +
                             std::to_string(-info));
  padded_copy_kernel<<<clusters, operator_threads>>>(lv, d, padded_.data(), y, false);
  GEOBEM_CUDA_CHECK_LAUNCH();
}

CompressedOperator DeviceBatch::download(int f) const {
  const LayoutView& lv = device_layout_.view();
  CompressedOperator op;
  op.layout = &layout_;
  op.near.resize(layout_.near_values);
  near_.download(op.near.data(), op.near.size(), f * layout_.near_values);
  std::vector<char> kept(lv.near_count);
  if (lv.near_count) near_kept_.download(kept.data(), kept.size(), static_cast<std::size_t>(f) * lv.near_count);
  op.near_kept = kept;
  op.diagonal = diagonal_.to_host();
  const int admissible = lv.admissible_count;
  op.form.assign(admissible, LeafForm::dropped);
  op.rank.assign(admissible, 0);
  op.factor_offset.assign(admissible, 0);
  for (int a = 0; a < admissible; ++a) {
    const DeviceLeaf& leaf = host_leaves_[static_cast<std::size_t>(f) * admissible + a];
    const LayoutBlock& block = layout_.blocks[layout_.admissible_blocks[a]];
    op.form[a] = static_cast<LeafForm>(leaf.form);
    op.rank[a] = leaf.rank;
    op.factor_offset[a] = op.factors.size();
    const std::size_t u_values = static_cast<std::size_t>(block.rows) *
                                 (leaf.form == static_cast<int>(LeafForm::dense) ? block.columns : leaf.rank);
    const std::size_t w_values =
        leaf.form == static_cast<int>(LeafForm::low_rank) ? static_cast<std::size_t>(block.columns) * leaf.rank : 0;
    op.factors.resize(op.factors.size() + u_values + w_values);
    if (u_values)
      GEOBEM_CUDA_CHECK(cudaMemcpy(op.factors.data() + op.factor_offset[a], leaf.u, sizeof(Complex) * u_values,
                                   cudaMemcpyDeviceToHost));
    if (w_values)
      GEOBEM_CUDA_CHECK(cudaMemcpy(op.factors.data() + op.factor_offset[a] + u_values, leaf.w,
                                   sizeof(Complex) * w_values, cudaMemcpyDeviceToHost));
  }
  return op;
}

CompressedSystemBytes DeviceBatch::frequency_bytes(int f) const {
  const LayoutView& lv = device_layout_.view();
  std::vector<char> kept(lv.near_count);
  if (lv.near_count) near_kept_.download(kept.data(), kept.size(), static_cast<std::size_t>(f) * lv.near_count);
  CompressedSystemBytes bytes;
  for (int k = 0; k < lv.near_count; ++k)
    if (kept[k])
      bytes.near_field +=
          16ull * layout_.blocks[layout_.near_blocks[k]].rows * layout_.blocks[layout_.near_blocks[k]].columns;
  for (int a = 0; a < lv.admissible_count; ++a) {
    const DeviceLeaf& leaf = host_leaves_[static_cast<std::size_t>(f) * lv.admissible_count + a];
    const LayoutBlock& block = layout_.blocks[layout_.admissible_blocks[a]];
    if (leaf.form == static_cast<int>(LeafForm::low_rank)) bytes.factors += 16ull * (block.rows + block.columns) * leaf.rank;
    if (leaf.form == static_cast<int>(LeafForm::dense)) bytes.dense_admissible += 16ull * block.rows * block.columns;
  }
  const std::uint64_t d = lv.preconditioner_dimension;
  bytes.preconditioner = lv.preconditioner_count * (16 * d * d + 4 * d);
  return bytes;
}

DeviceVectors::DeviceVectors(int n, cublasHandle_t handle) : n_(n), handle_(handle), coefficients_(n > 0 ? 128 : 1) {}

double DeviceVectors::norm(const Complex* x) const {
  double result = 0.0;
  GEOBEM_CUBLAS_CHECK(cublasDznrm2(handle_, n_, reinterpret_cast<const cuDoubleComplex*>(x), 1, &result));
  return result;
}

void DeviceVectors::difference(const Complex* b, const Complex* ax, Complex* r) const {
  const cuDoubleComplex minus_one{-1.0, 0.0}, one{1.0, 0.0};
  if (r != ax)
    GEOBEM_CUBLAS_CHECK(cublasZcopy(handle_, n_, reinterpret_cast<const cuDoubleComplex*>(ax), 1,
                                    reinterpret_cast<cuDoubleComplex*>(r), 1));
  GEOBEM_CUBLAS_CHECK(cublasZscal(handle_, n_, &minus_one, reinterpret_cast<cuDoubleComplex*>(r), 1));
  GEOBEM_CUBLAS_CHECK(cublasZaxpy(handle_, n_, &one, reinterpret_cast<const cuDoubleComplex*>(b), 1,
                                  reinterpret_cast<cuDoubleComplex*>(r), 1));
}

void DeviceVectors::scaled(const Complex* x, double a, Complex* y) const {
  if (x != y)
    GEOBEM_CUBLAS_CHECK(cublasZcopy(handle_, n_, reinterpret_cast<const cuDoubleComplex*>(x), 1,
                                    reinterpret_cast<cuDoubleComplex*>(y), 1));
  GEOBEM_CUBLAS_CHECK(cublasZdscal(handle_, n_, &a, reinterpret_cast<cuDoubleComplex*>(y), 1));
}

void DeviceVectors::project(const Basis& v, int j, const Complex* w, Complex* c) const {
  if (coefficients_.size() < static_cast<std::size_t>(j)) coefficients_ = DeviceBuffer<Complex>(j);
  const cuDoubleComplex one{1.0, 0.0}, zero{0.0, 0.0};
  GEOBEM_CUBLAS_CHECK(cublasZgemv(handle_, CUBLAS_OP_C, n_, j, &one, reinterpret_cast<const cuDoubleComplex*>(v.data()),
                                  n_, reinterpret_cast<const cuDoubleComplex*>(w), 1, &zero,
                                  reinterpret_cast<cuDoubleComplex*>(coefficients_.data()), 1));
  coefficients_.download(c, j);
}

void DeviceVectors::subtract(const Basis& v, int j, const Complex* c, Complex* w) const {
  if (coefficients_.size() < static_cast<std::size_t>(j)) coefficients_ = DeviceBuffer<Complex>(j);
  coefficients_.upload(c, j);
  const cuDoubleComplex minus_one{-1.0, 0.0}, one{1.0, 0.0};
  GEOBEM_CUBLAS_CHECK(cublasZgemv(handle_, CUBLAS_OP_N, n_, j, &minus_one,
                                  reinterpret_cast<const cuDoubleComplex*>(v.data()), n_,
                                  reinterpret_cast<const cuDoubleComplex*>(coefficients_.data()), 1, &one,
                                  reinterpret_cast<cuDoubleComplex*>(w), 1));
}

void DeviceVectors::combine(const Basis& v, int j, const Complex* c, Complex* out) const {
  if (coefficients_.size() < static_cast<std::size_t>(j)) coefficients_ = DeviceBuffer<Complex>(j);
  coefficients_.upload(c, j);
  const cuDoubleComplex one{1.0, 0.0}, zero{0.0, 0.0};
  GEOBEM_CUBLAS_CHECK(cublasZgemv(handle_, CUBLAS_OP_N, n_, j, &one, reinterpret_cast<const cuDoubleComplex*>(v.data()),
                                  n_, reinterpret_cast<const cuDoubleComplex*>(coefficients_.data()), 1, &zero,
                                  reinterpret_cast<cuDoubleComplex*>(out), 1));
}

void DeviceVectors::add(Complex* x, const Complex* z) const {
  const cuDoubleComplex one{1.0, 0.0};
  GEOBEM_CUBLAS_CHECK(cublasZaxpy(handle_, n_, &one, reinterpret_cast<const cuDoubleComplex*>(z), 1,
                                  reinterpret_cast<cuDoubleComplex*>(x), 1));
}

void DeviceVectors::zero(Complex* x) const {
  GEOBEM_CUDA_CHECK(cudaMemset(x, 0, sizeof(Complex) * static_cast<std::size_t>(n_)));
}

}  // namespace geobem::bem::hierarchical

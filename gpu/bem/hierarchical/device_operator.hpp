#pragma once
// The hierarchical path on the device, what does not depend on the
// fundamental solution: the layout's arrays (DeviceLayout, with the near
// field's work cut into tiles that fit a thread block's shared memory), a
// batch of frequencies' compressed systems (DeviceBatch: near fields, the
// admissible leaves' forms and factors, block-Jacobi factors), its matvec and
// preconditioner, and the cuBLAS backend of GMRES (gmres.hpp). The kernels
// that assemble a batch (near field, ACA) are in hierarchical_solver_cuda.cu.
// One device-memory owner: DeviceBuffer; every CUDA and cuBLAS status checked.
#include <cstdint>
#include <vector>

#include "gpu/bem/complex.hpp"
#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/hierarchical/compressed_operator.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"
#include "gpu/core/library_handle.hpp"
#include "gpu/core/device_buffer.hpp"

namespace geobem::bem::hierarchical {

/// Shared memory one thread block of the near-field kernel may hold for its
/// rows (3 rows of a tile's columns and the right-hand sides), with the 17 kB
/// of the pair rounds: two blocks per SM, as the dense assembly.
constexpr std::size_t near_shared_budget = 88 * 1024;

/// A pair of the near field: an element of a dense leaf over a row leaf,
/// where its integrals go in the tile's shared rows, and its leaf.
struct NearPair {
  int element;  ///< element id
  int columns;  ///< index of its 4 local columns in local_columns (element_offset[σ] + k)
  int shared;   ///< first of its leaf's columns in the tile's shared rows
  int near;     ///< its dense leaf (near_blocks index)
};

/// A tile of a row leaf's near field: pairs [pair_begin, pair_end), dense
/// leaves tile_blocks[block_begin, block_end) (with their shared offsets),
/// shared_columns columns in all.
struct NearTile {
  int pair_begin, pair_end, block_begin, block_end, shared_columns;
};

/// Raw device pointers of a DeviceLayout (kernels' view).
struct LayoutView {
  int positions = 0, row_leaf_count = 0, admissible_count = 0, near_count = 0, preconditioner_count = 0;
  int preconditioner_dimension = 0;  ///< rows of the largest preconditioner block (its padded size)
  int largest_valence = 1;
  double traction_scale = 1.0;
  const int *row_order = nullptr, *element_order = nullptr;
  const Cluster *row_clusters = nullptr, *element_clusters = nullptr;
  const LayoutBlock* blocks = nullptr;
  const int *admissible_blocks = nullptr, *near_blocks = nullptr;
  const int *unknown_offset = nullptr, *unknown_count = nullptr, *unknowns = nullptr;
  const int *element_offset = nullptr, *local_columns = nullptr;
  const int *row_leaves = nullptr, *row_leaf_offset = nullptr, *row_leaf_blocks = nullptr;
  const int* leaf_of_position = nullptr;  ///< row leaf index (row_leaves order) of each tree position
  const int* preconditioner_of_leaf = nullptr;  ///< preconditioner cluster index of each row leaf
  const int* preconditioner_clusters = nullptr;
  const int* tile_offset = nullptr;  ///< per row leaf: its tiles [tile_offset[k], tile_offset[k + 1])
  const NearTile* tiles = nullptr;
  const NearPair* near_pairs = nullptr;
  const int *tile_blocks = nullptr, *tile_block_shared = nullptr;
};

/// A HierarchicalLayout on the device, with the near field's tiles.
class DeviceLayout {
 public:
  /// `load_cases`: the right-hand sides a near-field block holds beside its rows.
  DeviceLayout(const HierarchicalLayout& layout, int load_cases);
  const LayoutView& view() const { return view_; }
  /// Shared memory the near-field kernel needs (bytes): its widest tile.
  std::size_t near_shared_bytes() const { return near_shared_bytes_; }
  /// Bytes of the layout's arrays on the device.
  std::uint64_t bytes() const { return bytes_; }

 private:
  LayoutView view_;
  DeviceBuffer<int> ints_;
  DeviceBuffer<Cluster> clusters_;
  DeviceBuffer<LayoutBlock> blocks_;
  DeviceBuffer<NearTile> tiles_;
  DeviceBuffer<NearPair> pairs_;
  std::size_t near_shared_bytes_ = 0;
  std::uint64_t bytes_ = 0;
};

/// An admissible leaf at one frequency on the device (LeafForm, its rank, its
/// factors U and W, or its dense block in `u`).
struct DeviceLeaf {
  int form = 0, rank = 0;
  const Complex *u = nullptr, *w = nullptr;
};

/// The compressed systems of a batch of frequencies on the device. The
/// assembly fills near() (frequency f from f·near_values), near_kept(),
/// right_hand_sides() (frequency f, case c at (f·cases + c)·n), and sets the
/// admissible leaves' forms (set_leaves, factors in buffers it keeps); then
/// factorise() forms and factorises the preconditioner of every frequency.
class DeviceBatch {
 public:
  DeviceBatch(const HierarchicalLayout& layout, const DeviceLayout& device_layout,
              const std::vector<Complex>& free_term_diagonal, int frequencies, int load_cases);
  int frequencies() const { return frequencies_; }
  int size() const { return n_; }
  Complex* near() { return near_.data(); }
  char* near_kept() { return near_kept_.data(); }
  Complex* right_hand_sides() { return rhs_.data(); }
  /// The admissible leaves of every frequency (frequency f's from
  /// f·admissible_count), their factors held in `pools` (kept alive here).
  void set_leaves(const std::vector<DeviceLeaf>& leaves, std::vector<DeviceBuffer<Complex>>&& pools);
  /// Forms each frequency's block-Jacobi blocks (padded to the largest, the
  /// padding the identity) and factorises them (cuBLAS getrfBatched).
  /// Throws std::runtime_error naming the frequency's index in the batch and
  /// the block for a singular one.
  void factorise();
  /// y = Â x of frequency f (device vectors, tree order, scaled unknowns).
  void apply(int f, const Complex* x, Complex* y);
  /// y = M⁻¹ x of frequency f.
  void precondition(int f, const Complex* x, Complex* y);
  /// Frequency f as a host CompressedOperator (the GPU tests compare it with the CPU's).
  CompressedOperator download(int f) const;
  /// Bytes of frequency f's near field kept, factors, admissible leaves
  /// formed dense and preconditioner.
  CompressedSystemBytes frequency_bytes(int f) const;
  cublasHandle_t cublas() const { return cublas_.get(); }

 private:
  const HierarchicalLayout& layout_;
  const DeviceLayout& device_layout_;
  int frequencies_, cases_, n_;
  DeviceBuffer<Complex> near_, rhs_, diagonal_, preconditioner_, padded_, t_;
  DeviceBuffer<char> near_kept_;
  DeviceBuffer<DeviceLeaf> leaves_;
  std::vector<DeviceLeaf> host_leaves_;
  std::vector<DeviceBuffer<Complex>> pools_;
  DeviceBuffer<int> pivots_, info_, t_offset_;
  DeviceBuffer<Complex*> block_pointers_, padded_pointers_;
  std::vector<std::size_t> t_offset_host_;
  CublasHandle cublas_;
};

/// GMRES's vectors on the device (gmres.hpp's Vectors), through cuBLAS.
class DeviceVectors {
 public:
  using Vector = DeviceBuffer<Complex>;
  using Basis = DeviceBuffer<Complex>;
  DeviceVectors(int n, cublasHandle_t handle);
  Vector vector() const { return Vector(n_); }
  Basis basis(int columns) const { return Basis(static_cast<std::size_t>(n_) * columns); }
  Complex* column(Basis& v, int j) const { return v.data() + static_cast<std::size_t>(j) * n_; }
  double norm(const Complex* x) const;
  void difference(const Complex* b, const Complex* ax, Complex* r) const;
  void scaled(const Complex* x, double a, Complex* y) const;
  void project(const Basis& v, int j, const Complex* w, Complex* c) const;
  void subtract(const Basis& v, int j, const Complex* c, Complex* w) const;
  void combine(const Basis& v, int j, const Complex* c, Complex* out) const;
  void add(Complex* x, const Complex* z) const;
  void zero(Complex* x) const;

 private:
  int n_;
  cublasHandle_t handle_;
  mutable DeviceBuffer<Complex> coefficients_;
};

}  // namespace geobem::bem::hierarchical

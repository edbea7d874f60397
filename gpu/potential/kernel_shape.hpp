#pragma once
// Launch shapes of the source × station launcher (station_sums_cuda.cuh):
// threads per block and a register cap, both compile-time parameters of the
// CUDA kernels. A method compiles a tuple of Shape types and picks one at run
// time by its KernelShape (in_shape); shapes are timed by the benchmarks.
#include <tuple>
#include <vector>

namespace geobem::potential {

/// A launch shape as run-time numbers.
struct KernelShape {
  /// Threads per block (one station each), also the sources per
  /// shared-memory tile; 0 where a tuning leaves the shape to the method.
  int block_size = 0;
  /// Register cap per thread (__maxnreg__): more resident warps per SM for
  /// the latency of dependent FP64 chains, at the cost of spills; 0: no cap
  /// (the compiler's choice).
  int max_registers = 0;
};

inline bool same_shape(const KernelShape& a, const KernelShape& b) {
  return a.block_size == b.block_size && a.max_registers == b.max_registers;
}

/// A compiled launch shape.
template <int Block, int MaxRegisters>
struct Shape {
  static constexpr int block = Block;
  static constexpr int max_registers = MaxRegisters;
  static constexpr KernelShape value{Block, MaxRegisters};
};

/// The KernelShape values of a tuple of Shape types, in order.
template <typename... Shapes>
std::vector<KernelShape> shape_values(std::tuple<Shapes...>) {
  return {Shapes::value...};
}

/// Calls run(S{}) for the Shape S of the tuple equal to `shape`; returns
/// false (calling nothing) when the tuple has no such shape.
template <typename Run, typename... Shapes>
bool in_shape(std::tuple<Shapes...>, const KernelShape& shape, Run&& run) {
  bool found = false;
  ((!found && same_shape(shape, Shapes::value) ? (run(Shapes{}), found = true) : false), ...);
  return found;
}

}  // namespace geobem::potential

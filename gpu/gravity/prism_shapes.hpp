#pragma once
// The launch shapes compiled into the CUDA prism kernels (forward_cuda.cu,
// and the device-array path forward_on_device.cu) and the one each kernel
// runs in by default: the fastest of bench/gravity's sweep
// (`gravity_bench --shapes`, bench/RESULTS.md "Gravity before and after").
#include <tuple>

#include "gpu/potential/kernel_shape.hpp"

namespace geobem::gravity {

using potential::KernelShape;
using potential::Shape;

/// Every shape of the field kernels alone (cuda_kernel_shapes()), {128, 0}
/// first: block sizes alone, and register caps that each give a whole number
/// of blocks at 14–32 resident warps per SM (65,536 registers / (cap × 32)
/// warps).
using PrismShapes = std::tuple<Shape<128, 0>, Shape<64, 0>, Shape<32, 0>, Shape<64, 144>, Shape<32, 136>,
                               Shape<128, 128>, Shape<32, 120>, Shape<64, 112>, Shape<128, 96>, Shape<128, 80>,
                               Shape<128, 64>>;

/// The shapes of the kernels that sum the fields and their rounding
/// estimate in one pass (forward_model's in single precision; in double the
/// estimate runs in a pass of its own): fewer, as each costs compile time.
using EstimatedPrismShapes = std::tuple<Shape<128, 0>, Shape<64, 0>, Shape<128, 128>, Shape<32, 120>,
                                        Shape<128, 96>, Shape<128, 80>, Shape<128, 64>>;

/// The default shape of the prism kernel for single or double arithmetic,
/// all fields or g_z alone, with or without the rounding estimate in the
/// same pass: the fastest of the sweep on one H200 (the paper's case,
/// bench/RESULTS.md "Gravity: the rounding estimate in the fields' pass").
/// Double, fields alone: all ten 80 registers (0.614 s against 0.618 s at
/// 96), g_z 64 (0.257 s); with the estimate: all ten 96 (0.682 s), g_z 80.
/// Single: the H100 sweep's {64, 0} and {32, 120}, with the estimate too.
constexpr KernelShape default_prism_shape(bool single, bool gz_only, bool estimated) {
  if (single) return gz_only ? KernelShape{32, 120} : KernelShape{64, 0};
  if (gz_only) return estimated ? KernelShape{128, 80} : KernelShape{128, 64};
  return estimated ? KernelShape{128, 96} : KernelShape{128, 80};
}

/// The shapes of a prism layer's g_z face kernel in double (layer_sums_cuda;
/// forward_model_layer's estimate runs in a pass of its own), single
/// precision runs {128, 0}. Block sizes alone, and caps at and
/// below the kernel's own register count.
using LayerFaceShapes = std::tuple<Shape<128, 0>, Shape<64, 0>, Shape<256, 0>, Shape<128, 96>, Shape<128, 80>,
                                   Shape<128, 72>, Shape<128, 64>>;

/// The default shape of the layer's g_z face kernel in double, alone and
/// with the estimate: {128, 72}, the fastest of both sweeps on one H200
/// (`terrain_bench --shapes`, bench/RESULTS.md "Prism kernels: the
/// singular-station limits out of line": alone 0.604 s against 0.620 s
/// uncapped, 0.607 s at 64, 0.610 s at 96; with the estimate, "Gravity and
/// magnetics: the far sources' rounding bounds in single precision", 0.713 s
/// against 0.766 s uncapped). Single precision runs {128, 0}.
constexpr KernelShape default_layer_face_shape(bool single) {
  return single ? KernelShape{128, 0} : KernelShape{128, 72};
}

/// default_prism_shape as a Shape type, for a kernel compiled in it alone.
template <bool Single, bool GzOnly, bool Estimated>
using DefaultPrismShape = Shape<default_prism_shape(Single, GzOnly, Estimated).block_size,
                                default_prism_shape(Single, GzOnly, Estimated).max_registers>;

}  // namespace geobem::gravity

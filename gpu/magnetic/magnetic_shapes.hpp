#pragma once
// The launch shapes compiled into the CUDA magnetic kernels with their
// rounding bounds in one pass (magnetic_cuda.cu) and the default they run in:
// the fastest of terrain_bench's sweep (`terrain_bench --shapes`,
// bench/RESULTS.md).
#include <tuple>

#include "gpu/potential/kernel_shape.hpp"

namespace geobem::magnetic {

using potential::KernelShape;
using potential::Shape;

/// The shapes of the layer's magnetic kernel in double, alone and with its
/// bounds in the same pass (cuda_layer_shapes()): block sizes alone, and
/// register caps that each give a whole number of blocks per SM.
using LayerShapes = std::tuple<Shape<128, 0>, Shape<64, 0>, Shape<128, 128>, Shape<32, 120>, Shape<128, 96>,
                               Shape<128, 80>, Shape<128, 64>>;

/// The default shape of the field-and-bounds kernel in double, for layers
/// and prism lists alike (the same kernel body): the fastest of the sweep on
/// one H200 (bench/RESULTS.md "Gravity and magnetics: the far sources'
/// rounding bounds in single precision": {128, 96} 3.07 s against 3.43 s
/// uncapped, 3.12 s at 80, 3.18 s at 128). Single precision runs {128, 0}.
using DefaultShape = Shape<128, 96>;

/// The default shape of the field kernel alone in double (layers and prism
/// lists): the fastest of `terrain_bench --shapes fields` on one H200
/// (bench/RESULTS.md "Prism kernels: the singular-station limits out of
/// line": the layer's b 2.753 s against 3.218 s uncapped at 140 registers,
/// 2.771 s at 96, 2.846 s at 64).
using DefaultFieldShape = Shape<128, 80>;

}  // namespace geobem::magnetic

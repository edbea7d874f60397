#pragma once
// The launch shapes compiled into the CUDA magnetic field kernel in double
// (magnetic_cuda.cu; its rounding bounds run in a pass of their own) and the
// default it runs in: the fastest of terrain_bench's sweep
// (`terrain_bench --shapes`, bench/RESULTS.md).
#include <tuple>

#include "gpu/potential/kernel_shape.hpp"

namespace geobem::magnetic {

using potential::KernelShape;
using potential::Shape;

/// The shapes of the magnetic field kernel in double (cuda_layer_shapes()):
/// block sizes alone, and register caps that each give a whole number of
/// blocks per SM.
using LayerShapes = std::tuple<Shape<128, 0>, Shape<64, 0>, Shape<128, 128>, Shape<32, 120>, Shape<128, 96>,
                               Shape<128, 80>, Shape<128, 64>>;

/// The default shape of the field kernel in double (layers and prism
/// lists; the bounds run in gravity::RoundingPassShape): the fastest of
/// `terrain_bench --shapes fields` on one H200 (bench/RESULTS.md "Prism
/// kernels: the singular-station limits out of line": the layer's b 2.753 s
/// against 3.218 s uncapped at 140 registers, 2.771 s at 96, 2.846 s at 64).
using DefaultFieldShape = Shape<128, 80>;

}  // namespace geobem::magnetic

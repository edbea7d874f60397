#pragma once
#include <array>

#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

/// Number of grid intervals along each box edge for a target element size:
/// n = ceil(L·√2 / h), so that every triangle's longest edge (the diagonal
/// of its grid cell, the element diameter of finite-element practice) is at
/// most h. Throws InputError::usage for a non-positive or non-finite
/// length or size, or more than 100,000 intervals along an edge.
std::array<int, 3> box_divisions(const std::array<double, 3>& lengths, double target_element_size);

/// Structured triangulation of the six faces of the axis-aligned box
/// [origin, origin + lengths] (m): each face is a grid of box_divisions()
/// cells, each cell split into two right triangles along one diagonal.
/// Faces share their edge and corner nodes (a conforming, closed, manifold
/// surface), triangles are counter-clockwise seen from outside (outward
/// normals), and the groups are "x_min", "x_max", "y_min", "y_max", "z_min",
/// "z_max" in that order (group id = 2·axis + side).
///
/// The rod of docs/references.md#rod-benchmark (3 m × 1 m × 1 m): h = 0.25 m gives 17×6×6
/// intervals and 960 triangles; h = 0.24 m gives 18×6×6 and 1,008 triangles.
/// Throws InputError::usage as box_divisions().
SurfaceMesh generate_box_surface(const std::array<double, 3>& lengths, const std::array<double, 3>& origin,
                                 double target_element_size);

}  // namespace geobem::surface

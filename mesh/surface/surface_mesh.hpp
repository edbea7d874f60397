#pragma once
#include <array>
#include <string>
#include <vector>

namespace geobem::surface {

/// A closed triangle surface mesh with boundary groups: the geometry of the
/// elastodynamic BEM. Node coordinates in metres; triangles index `nodes`
/// (0-based) counter-clockwise seen from outside, so that the right-hand
/// normal (b − a) × (c − a) points out of the body. Every triangle belongs to
/// exactly one boundary group: `group_of_triangle[t]` indexes `group_names`.
struct SurfaceMesh {
  std::vector<std::array<double, 3>> nodes;
  std::vector<std::array<int, 3>> triangles;
  std::vector<int> group_of_triangle;
  std::vector<std::string> group_names;
};

}  // namespace geobem::surface

#pragma once
// What the BEM reads of a triangle surface mesh: node coordinates, triangles
// and their boundary groups, as plain arrays. The mesh readers and generators
// (mesh/surface) produce these arrays; the BEM library does not depend on them.
#include <array>
#include <cstddef>
#include <string>

namespace geobem::bem {

/// Closed triangle surfaces (m) with normals pointing out of the solid.
/// triangles[e] holds three node ids (counter-clockwise seen from the side
/// the normal points to); group_of_triangle[e] indexes group_names. The
/// arrays belong to the caller and must outlive the view.
struct SurfaceView {
  const std::array<double, 3>* nodes = nullptr;
  std::size_t node_count = 0;
  const std::array<int, 3>* triangles = nullptr;
  std::size_t triangle_count = 0;
  const int* group_of_triangle = nullptr;
  const std::string* group_names = nullptr;
  std::size_t group_count = 0;
  /// Exterior problem: the solid extends to infinity outside the outermost
  /// surfaces, which bound cavities (surface::SolidDomain::exterior); false:
  /// a bounded body (surface::SolidDomain::interior).
  bool unbounded_solid = false;
};

}  // namespace geobem::bem

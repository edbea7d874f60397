#pragma once
// The discrete collocation BEM model of a closed surface mesh with mixed
// boundary conditions: displacement linear and continuous (nodal unknowns),
// traction constant per element. Collocation points are the nodes where the
// displacement is unknown and the centroids of the elements where the
// traction is unknown (docs/references.md#cq-bem, "Mixed boundary conditions"), so the
// system is square. At the rod's edges and corners a node carries one
// displacement while the adjacent faces keep their own element tractions, so
// discontinuous normals need no special treatment.
#include <array>
#include <string>
#include <vector>

#include "gpu/bem/fundamental_solution.hpp"
#include "gpu/bem/vec3.hpp"
#include "gpu/bem/surface_view.hpp"

namespace geobem::bem {

/// Condition on one boundary group: `fixed` (u = 0) or a prescribed traction
/// vector (Pa) plus a pressure (Pa, positive pushes into the solid: traction
/// −p n on each element, n its normal out of the solid), both times the load
/// history (traction-free: zero vector and zero pressure).
struct GroupCondition {
  std::string group;
  bool fixed = false;
  std::array<double, 3> traction{0.0, 0.0, 0.0};
  double pressure = 0.0;
};

/// Plain arrays of a BemModel that a kernel reads (host or device pointers).
struct ModelView {
  int node_count = 0, element_count = 0, collocation_count = 0, free_node_count = 0, unknown_count = 0;
  const Vec3* nodes = nullptr;
  const int* triangles = nullptr;          ///< 3 node ids per element
  const Vec3* normals = nullptr;           ///< outward unit normal per element
  const double* areas = nullptr;           ///< m²
  const double* longest_edges = nullptr;   ///< m
  const Vec3* centroids = nullptr;
  const Vec3* collocation_points = nullptr;
  const int* collocation_node = nullptr;     ///< node id, −1 for an element centroid
  const int* collocation_element = nullptr;  ///< element id, −1 for a node
  const int* node_block = nullptr;           ///< unknown block of a free node, −1 for a fixed node
  const int* element_block = nullptr;        ///< unknown block of a fixed element's traction, −1 if prescribed
  const Vec3* element_traction = nullptr;    ///< prescribed traction amplitude (Pa), zero on fixed elements
  const int* element_load_case = nullptr;    ///< unit load case of a loaded element, −1 otherwise
  int load_case_count = 0;
  Material material;
};

/// Unknown block b (3 unknowns 3b..3b+2, and the 3 equations of collocation
/// point b): blocks 0..free_node_count−1 are free-node displacements,
/// the rest fixed-element tractions. Every group with a nonzero prescribed
/// traction is one unit load case (its traction amplitude times a load
/// history of its own); the right-hand sides have one column per case.
struct BemModel {
  Material material;
  std::vector<Vec3> nodes, normals, centroids, collocation_points, element_traction;
  std::vector<int> triangles, collocation_node, collocation_element, node_block, element_block, element_load_case;
  std::vector<std::string> load_case_groups;  ///< group name of each unit load case
  std::vector<double> areas, longest_edges;
  std::vector<int> free_nodes, fixed_elements;
  std::vector<std::string> group_names;
  std::vector<int> group_of_element;
  bool unbounded_solid = false;  ///< exterior problem (SurfaceView::unbounded_solid)
  /// Unknowns per block: a displacement or traction vector.
  static constexpr int components = 3;
  int unknown_count() const { return components * static_cast<int>(collocation_points.size()); }
  int load_case_count() const { return static_cast<int>(load_case_groups.size()); }
  ModelView view() const;
  /// Smallest longest-edge over the elements (m), for the CQ stability ratio.
  double smallest_element_size() const;
};

/// Builds the model of `surface`. Every group of the surface needs exactly
/// one condition and every condition names a group of it; throws
/// InputError naming the group otherwise, for a bounded solid
/// with no fixed group (its traction problem is singular up to rigid
/// motions; an unbounded solid's is not, as rigid motions do not decay at
/// infinity), and for a degenerate triangle.
BemModel make_bem_model(const SurfaceView& surface, const std::vector<GroupCondition>& conditions,
                        const Material& material);

}  // namespace geobem::bem

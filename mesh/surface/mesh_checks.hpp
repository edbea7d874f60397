#pragma once
#include <string>
#include <vector>

#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

/// Default relative area below which a triangle counts as degenerate:
/// area < tolerance × (its longest edge)².
inline constexpr double default_degenerate_tolerance = 1e-10;

/// The problems check_surface_mesh() found, one line each (at most five
/// listed per kind, then a count of the rest); empty when the mesh is fit for
/// the BEM.
struct MeshCheckReport {
  std::vector<std::string> problems;
  bool ok() const { return problems.empty(); }
  /// The problems joined by newlines.
  std::string message() const;
};

/// Checks what the collocation BEM needs of a surface mesh and reports every
/// violation with the triangle and node indices (0-based):
///  - node indices in range and finite node coordinates (else the report
///    stops there); group_of_triangle as long as triangles;
///  - no degenerate triangle: area ≥ tolerance × (longest edge)²;
///  - closed and manifold: every edge shared by exactly two triangles
///    ("open surface" for one, "non-manifold edge" for three or more), and
///    the triangles around each node form one fan ("non-manifold node");
///  - consistent orientation: the two triangles of an edge traverse it in
///    opposite directions;
///  - outward normals: once closed and consistent, each connected component
///    encloses a positive volume (enclosed_volume(); so bodies with cavities,
///    whose inner surfaces enclose negative volume, are refused);
///  - every triangle in exactly one boundary group: its group id indexes
///    group_names, and the names are non-empty and distinct.
MeshCheckReport check_surface_mesh(const SurfaceMesh& mesh,
                                   double degenerate_tolerance = default_degenerate_tolerance);

/// Throws std::runtime_error "SOURCE: invalid surface mesh:" followed by the
/// problems of check_surface_mesh(), if any.
void require_valid_surface_mesh(const SurfaceMesh& mesh, const std::string& source,
                                 double degenerate_tolerance = default_degenerate_tolerance);

/// Makes the normals of a closed manifold surface consistent and outward:
/// a flood fill over shared edges orients every connected component like its
/// first triangle, then a component whose enclosed volume is negative is
/// turned inside out. Returns how many triangles were reversed. Throws
/// std::runtime_error (naming the edge) for an open or non-manifold surface
/// or a non-orientable one (a Möbius-like component).
int orient_outward(SurfaceMesh& mesh);

}  // namespace geobem::surface

#pragma once
#include <optional>
#include <string>
#include <vector>

#include "mesh/surface/mesh_geometry.hpp"
#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

/// Default relative area below which a triangle counts as degenerate:
/// area < tolerance × (its longest edge)².
inline constexpr double default_degenerate_tolerance = 1e-10;

/// Where the elastic solid lies relative to the outermost closed surfaces of
/// a mesh (those inside no other one). interior: each outermost surface
/// bounds a finite body (a block; a surface nested inside it is a cavity, one
/// inside that cavity another body, and so on). exterior: the solid extends
/// to infinity and each outermost surface bounds a cavity, tunnel or borehole
/// in it. The normals of every surface point out of the solid, so once the
/// domain is known the nesting decides the orientation of each surface.
enum class SolidDomain { interior, exterior };

/// "interior" or "exterior".
const char* solid_domain_name(SolidDomain domain);

/// One closed surface of a mesh: a connected component of triangles joined
/// by shared edges.
struct ClosedSurface {
  std::vector<int> triangles;  ///< its triangle indices, ascending
  double enclosed_volume = 0;  ///< signed (m³): > 0 when its normals point away from the region it encloses
  int depth = 0;               ///< how many other closed surfaces of the mesh enclose it
  std::vector<int> parents;    ///< the indices of those surfaces
};

/// The closed surfaces of a closed, manifold, consistently oriented mesh,
/// ordered by their first triangle, with their signed volumes and nesting.
/// Nesting is decided by the winding number of each surface about a point of
/// the others: Σ over triangles of the signed solid angle (Van Oosterom &
/// Strackee 1983, IEEE Trans. Biomed. Eng. 30:125) / 4π, ±1 inside, 0 outside;
/// surfaces must not intersect. O(surfaces × triangles). Throws
/// std::runtime_error if an edge is not shared by exactly two triangles.
std::vector<ClosedSurface> closed_surfaces(const SurfaceMesh& mesh);

/// Winding number about `point` (m) of the closed surfaces made of
/// `triangles` (all of them in the second form): Σ over the triangles of the
/// signed solid angle (Van Oosterom & Strackee 1983, IEEE Trans. Biomed. Eng.
/// 30:125) / 4π. For closed, consistently oriented surfaces it counts the
/// surfaces around the point, each +1 when its normals point away from the
/// point, −1 when towards it; 0.5 (or an edge or corner's fraction) on a
/// surface. O(triangles).
double winding_number(const SurfaceMesh& mesh, const std::vector<int>& triangles, const Vector3& point);
double winding_number(const SurfaceMesh& mesh, const Vector3& point);

/// Whether the solid lies inside a closed surface nested `depth` deep:
/// interior: depth even; exterior: depth odd.
bool solid_inside(SolidDomain domain, int depth);

/// The domain a correctly oriented mesh describes: interior when its
/// outermost surfaces enclose positive volumes, exterior when negative;
/// std::nullopt when they disagree. The file itself thus records whether
/// the solid is bounded, with no extra field. Same preconditions as
/// closed_surfaces().
std::optional<SolidDomain> solid_domain_of(const SurfaceMesh& mesh);

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
///  - no self-intersection: no two triangles cross, touch or overlap other
///    than along the edge or at the node they share
///    (intersecting_triangles(), the first six pairs named);
///  - normals out of the solid: once closed and consistent, each closed
///    surface's normals point out of the solid of `domain` (closed_surfaces(),
///    solid_inside()): a surface around solid encloses a positive volume, one
///    around a cavity a negative one;
///  - every triangle in exactly one boundary group: its group id indexes
///    group_names, and the names are non-empty and distinct.
MeshCheckReport check_surface_mesh(const SurfaceMesh& mesh,
                                   double degenerate_tolerance = default_degenerate_tolerance,
                                   SolidDomain domain = SolidDomain::interior);

/// Throws std::runtime_error "SOURCE: invalid surface mesh:" followed by the
/// problems of check_surface_mesh(), if any.
void require_valid_surface_mesh(const SurfaceMesh& mesh, const std::string& source,
                                 double degenerate_tolerance = default_degenerate_tolerance,
                                 SolidDomain domain = SolidDomain::interior);

/// Makes the normals of a closed manifold mesh consistent and pointing out of
/// the solid of `domain`: a flood fill over shared edges orients every closed
/// surface like its first triangle, then a surface whose enclosed volume has
/// the wrong sign for its nesting (closed_surfaces(), solid_inside()) is
/// turned inside out. Returns how many triangles were reversed. Throws
/// std::runtime_error (naming the edge) for an open or non-manifold surface
/// or a non-orientable one (a Möbius-like component).
int orient_outward(SurfaceMesh& mesh, SolidDomain domain = SolidDomain::interior);

}  // namespace geobem::surface

#pragma once
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

/// A named region of space that assigns the triangles inside it to a
/// boundary group, for formats without tags (STL, untagged VTK/Gmsh files).
/// Text forms (the value of `--group`):
///   NAME=AXIS=VALUE[:TOL]          the plane x|y|z = VALUE (m), within TOL
///   NAME=box:XMIN,XMAX,YMIN,YMAX,ZMIN,ZMAX[:TOL]   the box, grown by TOL
/// TOL (m) defaults to 1e-6 × the diagonal of the mesh's bounding box.
/// A triangle is selected when all three of its nodes are inside.
struct GroupSelection {
  std::string name;
  std::string text;       ///< as given, for messages
  int axis = -1;          ///< plane normal axis 0..2; −1 for a box
  double value = 0;       ///< plane position (m)
  std::array<double, 3> low{}, high{};  ///< box corners (m)
  std::optional<double> tolerance;      ///< m; empty: the relative default
};

/// Parses one selection text (forms above). Throws InputError::usage
/// naming the text and what is wrong with it.
GroupSelection parse_group_selection(const std::string& text);

/// Assigns boundary groups, in place:
///  - `selections` (only for a mesh without groups of its own: group_names
///    empty, else InputError) give each triangle the group of the
///    selection that contains it; groups are numbered in the order of their
///    first selection (several selections may share a name);
///  - then triangles still without a group (group id −1: none selected, or
///    in no physical group of a tagged file) go to `default_group` if given.
/// Throws InputError when a triangle is inside two selections of
/// different names, when a selection selects no triangle, or when triangles
/// are left without a group and there is no default group (naming a few of
/// them with their centroids).
void assign_groups(SurfaceMesh& mesh, const std::vector<GroupSelection>& selections,
                   const std::optional<std::string>& default_group);

}  // namespace geobem::surface

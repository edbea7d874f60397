#pragma once
#include <filesystem>

#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

/// Reads the 3-node triangles of a Gmsh mesh file (.msh 2.2 or 4.x, ASCII or
/// binary) through the Gmsh API. Boundary groups are the physical groups of
/// dimension 2, in the order of their tags, named by their physical names
/// ("physical_TAG" when unnamed); triangles of surface entities in no
/// physical group get group id −1 (assign_groups() can give them a default
/// group), and the mesh has no groups at all when the file has no physical
/// surfaces. Elements of other dimensions (points, lines, tetrahedra) are
/// ignored; nodes come back in Gmsh's order, unused ones included
/// (remove_unused_nodes() drops them). Keeps Gmsh quiet (General.Terminal = 0).
/// Throws std::runtime_error naming the file when it is missing, Gmsh cannot
/// read it (with Gmsh's message), a surface element is not a 3-node
/// triangle, or a surface entity is in two physical groups.
SurfaceMesh read_gmsh_surface(const std::filesystem::path& path);

}  // namespace geobem::surface

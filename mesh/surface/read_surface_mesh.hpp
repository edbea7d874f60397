#pragma once
#include <filesystem>

#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

/// Drops the nodes no triangle uses and renumbers the triangles (Gmsh files
/// carry volume and geometry nodes; the BEM's unknowns are surface nodes).
void remove_unused_nodes(SurfaceMesh& mesh);

/// Reads a surface mesh by its extension: .msh (read_gmsh_surface), .vtu or
/// .vtp (read_vtk_surface), .stl (read_stl_surface), then drops unused
/// nodes. Groups and checks are the caller's (assign_groups(),
/// check_surface_mesh()). Throws std::runtime_error naming the file for an
/// unknown extension and whatever the reader throws.
SurfaceMesh read_surface_mesh(const std::filesystem::path& path);

}  // namespace geobem::surface

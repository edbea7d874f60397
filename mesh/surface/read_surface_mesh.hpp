#pragma once
#include <filesystem>

#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

/// Drops the nodes no triangle uses and renumbers the triangles (Gmsh files
/// carry volume and geometry nodes; the BEM's unknowns are surface nodes).
void remove_unused_nodes(SurfaceMesh& mesh);

/// The formats of geobem-mesh's --input, told by content, never by name.
enum class MeshFileFormat { GmshMsh, VtkXml, Stl, GeoScript };

/// The format of the file at `path` from its first bytes (a byte-order mark
/// and blanks skipped): '$' starts a Gmsh .msh file, '<' VTK XML; a binary
/// STL has control bytes in its first 256 and an ASCII one starts "solid"
/// and names a "facet". Any other text is the format its name says when that
/// is .msh, .vtu, .vtp or .stl (whose reader then says what is wrong with
/// it), a Gmsh .geo script otherwise: a .msh file renamed .geo is read as
/// .msh, never handed to Gmsh. Throws
/// std::runtime_error naming the file when it cannot be opened or is not a
/// regular file (a FIFO or a device is refused, not waited on).
MeshFileFormat detect_mesh_format(const std::filesystem::path& path);

/// Reads a surface mesh of the format its content shows (detect_mesh_format:
/// read_gmsh_surface, read_vtk_surface or read_stl_surface, whatever the
/// file's extension), then drops unused nodes. Groups and checks are the
/// caller's (assign_groups(), check_surface_mesh()). Throws
/// std::runtime_error naming the file for a .geo script (Gmsh meshes those:
/// mesh_geo_file) and whatever the reader throws.
SurfaceMesh read_surface_mesh(const std::filesystem::path& path);

}  // namespace geobem::surface

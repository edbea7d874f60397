#pragma once
#include <filesystem>

#include <vtkSmartPointer.h>

#include "mesh/surface/surface_mesh.hpp"

class vtkUnstructuredGrid;

namespace geobem::surface {

/// The mesh as a VTK unstructured grid of triangles with cell data `group`
/// (int, index into the field data string array `group_names`), `normal`
/// (unit outward normal, 3 components) and `area` (m²), and the `units`
/// field data of docs/design.md#units-axes-and-names. Assumes node indices in range.
vtkSmartPointer<vtkUnstructuredGrid> surface_to_vtk(const SurfaceMesh& mesh);

/// Writes surface_to_vtk(mesh) as a .vtu through write_vtk_xml (atomically:
/// nothing appears under `path` unless the write completes). Throws
/// std::runtime_error naming the path on failure.
void write_surface_vtu(const SurfaceMesh& mesh, const std::filesystem::path& path);

/// Reads the triangles of a VTK XML file (.vtu or .vtp; write_surface_vtu's
/// output included). Groups come from an integer cell array `group`, if
/// present: with a string field data `group_names` the ids index the names;
/// without it each distinct id v becomes a group "group_v". Cells that are
/// not triangles (a 3-point polygon counts as one) are refused. Throws
/// std::runtime_error naming the file and, for a bad cell, its index and
/// VTK cell type.
SurfaceMesh read_vtk_surface(const std::filesystem::path& path);

/// Reads an STL file (ASCII or binary) with VTK's vtkSTLReader, merging
/// coincident points so that neighbouring facets share nodes. STL has no
/// groups: group_names comes back empty (see assign_groups()). Throws
/// std::runtime_error naming the file when it is missing, unreadable, has
/// no facets, or is binary and not 84 + 50 x (its header's triangle count)
/// bytes long (checked before VTK allocates for that count).
SurfaceMesh read_stl_surface(const std::filesystem::path& path);

}  // namespace geobem::surface

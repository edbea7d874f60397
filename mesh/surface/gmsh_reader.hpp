#pragma once
#include <filesystem>

#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

/// Reads the 3-node triangles of an ASCII Gmsh mesh file, MSH 2.2 or 4.1
/// (Gmsh reference manual, "MSH file format"), with a reader of our own: the
/// Gmsh 4.8 library crashes on hostile input (an element node tag of -1 or
/// 2^31, a $PhysicalNames line replaced by a number, a 22-digit tag) and
/// reads tag 2^32 + 1 as 1. Every count, tag and coordinate is checked: tags
/// are integers from 1 to 2^53, every element node must be defined in $Nodes
/// (once), coordinates finite, declared counts equal to the lines. Binary
/// files, other versions and partitioned meshes are refused with a message
/// saying how to export ASCII from Gmsh; a UTF-8 byte-order mark and CRLF
/// line ends are accepted. Boundary groups are the physical tags of the
/// surface elements (2.2: the element's first tag; 4.1: its entity's
/// physical tag), in the order of their tags, named by $PhysicalNames of
/// dimension 2 ("physical_TAG" when unnamed); triangles in no physical group
/// get group id -1 (assign_groups() can give them a default group), and the
/// mesh has no groups when no triangle has one. Elements of dimension 0, 1
/// and 3 are checked and ignored; nodes come back in file order, unused ones
/// included (remove_unused_nodes() drops them). Throws std::runtime_error
/// "FILE:LINE: ..." when the file is missing or malformed, a surface element
/// is not a 3-node triangle, or a surface entity is in two physical groups.
SurfaceMesh read_gmsh_surface(const std::filesystem::path& path);

}  // namespace geobem::surface

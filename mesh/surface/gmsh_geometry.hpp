#pragma once
// Surface meshes made by Gmsh (its C++ API, gmsh.info): closed CAD shapes of
// the OpenCASCADE kernel at a target element size, and a user's .geo file.
// Reading .msh files is read_surface_mesh()'s job; Gmsh here only builds
// geometry and meshes it, in a child process with CPU-time and memory limits
// (gmsh_process.hpp); a .geo file is checked first (geo_check.hpp).
#include <array>
#include <cstddef>
#include <optional>
#include <string>

#include "mesh/surface/gmsh_process.hpp"
#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

/// A closed solid of Gmsh's OpenCASCADE kernel (m).
struct CadShape {
  enum class Kind { sphere, box, cylinder };
  Kind kind = Kind::sphere;
  std::array<double, 3> origin{};  ///< sphere: centre; box: corner of smallest coordinates; cylinder: centre of one end
  std::array<double, 3> extent{};  ///< box: lengths along x, y, z; cylinder: axis vector from one end to the other
  double radius = 0;               ///< sphere and cylinder
};

/// A shape from text: sphere:X,Y,Z,R | box:X,Y,Z,LX,LY,LZ |
/// cylinder:X,Y,Z,DX,DY,DZ,R (a tunnel section closed at its ends). Throws
/// InputError naming the text for an unknown kind, a wrong count
/// of numbers, a number that is not finite, or a size that is not > 0.
CadShape parse_cad_shape(const std::string& text);

/// The most triangles a Gmsh mesh may have: refused before meshing for a
/// shape whose area at the element size would need more, and after it for a
/// .geo file that made more.
constexpr std::size_t kMaxGmshTriangles = 2'000'000;

/// About how many triangles Gmsh makes for `shape` at `element_size` (m):
/// its area over that of an equilateral triangle of side element_size.
double estimated_triangles(const CadShape& shape, double element_size);

/// The surface of `shape` meshed by Gmsh with triangles of target size
/// `element_size` (m; Mesh.MeshSizeMax), one boundary group per surface of
/// the solid: sphere "wall"; box "x_min", "x_max", "y_min", "y_max", "z_min",
/// "z_max"; cylinder "wall", "end_0" (at origin), "end_1" (at origin + extent).
/// Normals as Gmsh makes them (geobem-mesh orients them). Throws
/// InputError::usage for element_size ≤ 0 or not finite, or one that would
/// give more than kMaxGmshTriangles (naming the estimate and the smallest
/// element size that fits), and std::runtime_error with Gmsh's message if Gmsh
/// fails, crashes or passes `limits`.
SurfaceMesh mesh_cad_shape(const CadShape& shape, double element_size, const GmshLimits& limits = {});

/// A .geo file (Gmsh's own geometry format) checked (check_geo_text), then
/// opened and meshed in 2D by Gmsh in a confined child process; the file is
/// read once, and Gmsh reads those checked bytes (not the path, so neither a
/// file changed after the check nor Gmsh's FILE.opt sidecar is read).
/// `element_size`, when given, caps the triangle size (Mesh.MeshSizeMax, and
/// Mesh.MeshSizeMin lowered to it if the file set it larger): Gmsh meshes
/// with the smallest of the sizes given, so the file's own sizes win where
/// they are smaller: its points' sizes (a point without one gets a tenth of
/// the model's bounding-box diagonal), size fields, Mesh.MeshSizeFactor.
/// `finer_edge`, when given, is set to the longest triangle edge (m) of the
/// surfaces wide enough for triangles of `element_size` (bounding-box
/// diagonal at least twice it) when that edge is under half the element
/// size, the mark of the file's sizes winning; else to std::nullopt. Groups:
/// its physical surfaces by name (an unnamed one "physical_TAG"); without
/// any, one group per surface "surface_TAG". Throws std::runtime_error naming
/// the file for a missing file or one that is not a regular file, a refused
/// command, Gmsh's errors, a crash or a limit of `limits` passed, a file with
/// no surface triangles or more than kMaxGmshTriangles, or a triangle in two
/// physical surfaces.
SurfaceMesh mesh_geo_file(const std::string& path, std::optional<double> element_size = std::nullopt,
                          std::optional<double>* finer_edge = nullptr, const GmshLimits& limits = {});

}  // namespace geobem::surface

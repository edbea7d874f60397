#pragma once
// Small surface meshes written as the text of each file format, from a
// SurfaceMesh (0-based) by the formats' own rules, for the reader and stage
// tests.
#include <sstream>
#include <string>

#include "mesh/surface/box_generator.hpp"
#include "mesh/surface/mesh_geometry.hpp"

namespace geobem::test {

using geobem::surface::SurfaceMesh;

/// The unit cube: 8 nodes, 12 triangles, groups x_min … z_max.
inline SurfaceMesh cube() { return geobem::surface::generate_box_surface({1, 1, 1}, {0, 0, 0}, 2.0); }

/// Gmsh 2.2 ASCII, one elementary entity per group (tag = group + 1); with
/// `physical` false no physical groups (physical tag 0), else physical tag =
/// entity tag with the group names.
inline std::string msh22(const SurfaceMesh& mesh, bool physical = true) {
  std::ostringstream out;
  out << "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n";
  if (physical) {
    out << "$PhysicalNames\n" << mesh.group_names.size() << "\n";
    for (std::size_t g = 0; g < mesh.group_names.size(); ++g)
      out << "2 " << g + 1 << " \"" << mesh.group_names[g] << "\"\n";
    out << "$EndPhysicalNames\n";
  }
  out << "$Nodes\n" << mesh.nodes.size() << "\n";
  for (std::size_t n = 0; n < mesh.nodes.size(); ++n)
    out << n + 1 << " " << mesh.nodes[n][0] << " " << mesh.nodes[n][1] << " " << mesh.nodes[n][2] << "\n";
  out << "$EndNodes\n$Elements\n" << mesh.triangles.size() << "\n";
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const int tag = mesh.group_of_triangle[t] + 1;  // physical = elementary = group + 1
    out << t + 1 << " 2 2 " << (physical ? tag : 0) << " " << tag;
    for (int node : mesh.triangles[t]) out << " " << node + 1;
    out << "\n";
  }
  out << "$EndElements\n";
  return out.str();
}

/// Gmsh 4.1 ASCII, one surface entity and physical group per group.
inline std::string msh41(const SurfaceMesh& mesh) {
  const std::size_t groups = mesh.group_names.size();
  std::ostringstream out;
  out << "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n$PhysicalNames\n" << groups << "\n";
  for (std::size_t g = 0; g < groups; ++g) out << "2 " << g + 1 << " \"" << mesh.group_names[g] << "\"\n";
  // One surface entity per group, entity tag = physical tag = group + 1.
  out << "$EndPhysicalNames\n$Entities\n0 0 " << groups << " 0\n";
  for (std::size_t g = 0; g < groups; ++g) out << g + 1 << " 0 0 0 1 1 1 1 " << g + 1 << " 0\n";
  out << "$EndEntities\n$Nodes\n1 " << mesh.nodes.size() << " 1 " << mesh.nodes.size() << "\n2 1 0 "
      << mesh.nodes.size() << "\n";
  for (std::size_t n = 0; n < mesh.nodes.size(); ++n) out << n + 1 << "\n";
  for (const auto& x : mesh.nodes) out << x[0] << " " << x[1] << " " << x[2] << "\n";
  out << "$EndNodes\n$Elements\n" << groups << " " << mesh.triangles.size() << " 1 " << mesh.triangles.size() << "\n";
  for (std::size_t g = 0; g < groups; ++g) {
    std::vector<std::size_t> members;
    for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
      if (mesh.group_of_triangle[t] == static_cast<int>(g)) members.push_back(t);
    out << "2 " << g + 1 << " 2 " << members.size() << "\n";
    for (std::size_t t : members)
      out << t + 1 << " " << mesh.triangles[t][0] + 1 << " " << mesh.triangles[t][1] + 1 << " "
          << mesh.triangles[t][2] + 1 << "\n";
  }
  out << "$EndElements\n";
  return out.str();
}

/// ASCII STL, one facet per triangle (no groups).
inline std::string ascii_stl(const SurfaceMesh& mesh) {
  std::ostringstream out;
  out << "solid cube\n";
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const auto n = geobem::surface::triangle_normal(mesh, static_cast<int>(t));
    out << " facet normal " << n[0] << " " << n[1] << " " << n[2] << "\n  outer loop\n";
    for (int node : mesh.triangles[t])
      out << "   vertex " << mesh.nodes[node][0] << " " << mesh.nodes[node][1] << " " << mesh.nodes[node][2] << "\n";
    out << "  endloop\n endfacet\n";
  }
  out << "endsolid cube\n";
  return out.str();
}

}  // namespace geobem::test

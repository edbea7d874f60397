#include "mesh/surface/read_surface_mesh.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <string>

#include "mesh/surface/gmsh_reader.hpp"
#include "mesh/surface/vtk_surface_io.hpp"

namespace geobem::surface {

void remove_unused_nodes(SurfaceMesh& mesh) {
  std::vector<int> new_index(mesh.nodes.size(), -1);
  std::vector<std::array<double, 3>> kept;
  for (auto& triangle : mesh.triangles)
    for (int& node : triangle) {
      if (node < 0 || node >= static_cast<int>(mesh.nodes.size()))
        throw std::out_of_range("triangle refers to node " + std::to_string(node) + " of " +
                                std::to_string(mesh.nodes.size()));
      if (new_index[node] < 0) {
        new_index[node] = static_cast<int>(kept.size());
        kept.push_back(mesh.nodes[node]);
      }
      node = new_index[node];
    }
  mesh.nodes = std::move(kept);
}

SurfaceMesh read_surface_mesh(const std::filesystem::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  SurfaceMesh mesh;
  if (extension == ".msh")
    mesh = read_gmsh_surface(path);
  else if (extension == ".vtu" || extension == ".vtp")
    mesh = read_vtk_surface(path);
  else if (extension == ".stl")
    mesh = read_stl_surface(path);
  else
    throw std::runtime_error(path.string() + ": unknown surface mesh format '" + extension +
                             "' (expected .msh, .vtu, .vtp or .stl)");
  try {
    remove_unused_nodes(mesh);
  } catch (const std::out_of_range& error) {
    throw std::runtime_error(path.string() + ": " + error.what());
  }
  return mesh;
}

}  // namespace geobem::surface

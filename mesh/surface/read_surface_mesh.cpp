#include "mesh/surface/read_surface_mesh.hpp"

#include <unistd.h>

#include <cctype>
#include <stdexcept>
#include <string>
#include <string_view>

#include "gpu/core/regular_file.hpp"
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

MeshFileFormat detect_mesh_format(const std::filesystem::path& path) {
  char head[256];
  const ssize_t size = ::read(RegularFile(path).descriptor(), head, sizeof head);
  if (size < 0) throw std::runtime_error(path.string() + ": cannot read the file");
  const std::string_view bytes(head, static_cast<std::size_t>(size));
  std::size_t at = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (at < bytes.size() && std::isspace(static_cast<unsigned char>(bytes[at]))) ++at;
  if (bytes.substr(at, 1) == "$") return MeshFileFormat::GmshMsh;
  if (bytes.substr(at, 1) == "<") return MeshFileFormat::VtkXml;
  // Control bytes (NUL in a binary STL's count and coordinates): binary,
  // which read_stl_surface checks against its header; UTF-8 is text.
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    if ((byte < 32 && c != '\n' && c != '\r' && c != '\t' && c != '\f') || byte == 127) return MeshFileFormat::Stl;
  }
  if (bytes.substr(at, 5) == "solid" && bytes.find("facet") != std::string_view::npos) return MeshFileFormat::Stl;
  // Other text: a file named as a mesh is that mesh's (its reader says what
  // is wrong with it), any other a .geo script.
  std::string extension = path.extension().string();
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (extension == ".msh") return MeshFileFormat::GmshMsh;
  if (extension == ".vtu" || extension == ".vtp") return MeshFileFormat::VtkXml;
  if (extension == ".stl") return MeshFileFormat::Stl;
  return MeshFileFormat::GeoScript;
}

SurfaceMesh read_surface_mesh(const std::filesystem::path& path) {
  SurfaceMesh mesh;
  switch (detect_mesh_format(path)) {
    case MeshFileFormat::GmshMsh: mesh = read_gmsh_surface(path); break;
    case MeshFileFormat::VtkXml: mesh = read_vtk_surface(path); break;
    case MeshFileFormat::Stl: mesh = read_stl_surface(path); break;
    case MeshFileFormat::GeoScript:
      throw std::runtime_error(path.string() + ": not a mesh (.msh, .vtu, .vtp or .stl) but text, read as a Gmsh .geo "
                               "script only by geobem-mesh --input");
  }
  try {
    remove_unused_nodes(mesh);
  } catch (const std::out_of_range& error) {
    throw std::runtime_error(path.string() + ": " + error.what());
  }
  return mesh;
}

}  // namespace geobem::surface

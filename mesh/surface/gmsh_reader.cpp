#include "mesh/surface/gmsh_reader.hpp"

#include <gmsh.h>

#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace geobem::surface {

namespace {

/// The Gmsh API for the duration of one read: initialised without config
/// files, silent, throwing on errors; finalised on every exit.
class GmshSession {
 public:
  GmshSession() {
    gmsh::initialize(0, nullptr, false);
    gmsh::option::setNumber("General.Terminal", 0);
    gmsh::option::setNumber("General.AbortOnError", 2);
  }
  ~GmshSession() { gmsh::finalize(); }
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;
};

std::string last_gmsh_error() {
  std::string error;
  gmsh::logger::getLastError(error);
  return error.empty() ? "unknown Gmsh error" : error;
}

}  // namespace

SurfaceMesh read_gmsh_surface(const std::filesystem::path& path) {
  const std::string name = path.string();
  if (!std::filesystem::is_regular_file(path)) throw std::runtime_error(name + ": no such file");
  GmshSession session;
  // Gmsh 4.8 throws objects of no standard type; its logger keeps the message.
  try {
    gmsh::open(name);
  } catch (...) {
    throw std::runtime_error(name + ": Gmsh cannot read it: " + last_gmsh_error());
  }

  SurfaceMesh mesh;
  std::unordered_map<std::size_t, int> node_of_tag;
  try {
    std::vector<std::size_t> node_tags;
    std::vector<double> coordinates, parametric;
    gmsh::model::mesh::getNodes(node_tags, coordinates, parametric, -1, -1, false, false);
    mesh.nodes.reserve(node_tags.size());
    for (std::size_t k = 0; k < node_tags.size(); ++k) {
      node_of_tag[node_tags[k]] = static_cast<int>(k);
      mesh.nodes.push_back({coordinates[3 * k], coordinates[3 * k + 1], coordinates[3 * k + 2]});
    }

    gmsh::vectorpair physical_groups;
    gmsh::model::getPhysicalGroups(physical_groups, 2);
    std::unordered_map<int, int> group_of_physical_tag;
    for (const auto& [dim, tag] : physical_groups) {
      std::string group_name;
      gmsh::model::getPhysicalName(dim, tag, group_name);
      group_of_physical_tag[tag] = static_cast<int>(mesh.group_names.size());
      mesh.group_names.push_back(group_name.empty() ? "physical_" + std::to_string(tag) : group_name);
    }

    gmsh::vectorpair entities;
    gmsh::model::getEntities(entities, 2);
    for (const auto& [dim, entity] : entities) {
      std::vector<int> physical_tags;
      gmsh::model::getPhysicalGroupsForEntity(dim, entity, physical_tags);
      if (physical_tags.size() > 1)
        throw std::runtime_error(name + ": surface entity " + std::to_string(entity) + " is in physical groups '" +
                                 mesh.group_names[group_of_physical_tag.at(physical_tags[0])] + "' and '" +
                                 mesh.group_names[group_of_physical_tag.at(physical_tags[1])] +
                                 "': every triangle must be in exactly one boundary group");
      const int group = physical_tags.empty() ? -1 : group_of_physical_tag.at(physical_tags[0]);

      std::vector<int> element_types;
      std::vector<std::vector<std::size_t>> element_tags, element_nodes;
      gmsh::model::mesh::getElements(element_types, element_tags, element_nodes, dim, entity);
      for (std::size_t k = 0; k < element_types.size(); ++k) {
        constexpr int three_node_triangle = 2;  // Gmsh's element type id
        if (element_types[k] != three_node_triangle) {
          std::string type_name;
          int type_dim = 0, order = 0, type_nodes = 0, primary = 0;
          std::vector<double> local;
          gmsh::model::mesh::getElementProperties(element_types[k], type_name, type_dim, order, type_nodes, local,
                                                  primary);
          throw std::runtime_error(name + ": element " + std::to_string(element_tags[k].front()) +
                                   " of surface entity " + std::to_string(entity) + " is a " + type_name +
                                   " (Gmsh type " + std::to_string(element_types[k]) +
                                   "); only 3-node triangles are supported");
        }
        for (std::size_t e = 0; e < element_tags[k].size(); ++e) {
          std::array<int, 3> triangle{};
          for (int c = 0; c < 3; ++c) triangle[c] = node_of_tag.at(element_nodes[k][3 * e + c]);
          mesh.triangles.push_back(triangle);
          mesh.group_of_triangle.push_back(group);
        }
      }
    }
  } catch (const std::runtime_error&) {
    throw;
  } catch (const std::out_of_range&) {
    throw std::runtime_error(name + ": an element refers to a node that the file does not define");
  } catch (...) {
    throw std::runtime_error(name + ": Gmsh failed while reading the mesh: " + last_gmsh_error());
  }
  return mesh;
}

}  // namespace geobem::surface

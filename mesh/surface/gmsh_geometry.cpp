#include "mesh/surface/gmsh_geometry.hpp"

#include <gmsh.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <vector>

#include "mesh/io/parse_number.hpp"

namespace geobem::surface {

namespace {

/// Gmsh's global state for one call: initialized quietly, errors thrown
/// (General.AbortOnError 2, the API's default) and logged, finalized on exit.
class GmshSession {
 public:
  GmshSession() {
    gmsh::initialize(0, nullptr, false);
    gmsh::option::setNumber("General.Terminal", 0);
    gmsh::logger::start();
    // Gmsh keeps options from one initialize to the next within a process:
    // put back the defaults of the sizes set here, so that one call's element
    // size does not leak into a later .geo file.
    static const std::array<double, 2> defaults = [] {
      double smallest = 0, largest = 0;
      gmsh::option::getNumber("Mesh.MeshSizeMin", smallest);
      gmsh::option::getNumber("Mesh.MeshSizeMax", largest);
      return std::array<double, 2>{smallest, largest};
    }();
    gmsh::option::setNumber("Mesh.MeshSizeMin", defaults[0]);
    gmsh::option::setNumber("Mesh.MeshSizeMax", defaults[1]);
  }
  ~GmshSession() {
    try {
      gmsh::logger::stop();
      gmsh::finalize();
    } catch (...) {  // nothing to report once the result is built or an error is on its way
    }
  }
  GmshSession(const GmshSession&) = delete;
  GmshSession& operator=(const GmshSession&) = delete;

  /// Gmsh's error lines since start, joined; `fallback` when it logged none.
  static std::string errors(const std::string& fallback) {
    std::vector<std::string> log;
    gmsh::logger::get(log);
    std::string text;
    for (const auto& line : log)
      if (line.rfind("Error", 0) == 0) text += (text.empty() ? "" : "\n") + line;
    return text.empty() ? fallback : text;
  }
};

/// A problem found in what Gmsh made (not one Gmsh reported).
struct MeshedModelError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Runs `step`, turning Gmsh's exceptions (a std::string in Gmsh 4.8, a
/// std::exception in later versions) into std::runtime_error "CONTEXT: MESSAGE".
template <class Step>
void gmsh_step(const std::string& context, Step step) {
  try {
    step();
  } catch (const MeshedModelError&) {
    throw;
  } catch (const std::string& message) {
    throw std::runtime_error(context + ": Gmsh: " + GmshSession::errors(message));
  } catch (const std::exception& error) {
    throw std::runtime_error(context + ": Gmsh: " + GmshSession::errors(error.what()));
  }
}

/// The 3-node triangles of the 2D entities `surfaces`, group `group` each,
/// appended to `mesh`; node tags mapped through `index` (filled as needed).
void append_triangles(SurfaceMesh& mesh, const std::vector<int>& surfaces, int group,
                      std::map<std::size_t, int>& index, std::map<std::size_t, int>& group_of_element,
                      const std::string& context) {
  for (int surface : surfaces) {
    std::vector<std::size_t> elements, nodes;
    gmsh::model::mesh::getElementsByType(2, elements, nodes, surface);
    for (std::size_t e = 0; e < elements.size(); ++e) {
      const auto [it, fresh] = group_of_element.emplace(elements[e], group);
      if (!fresh) {
        if (it->second == group) continue;
        throw MeshedModelError(context + ": triangle " + std::to_string(elements[e]) + " is in two physical surfaces ('" +
                                 mesh.group_names[it->second] + "' and '" + mesh.group_names[group] + "')");
      }
      std::array<int, 3> triangle{};
      for (int k = 0; k < 3; ++k) {
        const std::size_t tag = nodes[3 * e + k];
        auto found = index.find(tag);
        if (found == index.end()) {
          std::vector<double> coordinates, parametric;
          gmsh::model::mesh::getNode(tag, coordinates, parametric);
          found = index.emplace(tag, static_cast<int>(mesh.nodes.size())).first;
          mesh.nodes.push_back({coordinates[0], coordinates[1], coordinates[2]});
        }
        triangle[k] = found->second;
      }
      mesh.triangles.push_back(triangle);
      mesh.group_of_triangle.push_back(group);
    }
  }
}

/// The meshed model's triangles, grouped by physical surface or, without
/// any, by surface entity.
SurfaceMesh collect_surface_mesh(const std::string& context) {
  SurfaceMesh mesh;
  std::map<std::size_t, int> index, group_of_element;
  gmsh::vectorpair physical;
  gmsh::model::getPhysicalGroups(physical, 2);
  if (!physical.empty()) {
    for (const auto& [dim, tag] : physical) {
      std::string name;
      gmsh::model::getPhysicalName(dim, tag, name);
      mesh.group_names.push_back(name.empty() ? "physical_" + std::to_string(tag) : name);
      std::vector<int> surfaces;
      gmsh::model::getEntitiesForPhysicalGroup(dim, tag, surfaces);
      append_triangles(mesh, surfaces, static_cast<int>(mesh.group_names.size()) - 1, index, group_of_element,
                       context);
    }
  } else {
    gmsh::vectorpair surfaces;
    gmsh::model::getEntities(surfaces, 2);
    for (const auto& [dim, tag] : surfaces) {
      mesh.group_names.push_back("surface_" + std::to_string(tag));
      append_triangles(mesh, {tag}, static_cast<int>(mesh.group_names.size()) - 1, index, group_of_element, context);
    }
  }
  if (mesh.triangles.empty()) throw MeshedModelError(context + ": Gmsh made no surface triangles");
  return mesh;
}

/// The longest triangle edge (m) over the meshed surfaces whose bounding box
/// has a diagonal of at least `span`; 0 when no surface is that wide.
double longest_edge_of_wide_surfaces(double span) {
  gmsh::vectorpair surfaces;
  gmsh::model::getEntities(surfaces, 2);
  double longest = 0;
  for (const auto& [dim, tag] : surfaces) {
    double box[6];
    gmsh::model::getBoundingBox(dim, tag, box[0], box[1], box[2], box[3], box[4], box[5]);
    if (std::hypot(box[3] - box[0], box[4] - box[1], box[5] - box[2]) < span) continue;
    std::vector<std::size_t> elements, nodes;
    gmsh::model::mesh::getElementsByType(2, elements, nodes, tag);
    std::vector<double> coordinates, parametric;
    const auto position = [&](std::size_t node) {
      gmsh::model::mesh::getNode(node, coordinates, parametric);
      return std::array<double, 3>{coordinates[0], coordinates[1], coordinates[2]};
    };
    for (std::size_t t = 0; t + 2 < nodes.size(); t += 3) {
      const std::array<std::array<double, 3>, 3> corner{position(nodes[t]), position(nodes[t + 1]),
                                                         position(nodes[t + 2])};
      for (int k = 0; k < 3; ++k) {
        const auto& a = corner[k];
        const auto& b = corner[(k + 1) % 3];
        longest = std::max(longest, std::hypot(b[0] - a[0], b[1] - a[1], b[2] - a[2]));
      }
    }
  }
  return longest;
}

std::string shape_name(const CadShape& shape) {
  switch (shape.kind) {
    case CadShape::Kind::sphere: return "sphere";
    case CadShape::Kind::box: return "box";
    case CadShape::Kind::cylinder: return "cylinder";
  }
  return "shape";
}

}  // namespace

CadShape parse_cad_shape(const std::string& text) {
  const auto colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  std::vector<double> numbers;
  if (colon != std::string::npos) {
    std::size_t start = colon + 1;
    while (true) {
      const auto comma = text.find(',', start);
      const std::string field = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      const auto number = parse_number(field);
      if (!number || !std::isfinite(*number))
        throw std::invalid_argument("shape '" + text + "': '" + field + "' is not a finite number");
      numbers.push_back(*number);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  CadShape shape;
  auto expect = [&](std::size_t count, const char* form) {
    if (numbers.size() != count) throw std::invalid_argument("shape '" + text + "': expected " + form);
  };
  auto positive = [&](double value, const char* what) {
    if (!(value > 0)) throw std::invalid_argument("shape '" + text + "': the " + what + " must be > 0");
  };
  if (kind == "sphere") {
    expect(4, "sphere:X,Y,Z,R");
    shape.kind = CadShape::Kind::sphere;
    shape.radius = numbers[3];
    positive(shape.radius, "radius");
  } else if (kind == "box") {
    expect(6, "box:X,Y,Z,LX,LY,LZ");
    shape.kind = CadShape::Kind::box;
    shape.extent = {numbers[3], numbers[4], numbers[5]};
    for (double length : shape.extent) positive(length, "lengths");
  } else if (kind == "cylinder") {
    expect(7, "cylinder:X,Y,Z,DX,DY,DZ,R");
    shape.kind = CadShape::Kind::cylinder;
    shape.extent = {numbers[3], numbers[4], numbers[5]};
    shape.radius = numbers[6];
    positive(std::hypot(shape.extent[0], shape.extent[1], shape.extent[2]), "axis length");
    positive(shape.radius, "radius");
  } else {
    throw std::invalid_argument("shape '" + text + "': unknown; expected sphere:X,Y,Z,R, box:X,Y,Z,LX,LY,LZ or "
                                "cylinder:X,Y,Z,DX,DY,DZ,R");
  }
  shape.origin = {numbers[0], numbers[1], numbers[2]};
  return shape;
}

SurfaceMesh mesh_cad_shape(const CadShape& shape, double element_size) {
  if (!(element_size > 0) || !std::isfinite(element_size))
    throw std::invalid_argument("element size " + std::to_string(element_size) + " m: expected a finite number > 0");
  const std::string context = shape_name(shape);
  GmshSession session;
  SurfaceMesh mesh;
  gmsh_step(context, [&] {
    gmsh::model::add("geobem");
    const auto& [x, y, z] = shape.origin;
    const auto& [dx, dy, dz] = shape.extent;
    switch (shape.kind) {
      case CadShape::Kind::sphere: gmsh::model::occ::addSphere(x, y, z, shape.radius); break;
      case CadShape::Kind::box: gmsh::model::occ::addBox(x, y, z, dx, dy, dz); break;
      case CadShape::Kind::cylinder: gmsh::model::occ::addCylinder(x, y, z, dx, dy, dz, shape.radius); break;
    }
    gmsh::model::occ::synchronize();
    // One physical group per surface, named from where its centre of mass lies.
    gmsh::vectorpair surfaces;
    gmsh::model::getEntities(surfaces, 2);
    const double axis_length = std::hypot(dx, dy, dz);
    for (const auto& [dim, tag] : surfaces) {
      std::array<double, 3> centre{};
      gmsh::model::occ::getCenterOfMass(dim, tag, centre[0], centre[1], centre[2]);
      std::string name = "wall";
      if (shape.kind == CadShape::Kind::box) {
        for (int k = 0; k < 3; ++k) {
          const double tolerance = 1e-9 * shape.extent[k];
          if (std::abs(centre[k] - shape.origin[k]) < tolerance) name = std::string(1, "xyz"[k]) + "_min";
          if (std::abs(centre[k] - shape.origin[k] - shape.extent[k]) < tolerance) name = std::string(1, "xyz"[k]) + "_max";
        }
      } else if (shape.kind == CadShape::Kind::cylinder) {
        // Position of the centre along the axis: 0 at one end, 1 at the other, ½ for the wall.
        double along = 0;
        for (int k = 0; k < 3; ++k) along += (centre[k] - shape.origin[k]) * shape.extent[k];
        along /= axis_length * axis_length;
        if (std::abs(along) < 1e-9) name = "end_0";
        if (std::abs(along - 1) < 1e-9) name = "end_1";
      }
      const int group = gmsh::model::addPhysicalGroup(2, {tag});
      gmsh::model::setPhysicalName(2, group, name);
    }
    gmsh::option::setNumber("Mesh.MeshSizeMax", element_size);
    gmsh::option::setNumber("Mesh.MeshSizeMin", 0.0);
    gmsh::model::mesh::generate(2);
    mesh = collect_surface_mesh(context);
  });
  return mesh;
}

SurfaceMesh mesh_geo_file(const std::string& path, std::optional<double> element_size,
                          std::optional<double>* finer_edge) {
  if (finer_edge) finer_edge->reset();
  if (element_size && (!(*element_size > 0) || !std::isfinite(*element_size)))
    throw std::invalid_argument("element size " + std::to_string(*element_size) + " m: expected a finite number > 0");
  // Gmsh opens a missing file without an error, so look first.
  if (!std::ifstream(path)) throw std::runtime_error(path + ": cannot open the file");
  GmshSession session;
  SurfaceMesh mesh;
  gmsh_step(path, [&] {
    gmsh::open(path);
    if (element_size) {
      double smallest = 0;
      gmsh::option::getNumber("Mesh.MeshSizeMin", smallest);
      gmsh::option::setNumber("Mesh.MeshSizeMin", std::min(smallest, *element_size));
      gmsh::option::setNumber("Mesh.MeshSizeMax", *element_size);
    }
    gmsh::model::mesh::generate(2);
    mesh = collect_surface_mesh(path);
    if (element_size && finer_edge) {
      const double longest = longest_edge_of_wide_surfaces(2 * *element_size);
      if (longest > 0 && longest < 0.5 * *element_size) *finer_edge = longest;
    }
  });
  return mesh;
}

}  // namespace geobem::surface

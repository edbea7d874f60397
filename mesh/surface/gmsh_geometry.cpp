#include "mesh/surface/gmsh_geometry.hpp"

#include <fcntl.h>
#include <gmsh.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <vector>

#include "gpu/core/input_error.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/core/regular_file.hpp"
#include "mesh/io/parse_number.hpp"
#include "mesh/surface/geo_check.hpp"

namespace geobem::surface {

namespace {

/// Gmsh's global state in the child process that runs it: initialized with
/// its terminal messages on (they go to the parent through a pipe, and are
/// all that is left when Gmsh aborts), errors thrown (General.AbortOnError 2,
/// the API's default) and logged, every meshing step on one thread.
class GmshSession {
 public:
  GmshSession() {
    gmsh::initialize(0, nullptr, false);
    gmsh::option::setNumber("General.Terminal", 1);
    gmsh::option::setNumber("General.NumThreads", 1);
    for (const char* option : {"Mesh.MaxNumThreads1D", "Mesh.MaxNumThreads2D", "Mesh.MaxNumThreads3D"})
      gmsh::option::setNumber(option, 1);
    gmsh::logger::start();
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

/// The mesh as bytes for the pipe from the child: `finer_edge` (NaN for
/// none), three counts (nodes, triangles, groups), the coordinates, the
/// triangles' nodes and groups, then each group name as its length and
/// characters.
std::string serialize(const SurfaceMesh& mesh, std::optional<double> finer_edge = std::nullopt) {
  std::string bytes;
  const auto put = [&](const void* data, std::size_t size) { bytes.append(static_cast<const char*>(data), size); };
  const double edge = finer_edge.value_or(std::nan(""));
  put(&edge, sizeof edge);
  const std::uint64_t counts[3] = {mesh.nodes.size(), mesh.triangles.size(), mesh.group_names.size()};
  put(counts, sizeof counts);
  put(mesh.nodes.data(), mesh.nodes.size() * sizeof mesh.nodes[0]);
  put(mesh.triangles.data(), mesh.triangles.size() * sizeof mesh.triangles[0]);
  put(mesh.group_of_triangle.data(), mesh.group_of_triangle.size() * sizeof(int));
  for (const auto& name : mesh.group_names) {
    const std::uint64_t size = name.size();
    put(&size, sizeof size);
    put(name.data(), name.size());
  }
  return bytes;
}

/// The mesh serialize() wrote, and its finer edge into `finer_edge` when
/// given; every count checked against the bytes left.
SurfaceMesh deserialize(const std::string& bytes, const std::string& context,
                        std::optional<double>* finer_edge = nullptr) {
  std::size_t at = 0;
  const auto take = [&](void* data, std::uint64_t size) {
    if (size > bytes.size() - at) throw std::runtime_error(context + ": Gmsh's process sent a truncated mesh");
    std::memcpy(data, bytes.data() + at, size);
    at += size;
  };
  double edge = 0;
  take(&edge, sizeof edge);
  if (finer_edge) *finer_edge = std::isnan(edge) ? std::nullopt : std::optional<double>(edge);
  std::uint64_t counts[3];
  take(counts, sizeof counts);
  const std::uint64_t left = bytes.size() - at;
  if (counts[0] > left / sizeof(double) || counts[1] > left / sizeof(int) || counts[2] > left)
    throw std::runtime_error(context + ": Gmsh's process sent a truncated mesh");
  SurfaceMesh mesh;
  mesh.nodes.resize(counts[0]);
  mesh.triangles.resize(counts[1]);
  mesh.group_of_triangle.resize(counts[1]);
  take(mesh.nodes.data(), counts[0] * sizeof mesh.nodes[0]);
  take(mesh.triangles.data(), counts[1] * sizeof mesh.triangles[0]);
  take(mesh.group_of_triangle.data(), counts[1] * sizeof(int));
  for (std::uint64_t g = 0; g < counts[2]; ++g) {
    std::uint64_t size = 0;
    take(&size, sizeof size);
    std::string name(std::min<std::uint64_t>(size, bytes.size() - at), '\0');
    take(name.data(), size);
    mesh.group_names.push_back(std::move(name));
  }
  return mesh;
}

/// Refuses a mesh with more than kMaxGmshTriangles (in the child, before it is sent).
void require_triangle_cap(const SurfaceMesh& mesh, const std::string& context) {
  if (mesh.triangles.size() > kMaxGmshTriangles)
    throw MeshedModelError(context + ": Gmsh made " + std::to_string(mesh.triangles.size()) +
                           " triangles, more than the " + std::to_string(kMaxGmshTriangles) +
                           " geobem-mesh accepts; give a larger element size");
}

/// `text` with every `from` replaced by `to`.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
  return text;
}

/// The bytes of the regular file `path`, at most kMaxGeoFileBytes; read
/// without blocking on a FIFO or following the file's size past the limit.
std::string read_geo_file(const std::string& path) {
  const RegularFile file(path);
  if (file.size() > kMaxGeoFileBytes)
    throw std::runtime_error(path + ": " + std::to_string(file.size()) + " bytes, more than the " +
                             std::to_string(kMaxGeoFileBytes >> 20) + " MiB a .geo geometry file may have");
  std::string bytes(static_cast<std::size_t>(file.size()), '\0');
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t got = ::read(file.descriptor(), bytes.data() + done, bytes.size() - done);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw std::runtime_error(path + ": cannot read the file (" + std::strerror(errno) + ")");
    if (got == 0) break;
    done += static_cast<std::size_t>(got);
  }
  bytes.resize(done);
  return bytes;
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
        throw InputError("shape '" + text + "': '" + field + "' is not a finite number");
      numbers.push_back(*number);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  CadShape shape;
  auto expect = [&](std::size_t count, const char* form) {
    if (numbers.size() != count) throw InputError("shape '" + text + "': expected " + form);
  };
  auto positive = [&](double value, const char* what) {
    if (!(value > 0)) throw InputError("shape '" + text + "': the " + what + " must be > 0");
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
    throw InputError("shape '" + text + "': unknown; expected sphere:X,Y,Z,R, box:X,Y,Z,LX,LY,LZ or "
                     "cylinder:X,Y,Z,DX,DY,DZ,R");
  }
  shape.origin = {numbers[0], numbers[1], numbers[2]};
  return shape;
}

double estimated_triangles(const CadShape& shape, double element_size) {
  const auto& [lx, ly, lz] = shape.extent;
  const double r = shape.radius;
  double area = 0;
  switch (shape.kind) {
    case CadShape::Kind::sphere: area = 4 * kPi * r * r; break;
    case CadShape::Kind::box: area = 2 * (lx * ly + ly * lz + lz * lx); break;
    case CadShape::Kind::cylinder: area = 2 * kPi * r * std::hypot(lx, ly, lz) + 2 * kPi * r * r; break;
  }
  return area / (std::sqrt(3.0) / 4 * element_size * element_size);
}

SurfaceMesh mesh_cad_shape(const CadShape& shape, double element_size, const GmshLimits& limits) {
  if (!(element_size > 0) || !std::isfinite(element_size))
    throw InputError::usage("element size " + std::to_string(element_size) + " m: expected a finite number > 0");
  const std::string context = shape_name(shape);
  const double triangles = estimated_triangles(shape, element_size);
  if (!(triangles <= static_cast<double>(kMaxGmshTriangles))) {
    char text[256];
    std::snprintf(text, sizeof text,
                  "%s at element size %g m: about %.3g triangles, more than the %zu geobem-mesh makes; give an "
                  "element size of at least %.3g m",
                  context.c_str(), element_size, triangles, kMaxGmshTriangles,
                  element_size * std::sqrt(triangles / static_cast<double>(kMaxGmshTriangles)));
    throw InputError::usage(text);
  }
  const std::string bytes = run_gmsh_process(context, limits, false, [&](GmshChannel& channel) {
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
            if (std::abs(centre[k] - shape.origin[k] - shape.extent[k]) < tolerance)
              name = std::string(1, "xyz"[k]) + "_max";
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
      channel.script_done();
      gmsh::model::mesh::generate(2);
      mesh = collect_surface_mesh(context);
      require_triangle_cap(mesh, context);
    });
    return serialize(mesh);
  });
  return deserialize(bytes, context);
}

SurfaceMesh mesh_geo_file(const std::string& path, std::optional<double> element_size,
                          std::optional<double>* finer_edge, const GmshLimits& limits) {
  if (finer_edge) finer_edge->reset();
  if (element_size && (!(*element_size > 0) || !std::isfinite(*element_size)))
    throw InputError::usage("element size " + std::to_string(*element_size) + " m: expected a finite number > 0");
  const std::string text = read_geo_file(path);
  check_geo_text(text, path);
  // Gmsh reads the checked bytes from a memory file, by a path of its own.
  const int memory = ::memfd_create("geobem-geo", MFD_CLOEXEC);
  if (memory < 0)
    throw std::runtime_error(path + ": cannot make a memory file for Gmsh (" + std::strerror(errno) + ")");
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{memory};
  for (std::size_t done = 0; done < text.size();) {
    const ssize_t written = ::write(memory, text.data() + done, text.size() - done);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) throw std::runtime_error(path + ": cannot fill a memory file for Gmsh");
    done += static_cast<std::size_t>(written);
  }
  const std::string gmsh_path = "/proc/self/fd/" + std::to_string(memory);
  try {
    const std::string bytes = run_gmsh_process(path, limits, true, [&](GmshChannel& channel) {
      GmshSession session;
      SurfaceMesh mesh;
      std::optional<double> finer;
      gmsh_step(path, [&] {
        gmsh::open(gmsh_path);
        channel.script_done();
        if (element_size) {
          double smallest = 0;
          gmsh::option::getNumber("Mesh.MeshSizeMin", smallest);
          gmsh::option::setNumber("Mesh.MeshSizeMin", std::min(smallest, *element_size));
          gmsh::option::setNumber("Mesh.MeshSizeMax", *element_size);
        }
        // The file may have asked for threads; one, as in GmshSession.
        for (const char* option : {"General.NumThreads", "Mesh.MaxNumThreads1D", "Mesh.MaxNumThreads2D"})
          gmsh::option::setNumber(option, 1);
        gmsh::model::mesh::generate(2);
        mesh = collect_surface_mesh(path);
        require_triangle_cap(mesh, path);
        if (element_size) {
          const double longest = longest_edge_of_wide_surfaces(2 * *element_size);
          if (longest > 0 && longest < 0.5 * *element_size) finer = longest;
        }
      });
      return serialize(mesh, finer);
    });
    return deserialize(bytes, path, finer_edge);
  } catch (const std::runtime_error& error) {
    throw std::runtime_error(replaced(error.what(), gmsh_path, path));
  }
}

}  // namespace geobem::surface

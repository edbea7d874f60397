#include "mesh/surface/box_generator.hpp"
#include "gpu/core/input_error.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

namespace geobem::surface {

std::array<int, 3> box_divisions(const std::array<double, 3>& lengths, double target_element_size) {
  if (!(target_element_size > 0) || !std::isfinite(target_element_size))
    throw InputError::usage("box mesh: element size " + std::to_string(target_element_size) +
                            " m must be positive and finite");
  std::array<int, 3> divisions{};
  for (int axis = 0; axis < 3; ++axis) {
    const double length = lengths[axis];
    if (!(length > 0) || !std::isfinite(length))
      throw InputError::usage("box mesh: length " + std::to_string(length) + " m along axis " +
                              std::string(1, "xyz"[axis]) + " must be positive and finite");
    // A relative slack keeps L/h that is an integer up to rounding from
    // gaining an extra interval.
    const double intervals = std::ceil(length * std::sqrt(2.0) / target_element_size * (1 - 1e-12));
    if (intervals > 1e5)
      throw InputError::usage("box mesh: element size " + std::to_string(target_element_size) +
                              " m gives more than 100000 intervals along axis " + std::string(1, "xyz"[axis]));
    divisions[axis] = std::max(1, static_cast<int>(intervals));
  }
  return divisions;
}

SurfaceMesh generate_box_surface(const std::array<double, 3>& lengths, const std::array<double, 3>& origin,
                                 double target_element_size) {
  const std::array<int, 3> n = box_divisions(lengths, target_element_size);
  SurfaceMesh mesh;
  mesh.group_names = {"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"};

  // Surface nodes are points of the box's lattice; one id per lattice point
  // makes the faces share their edges.
  std::map<std::array<int, 3>, int> node_of_lattice_point;
  auto node = [&](const std::array<int, 3>& ijk) {
    auto [it, inserted] = node_of_lattice_point.emplace(ijk, static_cast<int>(mesh.nodes.size()));
    if (inserted) {
      std::array<double, 3> x{};
      for (int a = 0; a < 3; ++a)
        x[a] = ijk[a] == n[a] ? origin[a] + lengths[a] : origin[a] + lengths[a] * ijk[a] / n[a];
      mesh.nodes.push_back(x);
    }
    return it->second;
  };

  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      // In-plane axes (u, v) with u × v = the outward normal ±e_axis:
      // side 1 takes the cyclic successors, side 0 swaps them.
      int u = (axis + 1) % 3, v = (axis + 2) % 3;
      if (side == 0) std::swap(u, v);
      const int group = 2 * axis + side;
      for (int i = 0; i < n[u]; ++i) {
        for (int j = 0; j < n[v]; ++j) {
          auto corner = [&](int di, int dj) {
            std::array<int, 3> ijk{};
            ijk[axis] = side * n[axis];
            ijk[u] = i + di;
            ijk[v] = j + dj;
            return node(ijk);
          };
          const int p00 = corner(0, 0), p10 = corner(1, 0), p11 = corner(1, 1), p01 = corner(0, 1);
          mesh.triangles.push_back({p00, p10, p11});
          mesh.triangles.push_back({p00, p11, p01});
          mesh.group_of_triangle.push_back(group);
          mesh.group_of_triangle.push_back(group);
        }
      }
    }
  }
  return mesh;
}

}  // namespace geobem::surface

#pragma once
// Receivers of geobem-time: points inside the elastic solid where the
// displacement is evaluated by the representation formula
// (gpu/bem/receiver_field.hpp), as a user gives them: a CSV of points, a
// line of points, a grid of points.
#include <string>
#include <vector>

#include "gpu/bem/vec3.hpp"
#include "mesh/surface/surface_mesh.hpp"

namespace geobem::cq_stage {

/// The most receivers a run takes, from all its options together: a
/// receiver costs a representation formula per CQ frequency over every
/// element, and its series and step files hold 3 values per step.
inline constexpr std::size_t max_receivers = 1'000'000;

struct Receiver {
  bem::Vec3 point;         ///< m
  std::string source;      ///< where it was given ("FILE:LINE", "--receiver-line point 3"), for messages
  bool of_pattern = false; ///< one point of a --receiver-line or --receiver-grid, not a point of its own
};

/// The receivers of a CSV file with columns x,y,z (m; header required, other
/// columns ignored; `#` comments, a byte-order mark and CR LF accepted).
/// Throws std::runtime_error naming FILE:LINE for a missing file or column,
/// a field that is not a finite number, no rows, or more than max_receivers.
std::vector<Receiver> read_receiver_csv(const std::string& path);

/// N equally spaced receivers from (X0,Y0,Z0) to (X1,Y1,Z1), both ends
/// included, from "X0,Y0,Z0:X1,Y1,Z1:N" (N = 1: the first point alone).
/// Throws InputError::usage naming the text for a malformed one, a
/// non-finite coordinate or N < 1.
std::vector<Receiver> receiver_line(const std::string& text);

/// The NX × NY × NZ receivers of a box grid from corner (X0,Y0,Z0) to corner
/// (X1,Y1,Z1), "X0,Y0,Z0:X1,Y1,Z1:NX,NY,NZ", x fastest; a count of 1 puts
/// that axis's one layer at the first corner's coordinate (a plane or a line
/// of receivers). Throws InputError::usage naming the text for a malformed
/// one, a non-finite coordinate, a count < 1, or NX·NY·NZ above
/// max_receivers (checked before any receiver is made).
std::vector<Receiver> receiver_grid(const std::string& text);

/// Throws InputError::usage naming `what` when `already` receivers and
/// `more` of it exceed max_receivers.
void require_receiver_count(std::size_t already, std::size_t more, const std::string& what);

/// The receivers that lie strictly inside the elastic solid, off its surface,
/// in order, and the points of lines and grids left out for lying elsewhere.
struct ReceiversInSolid {
  std::vector<Receiver> receivers;
  std::size_t left_out = 0;
  std::string first_left_out;  ///< "SOURCE at (X, Y, Z) m (inside a cavity)", empty when none
};

/// Keeps the receivers strictly inside the elastic solid the mesh bounds:
/// the winding number of the mesh (normals out of the solid,
/// surface::winding_number) plus 1 for an unbounded solid is 1 in the solid,
/// 0 in a cavity or outside a body, 1/2 on the boundary; a receiver is in the
/// solid where it exceeds 3/4. A receiver nearer a triangle than
/// bem::receiver_min_distance_ratio times its longest edge is not kept
/// either: there the representation formula's quadrature is not accurate.
/// Points of a line or grid elsewhere or that near are left out (a grid
/// across a cavity maps the rock around it). Throws std::runtime_error naming
/// the first receiver of a CSV file (a point given on purpose) that is not in
/// the solid, or is that near (with the distance, the triangle and the
/// distance needed), its source and coordinates, and how many others there
/// are; or when no receiver is left.
ReceiversInSolid receivers_in_solid(const surface::SurfaceMesh& mesh, bool unbounded_solid,
                                    const std::vector<Receiver>& receivers);

}  // namespace geobem::cq_stage

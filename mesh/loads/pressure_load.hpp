#pragma once
// Pressure on boundary groups, as a traction per triangle.
#include <array>
#include <string>
#include <vector>

#include "mesh/surface/surface_mesh.hpp"

namespace geobem::loads {

/// A uniform pressure on one boundary group: Pa, positive pushes into the
/// solid (a pressurized cavity, a blast on a tunnel wall).
struct PressureLoad {
  std::string group;
  double pressure = 0;
};

/// "GROUP=P" (P in Pa). Throws InputError naming the text for a
/// missing '=', an empty group or a P that is not a finite number.
PressureLoad parse_pressure_load(const std::string& text);

/// The traction t = −p n (Pa) on every triangle, n its unit normal pointing
/// out of the solid (the mesh's convention), zero on triangles of groups
/// without a pressure: shape [triangles][3], for a mesh that passes
/// surface::check_surface_mesh(). Throws InputError for
/// a group the mesh lacks (listing its groups) or a group given twice.
std::vector<std::array<double, 3>> pressure_tractions(const surface::SurfaceMesh& mesh,
                                                      const std::vector<PressureLoad>& loads);

}  // namespace geobem::loads

#include "mesh/loads/pressure_load.hpp"

#include <cmath>
#include <stdexcept>

#include "gpu/core/input_error.hpp"
#include "mesh/io/parse_number.hpp"
#include "mesh/surface/mesh_geometry.hpp"

namespace geobem::loads {

PressureLoad parse_pressure_load(const std::string& text) {
  const std::string origin = "pressure '" + text + "'";
  const auto equals = text.find('=');
  if (equals == std::string::npos)
    throw InputError("expected GROUP=P (P in Pa, positive pushes into the solid)", InputKind::data, origin);
  PressureLoad load;
  load.group = text.substr(0, equals);
  if (load.group.empty()) throw InputError("no group name before '='", InputKind::data, origin);
  const auto value = parse_number(text.substr(equals + 1));
  if (!value || !std::isfinite(*value))
    throw InputError("'" + text.substr(equals + 1) + "' is not a finite number", InputKind::data, origin);
  load.pressure = *value;
  return load;
}

std::vector<std::array<double, 3>> pressure_tractions(const surface::SurfaceMesh& mesh,
                                                      const std::vector<PressureLoad>& loads) {
  std::vector<double> pressure_of_group(mesh.group_names.size(), 0.0);
  std::vector<bool> given(mesh.group_names.size(), false);
  for (const auto& load : loads) {
    std::size_t g = 0;
    while (g < mesh.group_names.size() && mesh.group_names[g] != load.group) ++g;
    if (g == mesh.group_names.size()) {
      std::string names;
      for (const auto& name : mesh.group_names) names += (names.empty() ? "" : ", ") + name;
      throw InputError("pressure on group '" + load.group + "': the mesh has no such group (groups: " +
                       names + ")");
    }
    if (given[g]) throw InputError("pressure on group '" + load.group + "' given twice");
    given[g] = true;
    pressure_of_group[g] = load.pressure;
  }
  std::vector<std::array<double, 3>> traction(mesh.triangles.size(), {0.0, 0.0, 0.0});
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const double p = pressure_of_group[mesh.group_of_triangle[t]];
    if (p == 0) continue;
    const auto n = surface::triangle_normal(mesh, static_cast<int>(t));
    traction[t] = {-p * n[0], -p * n[1], -p * n[2]};
  }
  return traction;
}

}  // namespace geobem::loads

#pragma once
// The elastodynamic CQ problem as the BEM stages take it from the command
// line and record it in the manifest: the surface, boundary conditions per
// group, material, CQ steps, and (geobem-time) the load histories.
#include <string>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/convolution_quadrature.hpp"
#include "mesh/surface/surface_mesh.hpp"
#include "stages/cq_stage/name_list.hpp"

namespace geobem::cq_stage {

/// The BEM's view of a surface mesh (valid while `mesh` lives), unchecked,
/// as a bounded solid.
inline bem::SurfaceView bem_surface(const surface::SurfaceMesh& mesh) {
  return {mesh.nodes.data(),       mesh.nodes.size(),       mesh.triangles.data(),  mesh.triangles.size(),
          mesh.group_of_triangle.data(), mesh.group_names.data(), mesh.group_names.size()};
}

/// The BEM's view of a surface mesh (valid while `mesh` lives), after the
/// checks of surface::require_valid_surface_mesh for the domain the mesh's
/// own orientation records (surface::solid_domain_of: outermost surfaces of
/// negative enclosed volume bound cavities in an unbounded solid, which sets
/// SurfaceView::unbounded_solid). Throws std::runtime_error naming `source`
/// for an invalid mesh or one whose outermost surfaces disagree.
bem::SurfaceView checked_bem_surface(const surface::SurfaceMesh& mesh, const std::string& source);

/// Boundary conditions as text: group names that are fixed (u = 0) or
/// traction-free, prescribed tractions "NAME=P:DX,DY,DZ" (magnitude P in
/// Pa along the direction DX,DY,DZ, normalised here) and pressures "NAME=P"
/// (Pa, positive pushes into the solid).
struct ConditionTexts {
  std::vector<std::string> fixed, free, traction, pressure;
};

/// The GroupConditions of the texts (a comma list of names counts as several
/// groups; tractions by loads::parse_traction_load, pressures by
/// loads::parse_pressure_load). A group with both a traction and a pressure
/// is one load case carrying both. Throws InputError::usage naming the
/// option and text for a malformed traction or pressure, a zero direction, a
/// value that is not a finite number, a group given two tractions or two
/// pressures, or (when `group_names` is not empty) a group the mesh lacks.
std::vector<bem::GroupCondition> parse_conditions(const ConditionTexts& texts,
                                                  const std::vector<std::string>& group_names = {});

/// bem::material_from_young(E, nu, rho), and its derived moduli and wave
/// speeds finite. Throws InputError::usage naming the values otherwise.
bem::Material checked_material(double young_modulus, double poisson_ratio, double density);

/// Load history samples g_n = f(nΔt), n = 0…N, of a text that
/// loads::parse_load_history reads (heaviside, ramp:T, ricker:FC[:DELAY],
/// friedlander:TD:B, csv:FILE). Throws InputError::usage naming the text
/// for a malformed one; std::runtime_error naming FILE:LINE for a bad CSV.
std::vector<double> load_history_values(const std::string& text, const bem::CqSettings& settings);

/// One load history per load case (`case_groups`, the loaded groups in the
/// model's order) from texts "HISTORY" (every case without its own) or
/// "GROUP=HISTORY"; the default is heaviside. Throws InputError::usage naming
/// the text for an unknown group, a group given twice or a bad history.
std::vector<std::string> load_history_texts(const std::vector<std::string>& texts,
                                            const std::vector<std::string>& case_groups);

/// Where FILE starts in a load history text "[GROUP=]csv:FILE" (split as
/// load_history_texts splits it); std::string::npos for other histories.
std::size_t load_history_file_start(const std::string& text);

}  // namespace geobem::cq_stage

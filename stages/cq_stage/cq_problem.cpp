#include "stages/cq_stage/cq_problem.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <stdexcept>

#include "gpu/core/input_error.hpp"
#include "mesh/io/number_text.hpp"
#include "mesh/loads/load_history_text.hpp"
#include "mesh/loads/pressure_load.hpp"
#include "mesh/loads/traction_load.hpp"
#include "mesh/surface/mesh_checks.hpp"

namespace geobem::cq_stage {

bem::SurfaceView checked_bem_surface(const surface::SurfaceMesh& mesh, const std::string& source) {
  // An open or non-manifold mesh has no enclosed volumes: it is taken as
  // interior here and reported by the full check below.
  std::optional<surface::SolidDomain> domain = surface::SolidDomain::interior;
  try {
    domain = surface::solid_domain_of(mesh);
  } catch (const std::runtime_error&) {
  }
  if (!domain)
    throw std::runtime_error(source + ": its outermost closed surfaces enclose volumes of both signs, so it "
                             "describes neither a bounded body nor cavities in an unbounded solid (orient it "
                             "with geobem-mesh --domain interior|exterior)");
  surface::require_valid_surface_mesh(mesh, source, surface::default_degenerate_tolerance, *domain);
  bem::SurfaceView view = bem_surface(mesh);
  view.unbounded_solid = *domain == surface::SolidDomain::exterior;
  return view;
}

std::vector<bem::GroupCondition> parse_conditions(const ConditionTexts& texts,
                                                  const std::vector<std::string>& group_names) {
  auto require_group = [&](const std::string& option, const std::string& text, const std::string& group) {
    if (group_names.empty() || std::find(group_names.begin(), group_names.end(), group) != group_names.end()) return;
    throw InputError::usage("--" + option + " '" + text + "': the mesh has no group '" + group + "' (its groups: " +
                            join(group_names, ',') + ")");
  };
  std::vector<bem::GroupCondition> conditions;
  for (const auto& list : texts.fixed)
    for (const auto& name : split(list, ',')) {
      require_group("fixed", list, name);
      conditions.push_back({name, true, {0.0, 0.0, 0.0}});
    }
  for (const auto& list : texts.free)
    for (const auto& name : split(list, ',')) {
      require_group("free", list, name);
      conditions.push_back({name, false, {0.0, 0.0, 0.0}});
    }
  // The loaded groups: a traction and a pressure on one group make one
  // condition; each is given once per group.
  std::vector<bem::GroupCondition> loaded;
  std::vector<std::set<std::string>> given;  // the options that loaded each group
  auto loaded_condition = [&](const std::string& option, const std::string& text,
                              const std::string& group) -> bem::GroupCondition& {
    require_group(option, text, group);
    std::size_t k = 0;
    while (k < loaded.size() && loaded[k].group != group) ++k;
    if (k == loaded.size()) {
      loaded.push_back({group, false, {0.0, 0.0, 0.0}});
      given.emplace_back();
    }
    if (!given[k].insert(option).second)
      throw InputError::usage("--" + option + " '" + text + "': group '" + group + "' has a " + option + " already");
    return loaded[k];
  };
  for (const auto& text : texts.traction) {
    const loads::TractionLoad load = loads::parse_traction_load(text);
    loaded_condition("traction", text, load.group).traction = load.traction;
  }
  for (const auto& text : texts.pressure) {
    const loads::PressureLoad load =
        with_origin(InputKind::usage, "--pressure '" + text + "'", [&] { return loads::parse_pressure_load(text); });
    loaded_condition("pressure", text, load.group).pressure = load.pressure;
  }
  conditions.insert(conditions.end(), loaded.begin(), loaded.end());
  return conditions;
}

bem::Material checked_material(double young_modulus, double poisson_ratio, double density) {
  const bem::Material material = with_origin(
      InputKind::usage, "", [&] { return bem::material_from_young(young_modulus, poisson_ratio, density); });
  // Finite inputs can still overflow: lambda = E nu / ((1 + nu)(1 - 2 nu))
  // at E = 1e308 and nu near 1/2, c_P = sqrt((lambda + 2 mu) / rho) at rho = 1e-320.
  if (!std::isfinite(material.lame_lambda) || !std::isfinite(material.shear_modulus) ||
      !std::isfinite(material.p_wave_speed) || !(material.s_wave_speed > 0.0 && std::isfinite(material.s_wave_speed)))
    throw InputError::usage("E = " + shortest_text(young_modulus) + " Pa, nu = " + shortest_text(poisson_ratio) +
                            ", rho = " + shortest_text(density) + " kg/m^3 give lambda = " +
                            shortest_text(material.lame_lambda) + " Pa, c_P = " + shortest_text(material.p_wave_speed) +
                            " m/s, c_S = " + shortest_text(material.s_wave_speed) +
                            " m/s: outside the range of double precision");
  return material;
}

std::vector<double> load_history_values(const std::string& text, const bem::CqSettings& settings) {
  // Named as the option a user typed.
  return with_origin(InputKind::usage, "--load-history '" + text + "'",
                     [&] { return bem::load_history_samples(loads::parse_load_history(text), settings); });
}

std::vector<std::string> load_history_texts(const std::vector<std::string>& texts,
                                            const std::vector<std::string>& case_groups) {
  std::string common = "heaviside";
  std::vector<std::string> own(case_groups.size());
  bool common_given = false;
  for (const auto& text : texts) {
    const auto equals = text.find('=');
    if (equals == std::string::npos) {
      if (common_given)
        throw InputError::usage("--load-history '" + text + "': a history for every case is given twice");
      common = text;
      common_given = true;
      continue;
    }
    const std::string group = text.substr(0, equals);
    const auto it = std::find(case_groups.begin(), case_groups.end(), group);
    if (it == case_groups.end())
      throw InputError::usage("--load-history '" + text + "': group '" + group +
                              "' is not a load case (the load cases: " + join(case_groups, ',') + ")");
    std::string& slot = own[it - case_groups.begin()];
    if (!slot.empty()) throw InputError::usage("--load-history '" + text + "': group '" + group + "' given twice");
    slot = text.substr(equals + 1);
  }
  for (auto& slot : own)
    if (slot.empty()) slot = common;
  return own;
}

std::size_t load_history_file_start(const std::string& text) {
  const auto equals = text.find('=');
  const std::size_t history = equals == std::string::npos ? 0 : equals + 1;
  const std::string prefix = "csv:";
  return text.compare(history, prefix.size(), prefix) == 0 ? history + prefix.size() : std::string::npos;
}

}  // namespace geobem::cq_stage

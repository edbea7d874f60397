#include "stages/magnetic/magnetic_model.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpu/core/input_error.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/prisms/read_prism_model.hpp"
#include "mesh/prisms/vtk_model.hpp"

namespace geobem::magnetic_stage {
namespace {

bool has_column(const CsvTable& table, const std::string& name) {
  for (const auto& column : table.columns)
    if (column == name) return true;
  return false;
}

std::array<double, 3> uniform_value(const UniformMagnetization& uniform, const std::string& where) {
  if (uniform.magnetization) return *uniform.magnetization;
  if (uniform.susceptibility)
    return magnetic::induced_magnetization(*uniform.susceptibility, inducing_field(uniform, where));
  throw std::runtime_error(where +
                           ": no magnetization_e/_n/_u or susceptibility columns; give --susceptibility or "
                           "--magnetization");
}

/// The model's prisms, their cell values read as susceptibilities, magnetized
/// by the field; zero susceptibilities dropped.
MagnetizedPrisms induced(const prisms::PrismModel& read, const UniformMagnetization& uniform) {
  MagnetizedPrisms out;
  out.own_values = "susceptibilities";
  out.induced = true;
  const magnetic::InducingField field = inducing_field(uniform, read.source);
  for (const auto& p : read.prisms) {
    if (p.density == 0.0) continue;  // the model's values are susceptibilities here
    out.largest_susceptibility = std::max(out.largest_susceptibility, std::abs(p.density));
    const auto m = magnetic::induced_magnetization(p.density, field);
    out.prisms.push_back({p.west, p.east, p.south, p.north, p.bottom, p.top, m[0], m[1], m[2]});
  }
  return out;
}

}  // namespace

magnetic::InducingField inducing_field(const UniformMagnetization& uniform, const std::string& what) {
  std::string missing;
  const std::pair<const char*, bool> parts[] = {{"--field-intensity", uniform.field_intensity.has_value()},
                                                {"--inclination", uniform.inclination.has_value()},
                                                {"--declination", uniform.declination.has_value()}};
  for (const auto& [name, given] : parts)
    if (!given) missing += std::string(missing.empty() ? "" : ", ") + name;
  if (!missing.empty())
    throw InputError::usage("the susceptibilities of " + what + " are magnetized by the main field at the site: give " +
                            missing + " (nT, degrees; e.g. from the IGRF), there is no default field");
  return {*uniform.field_intensity, *uniform.inclination, *uniform.declination};
}

MagnetizedPrisms read_magnetized_csv(const std::string& path, const UniformMagnetization& uniform) {
  const CsvTable table = read_csv_table(path);
  require_columns(table, {"west", "east", "south", "north", "bottom", "top"});
  const bool own = has_column(table, "magnetization_e") || has_column(table, "magnetization_n") ||
                   has_column(table, "magnetization_u");
  if (own) require_columns(table, {"magnetization_e", "magnetization_n", "magnetization_u"});
  const bool chi = !own && has_column(table, "susceptibility");
  MagnetizedPrisms out;
  out.own_values = own ? "magnetization columns" : chi ? "susceptibility column" : "";
  out.induced = chi || (!own && !uniform.magnetization);
  const std::array<double, 3> fixed = own || chi ? std::array<double, 3>{} : uniform_value(uniform, path);
  if (!own && !chi && uniform.susceptibility) out.largest_susceptibility = std::abs(*uniform.susceptibility);
  const magnetic::InducingField field = chi ? inducing_field(uniform, path) : magnetic::InducingField{};
  const std::size_t w = table.column("west"), e = table.column("east"), s = table.column("south"),
                    n = table.column("north"), b = table.column("bottom"), t = table.column("top");
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const auto& row = table.rows[r];
    std::array<double, 3> m = fixed;
    if (own) {
      m = {row[table.column("magnetization_e")], row[table.column("magnetization_n")],
           row[table.column("magnetization_u")]};
    } else if (chi) {
      const double value = row[table.column("susceptibility")];
      out.largest_susceptibility = std::max(out.largest_susceptibility, std::abs(value));
      m = magnetic::induced_magnetization(value, field);
    }
    if (!(row[w] < row[e]) || !(row[s] < row[n]) || !(row[b] < row[t]))
      throw std::runtime_error(table.where(r) + ": not a box (needs west < east, south < north, bottom < top)");
    if (m[0] == 0.0 && m[1] == 0.0 && m[2] == 0.0) continue;
    out.prisms.push_back({row[w], row[e], row[s], row[n], row[b], row[t], m[0], m[1], m[2]});
  }
  return out;
}

MagnetizedPrisms induced_prisms(const std::string& mesh, const std::string& model,
                                const UniformMagnetization& uniform) {
  return induced(prisms::read_prism_model(mesh, model), uniform);
}

MagnetizedPrisms induced_vtk_prisms(const std::string& path, const UniformMagnetization& uniform) {
  return induced(prisms::read_vtk_model(path, "susceptibility"), uniform);
}

magnetic::MagneticLayer magnetized_layer(const terrain::LayerModel& model, const UniformMagnetization& uniform) {
  magnetic::MagneticLayer layer;
  layer.layer = model.layer;
  layer.magnetization_above = uniform_value(uniform, "the prism layer");
  if (uniform.susceptibility_below)
    layer.magnetization_below =
        magnetic::induced_magnetization(*uniform.susceptibility_below, inducing_field(uniform, "the prism layer"));
  return layer;
}

}  // namespace geobem::magnetic_stage

#include "stages/magnetic/magnetic_model.hpp"

#include <cmath>
#include <stdexcept>

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
  if (uniform.susceptibility) return magnetic::induced_magnetization(*uniform.susceptibility, uniform.field);
  throw std::runtime_error(where + ": no magnetization_e/_n/_u or susceptibility columns; give --susceptibility or "
                                   "--magnetization");
}

/// The model's prisms, their cell values read as susceptibilities, magnetized
/// by the field; zero susceptibilities dropped.
std::vector<magnetic::MagnetizedPrism> induced(const prisms::PrismModel& read, const magnetic::InducingField& field) {
  std::vector<magnetic::MagnetizedPrism> out;
  for (const auto& p : read.prisms) {
    if (p.density == 0.0) continue;  // the model's values are susceptibilities here
    const auto m = magnetic::induced_magnetization(p.density, field);
    out.push_back({p.west, p.east, p.south, p.north, p.bottom, p.top, m[0], m[1], m[2]});
  }
  return out;
}

}  // namespace

std::vector<magnetic::MagnetizedPrism> read_magnetized_csv(const std::string& path,
                                                           const UniformMagnetization& uniform) {
  const CsvTable table = read_csv_table(path);
  require_columns(table, {"west", "east", "south", "north", "bottom", "top"});
  const bool own = has_column(table, "magnetization_e") || has_column(table, "magnetization_n") ||
                   has_column(table, "magnetization_u");
  if (own) require_columns(table, {"magnetization_e", "magnetization_n", "magnetization_u"});
  const bool chi = !own && has_column(table, "susceptibility");
  const std::array<double, 3> fixed = own || chi ? std::array<double, 3>{} : uniform_value(uniform, path);
  const std::size_t w = table.column("west"), e = table.column("east"), s = table.column("south"),
                    n = table.column("north"), b = table.column("bottom"), t = table.column("top");
  std::vector<magnetic::MagnetizedPrism> prisms;
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    const auto& row = table.rows[r];
    std::array<double, 3> m = fixed;
    if (own) {
      m = {row[table.column("magnetization_e")], row[table.column("magnetization_n")],
           row[table.column("magnetization_u")]};
    } else if (chi) {
      m = magnetic::induced_magnetization(row[table.column("susceptibility")], uniform.field);
    }
    if (!(row[w] < row[e]) || !(row[s] < row[n]) || !(row[b] < row[t]))
      throw std::runtime_error(table.where(r) + ": not a box (needs west < east, south < north, bottom < top)");
    if (m[0] == 0.0 && m[1] == 0.0 && m[2] == 0.0) continue;
    prisms.push_back({row[w], row[e], row[s], row[n], row[b], row[t], m[0], m[1], m[2]});
  }
  return prisms;
}

std::vector<magnetic::MagnetizedPrism> induced_prisms(const std::string& mesh, const std::string& model,
                                                      const magnetic::InducingField& field) {
  return induced(prisms::read_prism_model(mesh, model), field);
}

std::vector<magnetic::MagnetizedPrism> induced_vtk_prisms(const std::string& path,
                                                          const magnetic::InducingField& field) {
  return induced(prisms::read_vtk_model(path, "susceptibility"), field);
}

magnetic::MagneticLayer magnetized_layer(const terrain::LayerModel& model, const UniformMagnetization& uniform) {
  magnetic::MagneticLayer layer;
  layer.layer = model.layer;
  layer.magnetization_above = uniform_value(uniform, "prism layer");
  if (uniform.susceptibility_below)
    layer.magnetization_below = magnetic::induced_magnetization(*uniform.susceptibility_below, uniform.field);
  return layer;
}

}  // namespace geobem::magnetic_stage

// geobem-halfspace radii|displacement: the two ends of the half-space
// disk-load workflow around `geobem-integrate longman --family halfspace-disk`.
//   radii:        station grid -> OUT/radii.csv (columns a,r: one row per
//                 distinct station distance from the disk's centre)
//   displacement: the integrals CSV of those rows -> OUT/displacement.vts and
//                 OUT/displacement.csv with u_z on the grid (and the closed form).
// Both steps read the same options (one config file). Parse -> read -> call
// the library (gpu/transform/halfspace_load, mesh/prisms stations) -> write
// the output set (docs/stage_contract.md).
#include <algorithm>
#include <cmath>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/core/atomic_file.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/integration_status.hpp"
#include "gpu/transform/halfspace_load.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/number_text.hpp"
#include "mesh/io/output_set.hpp"
#include "mesh/prisms/gravity_output.hpp"
#include "mesh/prisms/stations.hpp"
#include "stages/cli/number_list.hpp"
#include "stages/cli/stage_options.hpp"

namespace po = boost::program_options;
namespace tf = geobem::transform;
using geobem::InputError;
using geobem::prisms::Station;
using geobem::prisms::StationGrid;

namespace {

struct HalfspaceOptions {
  std::string out;
  std::optional<std::string> integrals;
  double disk_radius = 0, pressure = 0, young_modulus = 0, poisson_ratio = 0;
  double disk_easting = 0, disk_northing = 0;
  double grid_west = 0, grid_east = 0, grid_south = 0, grid_north = 0;
  std::string grid_shape;
};

void require_positive(double value, const char* name) {
  if (!std::isfinite(value) || value <= 0) {
    std::ostringstream message;
    message << "--" << name << " must be finite and > 0, got " << value;
    throw InputError::usage(message.str());
  }
}

/// The command line of both steps, bound to `o`.
void declare_options(geobem::cli::StageOptions& command, HalfspaceOptions& o) {
  command.add()
    ("integrals", geobem::cli::optional_value(&o.integrals),
     "displacement: the integrals CSV of geobem-integrate longman (columns a,r,value,error,status)")
    ("disk-radius", po::value(&o.disk_radius)->required(), "radius a of the loaded disk (m)")
    ("pressure", po::value(&o.pressure)->required(), "uniform pressure p on the disk (Pa)")
    ("young-modulus", po::value(&o.young_modulus)->required(), "Young's modulus E of the half-space (Pa)")
    ("poisson-ratio", po::value(&o.poisson_ratio)->required(), "Poisson's ratio nu of the half-space (-1 < nu < 0.5)")
    ("disk-easting", po::value(&o.disk_easting)->default_value(o.disk_easting), "easting of the disk's centre (m)")
    ("disk-northing", po::value(&o.disk_northing)->default_value(o.disk_northing), "northing of the disk's centre (m)")
    ("grid-west", po::value(&o.grid_west)->required(), "station grid west edge (m)")
    ("grid-east", po::value(&o.grid_east)->required(), "station grid east edge (m)")
    ("grid-south", po::value(&o.grid_south)->required(), "station grid south edge (m)")
    ("grid-north", po::value(&o.grid_north)->required(), "station grid north edge (m)")
    ("grid-shape", po::value(&o.grid_shape)->required(), "stations NE,NN (west to east, south to north)");
  command.add_out_folder(&o.out, "radii.csv, or displacement.vts and displacement.csv; and the options record");
  command.mark_path("integrals");
}

/// Refuses option values out of their ranges, before any work.
void check_options(const HalfspaceOptions& o) {
  require_positive(o.disk_radius, "disk-radius");
  require_positive(o.pressure, "pressure");
  require_positive(o.young_modulus, "young-modulus");
  if (!(o.poisson_ratio > -1.0 && o.poisson_ratio < 0.5))
    throw InputError::usage("--poisson-ratio must be in (-1, 0.5), got " + std::to_string(o.poisson_ratio));
  if (!std::isfinite(o.disk_easting) || !std::isfinite(o.disk_northing))
    throw InputError::usage("--disk-easting/--disk-northing must be finite");
}

StationGrid station_grid(const HalfspaceOptions& o) {
  const auto shape = geobem::cli::parse_count_list("grid-shape", o.grid_shape, 2, "NE,NN", 1e8);
  if (static_cast<double>(shape[0]) * static_cast<double>(shape[1]) > 1e8)
    throw InputError::usage("--grid-shape '" + o.grid_shape + "': more than 1e8 stations");
  const StationGrid grid{o.grid_west, o.grid_east, o.grid_south, o.grid_north, shape[0], shape[1], 0.0};
  geobem::prisms::check_station_grid(grid);
  return grid;
}

/// The integration status word of row `row` of the integrals table; throws
/// naming the file and line for a word that is not one.
geobem::IntegrationStatus parse_status(const geobem::CsvTable& table, std::size_t row) {
  const std::string& word = table.text[row][0];
  for (int code = 0; code <= static_cast<int>(geobem::IntegrationStatus::NonFinite); ++code)
    if (geobem::to_string(static_cast<geobem::IntegrationStatus>(code)) == word)
      return static_cast<geobem::IntegrationStatus>(code);
  throw std::runtime_error(table.where(row) + ": status '" + word + "' is not an integration status word");
}

/// Distance of each station from the disk's centre (m), in station order; 0
/// for a station on the centre to rounding (tf::station_radius).
std::vector<double> station_radii(const std::vector<Station>& stations, const HalfspaceOptions& o) {
  std::vector<double> radii;
  radii.reserve(stations.size());
  for (const auto& s : stations) radii.push_back(tf::station_radius(s.easting - o.disk_easting, s.northing - o.disk_northing, o.disk_radius));
  return radii;
}

int run_radii(const HalfspaceOptions& o, const geobem::cli::StageOptions& command) {
  check_options(o);
  const StationGrid grid = station_grid(o);
  geobem::OutputSet outputs(o.out, "geobem-halfspace radii");
  const auto radii = tf::distinct_radii(station_radii(geobem::prisms::grid_stations(grid), o));
  geobem::write_text_file_atomically(outputs.path("radii.csv"), [&](std::ostream& out) {
    out << "a,r\n";
    for (const double r : radii) out << geobem::shortest(o.disk_radius) << "," << geobem::shortest(r) << "\n";
  });
  outputs.write_record(command.record(outputs.destination()));
  outputs.commit();
  if (!command.quiet())
    std::cerr << command.program() << ": " << radii.size() << " distinct radii -> "
              << (outputs.destination() / "radii.csv").string() << "\n";
  return 0;
}

int run_displacement(const HalfspaceOptions& o, const geobem::cli::StageOptions& command) {
  check_options(o);
  if (!o.integrals) throw InputError::usage("--integrals FILE.csv (the integrals of the radii) is required");
  const StationGrid grid = station_grid(o);
  geobem::OutputSet outputs(o.out, "geobem-halfspace displacement");

  const geobem::CsvTable table = geobem::read_csv_table(*o.integrals, /*allow_non_finite=*/true, {"status"});
  geobem::require_columns(table, {"a", "r", "value", "error", "status"});
  const std::size_t col_a = table.column("a"), col_r = table.column("r"), col_value = table.column("value"),
                    col_error = table.column("error");
  std::vector<double> table_radii;
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    if (table.rows[i][col_a] != o.disk_radius) {
      std::ostringstream message;
      message << table.where(i) << ": the integrals are for a disk of radius a = "
              << geobem::shortest(table.rows[i][col_a]) << " m, but this step's --disk-radius is "
              << geobem::shortest(o.disk_radius) << " m (from "
              << command.origin("disk-radius")
              << "): the radii step ran with another disk than this one; give both steps the same --disk-radius "
                 "and grid (with run.sh: --set radii,displacement:disk-radius=A), or rerun radii and integrate";
      throw std::runtime_error(message.str());
    }
    table_radii.push_back(table.rows[i][col_r]);
  }
  const tf::RadiusLookup lookup(table_radii);

  const double scale = tf::halfspace_disk_scale(o.pressure, o.disk_radius, o.young_modulus, o.poisson_ratio);
  const std::vector<Station> stations = geobem::prisms::grid_stations(grid);
  const std::vector<double> radii = station_radii(stations, o);
  std::vector<geobem::prisms::GravityColumn> columns = {{"r", "m", {}},
                                                        {"u_z", "m", {}},
                                                        {"u_z_closed_form", "m", {}},
                                                        {"u_z_error_estimate", "m", {}},
                                                        {"status", "1", {}}};
  std::vector<geobem::IntegrationStatus> statuses;
  std::size_t unconverged = 0;
  // Over the stations whose integral missed its tolerance: the largest error
  // estimate and the largest difference from the closed form (m).
  double worst_error = 0.0, worst_difference = 0.0;
  for (const double r : radii) {
    const auto row_index = lookup.find(r);
    if (!row_index) {
      std::ostringstream message;
      message << *o.integrals << ": no row for station radius r = " << geobem::shortest(r)
              << " m of this step's grid and disk (--grid-* and --disk-easting/--disk-northing, from "
              << command.origin("grid-shape")
              << "): the radii step ran with another grid or disk centre than this one; give both steps the same "
                 "ones (with run.sh: --set radii,displacement:KEY=VALUE), or rerun radii and integrate";
      throw std::runtime_error(message.str());
    }
    const auto& row = table.rows[*row_index];
    const geobem::IntegrationStatus status = parse_status(table, *row_index);
    const double closed_form = scale * tf::halfspace_disk_closed_form(o.disk_radius, r);
    if (status != geobem::IntegrationStatus::Converged) {
      ++unconverged;
      worst_error = std::max(worst_error, std::fabs(scale * row[col_error]));
      worst_difference = std::max(worst_difference, std::fabs(scale * row[col_value] - closed_form));
    }
    statuses.push_back(status);
    const double values[] = {r, scale * row[col_value], closed_form, scale * row[col_error],
                             static_cast<double>(status)};
    for (std::size_t c = 0; c < columns.size(); ++c) columns[c].values.push_back(values[c]);
  }
  geobem::prisms::write_gravity_vts(outputs.path("displacement.vts"), stations, {grid.shape_e, grid.shape_n},
                                    columns);
  // The CSV says the status in words; the .vts holds its code (VTK arrays are numbers).
  geobem::write_text_file_atomically(outputs.path("displacement.csv"), [&](std::ostream& out) {
    out << "easting,northing,upward,r,u_z,u_z_closed_form,u_z_error_estimate,status\n";
    for (std::size_t s = 0; s < stations.size(); ++s) {
      out << geobem::shortest(stations[s].easting) << "," << geobem::shortest(stations[s].northing) << ","
          << geobem::shortest(stations[s].upward);
      for (std::size_t c = 0; c + 1 < columns.size(); ++c) out << "," << geobem::shortest(columns[c].values[s]);
      out << "," << geobem::to_string(statuses[s]) << "\n";
    }
  });
  outputs.write_record(command.record(outputs.destination()));
  outputs.commit();
  if (!command.quiet())
    std::cerr << command.program() << ": " << stations.size() << " stations -> " << outputs.destination().string()
              << " (displacement.vts, displacement.csv)\n";
  if (unconverged)
    std::cerr << command.program() << ": warning: " << unconverged
              << " stations use integrals that did not meet their tolerance (largest error estimate " << worst_error
              << " m, largest difference from the closed form " << worst_difference << " m; status column)\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using geobem::cli::options_subcommand;
  return geobem::cli::run_subcommand(
      "geobem-halfspace",
      {{"radii", options_subcommand("the distinct station radii of the grid (the rows to integrate)",
                                    "Half-space under a uniform disk pressure: the distinct station radii.",
                                    declare_options, run_radii)},
       {"displacement",
        options_subcommand("u_z on the station grid from the integrals, with the closed form beside it",
                           "Half-space under a uniform disk pressure: u_z on the station grid.", declare_options,
                           run_displacement)}},
      argc, argv);
}

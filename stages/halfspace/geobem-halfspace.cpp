// geobem-halfspace radii|displacement: the two ends of the half-space
// disk-load workflow around `geobem-integrate longman --family halfspace-disk`.
//   radii:        station grid -> RADII CSV (columns a,r: one row per distinct
//                 station distance from the disk's centre)
//   displacement: the integrals CSV of those rows -> displacement.vts and
//                 displacement.csv with u_z on the grid (and the closed form).
// Both steps read the same options (one config file). Inputs are checked
// before anything is written; outputs are written atomically.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <vtkDoubleArray.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStructuredGrid.h>

#include "gpu/core/integration_status.hpp"
#include "gpu/transform/halfspace_load.hpp"
#include "mesh/io/atomic_file.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/vtk_output.hpp"
#include "stages/cli/stage_options.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;

namespace {

struct Grid {
  double west, east, south, north, centre_e, centre_n;
  std::size_t shape_e, shape_n;
  double easting(std::size_t i) const { return shape_e == 1 ? west : west + (east - west) * i / (shape_e - 1); }
  double northing(std::size_t j) const { return shape_n == 1 ? south : south + (north - south) * j / (shape_n - 1); }
  double radius(std::size_t i, std::size_t j) const { return std::hypot(easting(i) - centre_e, northing(j) - centre_n); }
};

Grid grid_from(const po::variables_map& vm) {
  Grid grid{vm["grid-west"].as<double>(), vm["grid-east"].as<double>(), vm["grid-south"].as<double>(),
            vm["grid-north"].as<double>(), vm["disk-easting"].as<double>(), vm["disk-northing"].as<double>(), 0, 0};
  std::string shape = vm["grid-shape"].as<std::string>();
  std::replace(shape.begin(), shape.end(), ',', ' ');
  std::istringstream stream(shape);
  double e = 0, n = 0;
  std::string rest;
  if (!(stream >> e >> n) || (stream >> rest) || e < 1 || n < 1 || e != std::floor(e) || n != std::floor(n) || e * n > 1e8)
    throw po::error("--grid-shape '" + vm["grid-shape"].as<std::string>() + "': expected two positive integers NE,NN");
  grid.shape_e = static_cast<std::size_t>(e);
  grid.shape_n = static_cast<std::size_t>(n);
  for (const char* name : {"grid-west", "grid-east", "grid-south", "grid-north", "disk-easting", "disk-northing"})
    if (!std::isfinite(vm[name].as<double>())) throw po::error(std::string("--") + name + " is not finite");
  if (grid.east < grid.west || grid.north < grid.south) throw po::error("--grid-east/--grid-north must not be below west/south");
  return grid;
}

void require_positive(const po::variables_map& vm, const char* name) {
  const double value = vm[name].as<double>();
  if (!std::isfinite(value) || value <= 0) {
    std::ostringstream message;
    message << "--" << name << " must be finite and > 0, got " << value;
    throw po::error(message.str());
  }
}

/// Distinct station radii, ascending (equal to rounding are merged).
std::vector<double> distinct_radii(const Grid& grid) {
  std::vector<double> radii;
  radii.reserve(grid.shape_e * grid.shape_n);
  for (std::size_t j = 0; j < grid.shape_n; ++j)
    for (std::size_t i = 0; i < grid.shape_e; ++i) radii.push_back(grid.radius(i, j));
  std::sort(radii.begin(), radii.end());
  std::vector<double> distinct;
  for (const double r : radii)
    if (distinct.empty() || r - distinct.back() > 1e-12 * r) distinct.push_back(r);
  return distinct;
}

int write_radii(const po::variables_map& vm, const Grid& grid, double disk_radius) {
  const auto radii = distinct_radii(grid);
  const fs::path path = fs::path(vm["out"].as<std::string>()) / "radii.csv";
  geobem::write_text_file_atomically(path, [&](std::ostream& out) {
    out << "# geobem-halfspace radii: distinct station distances from the disk's centre (m)\na,r\n"
        << std::setprecision(17);
    for (const double r : radii) out << disk_radius << "," << r << "\n";
  });
  if (!vm["quiet"].as<bool>()) std::cerr << "geobem-halfspace: " << radii.size() << " distinct radii -> " << path.string() << "\n";
  return 0;
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

int write_displacement(const po::variables_map& vm, const Grid& grid, double disk_radius) {
  const fs::path out = vm["out"].as<std::string>();
  const std::string integrals_path =
      vm.count("integrals") ? vm["integrals"].as<std::string>() : (out / "integrals.csv").string();
  const geobem::CsvTable table = geobem::read_csv_table(integrals_path, /*allow_non_finite=*/true, {"status"});
  geobem::require_columns(table, {"a", "r", "value", "error", "status"});
  const std::size_t col_a = table.column("a"), col_r = table.column("r"), col_value = table.column("value"),
                    col_error = table.column("error");
  std::vector<std::size_t> order(table.rows.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    order[i] = i;
    if (table.rows[i][col_a] != disk_radius) {
      std::ostringstream message;
      message << table.where(i) << ": a = " << table.rows[i][col_a] << " differs from --disk-radius " << disk_radius
              << " (stale integrals: rerun the radii and integrate stages)";
      throw std::runtime_error(message.str());
    }
  }
  std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return table.rows[x][col_r] < table.rows[y][col_r]; });
  auto row_for = [&](double r) {
    const auto found = std::lower_bound(order.begin(), order.end(), r * (1 - 1e-12),
                                        [&](std::size_t row, double value) { return table.rows[row][col_r] < value; });
    if (found == order.end() || std::fabs(table.rows[*found][col_r] - r) > 1e-12 * std::max(r, 1.0)) {
      std::ostringstream message;
      message << integrals_path << ": no row for station radius r = " << std::setprecision(17) << r
              << " (stale integrals: rerun the radii and integrate stages)";
      throw std::runtime_error(message.str());
    }
    return *found;
  };

  const double scale = geobem::transform::halfspace_disk_scale(vm["pressure"].as<double>(), disk_radius,
                                                               vm["young-modulus"].as<double>(),
                                                               vm["poisson-ratio"].as<double>());
  const std::size_t count = grid.shape_e * grid.shape_n;
  vtkNew<vtkPoints> points;
  points->SetDataTypeToDouble();
  vtkNew<vtkDoubleArray> u_z, closed_form, error;
  vtkNew<vtkIntArray> status;
  u_z->SetName("u_z");
  closed_form->SetName("u_z_closed_form");
  error->SetName("u_z_error_estimate");
  status->SetName("status");
  std::ostringstream csv;
  csv << "# geobem-halfspace displacement: u_z positive in the direction of the pressure (settlement), m\n"
      << "easting,northing,upward,r,u_z,u_z_closed_form,u_z_error_estimate,status\n"
      << std::setprecision(17);
  std::size_t unconverged = 0;
  double worst_error = 0.0;  // largest error estimate (m) of a station whose integral missed its tolerance
  for (std::size_t j = 0; j < grid.shape_n; ++j)
    for (std::size_t i = 0; i < grid.shape_e; ++i) {
      const double r = grid.radius(i, j);
      const std::size_t found = row_for(r);
      const auto& row = table.rows[found];
      const double value = scale * row[col_value];
      const double exact = scale * geobem::transform::halfspace_disk_closed_form(disk_radius, r);
      const double estimate = scale * row[col_error];
      const geobem::IntegrationStatus code = parse_status(table, found);
      if (code != geobem::IntegrationStatus::Converged) {
        ++unconverged;
        worst_error = std::max(worst_error, std::fabs(estimate));
      }
      points->InsertNextPoint(grid.easting(i), grid.northing(j), 0.0);
      u_z->InsertNextValue(value);
      closed_form->InsertNextValue(exact);
      error->InsertNextValue(estimate);
      status->InsertNextValue(static_cast<int>(code));
      csv << grid.easting(i) << "," << grid.northing(j) << ",0," << r << "," << value << "," << exact << ","
          << estimate << "," << geobem::to_string(code) << "\n";
    }
  vtkNew<vtkStructuredGrid> data;
  data->SetDimensions(static_cast<int>(grid.shape_e), static_cast<int>(grid.shape_n), 1);
  data->SetPoints(points);
  data->GetPointData()->AddArray(u_z);
  data->GetPointData()->AddArray(closed_form);
  data->GetPointData()->AddArray(error);
  data->GetPointData()->AddArray(status);
  data->GetPointData()->SetActiveScalars("u_z");
  geobem::add_units_field_data(data, {{"u_z", "m"}, {"u_z_closed_form", "m"}, {"u_z_error_estimate", "m"}, {"status", "1"}});
  geobem::write_vtk_xml(data, out / "displacement.vts");
  geobem::write_text_file_atomically(out / "displacement.csv", [&](std::ostream& stream) { stream << csv.str(); });
  if (!vm["quiet"].as<bool>()) {
    std::cerr << "geobem-halfspace: " << count << " stations -> " << (out / "displacement.vts").string() << ", "
              << (out / "displacement.csv").string() << "\n";
    if (unconverged)
      std::cerr << "geobem-halfspace: warning: " << unconverged
                << " stations use integrals that did not meet their tolerance (largest error estimate " << worst_error
                << " m)\n";
  }
  return 0;
}

int run(int argc, char** argv) {
  const std::string step = argc > 1 ? argv[1] : "";
  if (step != "radii" && step != "displacement") {
    const bool help = step == "--help" || step == "-h";
    (help ? std::cout : std::cerr) << (help || step.empty() ? "" : "geobem-halfspace: error: unknown step '" + step + "'\n")
                                   << "Usage: geobem-halfspace radii|displacement [options]   (STEP --help for options)\n";
    return help ? 0 : 2;
  }
  po::options_description options("Options");
  geobem::cli::add_common_options(options);
  options.add_options()("out", po::value<std::string>()->default_value("."), "output folder")(
      "integrals", po::value<std::string>(), "displacement: integrals CSV (default OUT/integrals.csv)")(
      "disk-radius", po::value<double>()->required(), "radius a of the loaded disk (m)")(
      "pressure", po::value<double>()->required(), "uniform pressure p on the disk (Pa)")(
      "young-modulus", po::value<double>()->required(), "Young's modulus E of the half-space (Pa)")(
      "poisson-ratio", po::value<double>()->required(), "Poisson's ratio nu of the half-space (-1 < nu < 0.5)")(
      "disk-easting", po::value<double>()->default_value(0.0), "easting of the disk's centre (m)")(
      "disk-northing", po::value<double>()->default_value(0.0), "northing of the disk's centre (m)")(
      "grid-west", po::value<double>()->required(), "station grid west edge (m)")(
      "grid-east", po::value<double>()->required(), "station grid east edge (m)")(
      "grid-south", po::value<double>()->required(), "station grid south edge (m)")(
      "grid-north", po::value<double>()->required(), "station grid north edge (m)")(
      "grid-shape", po::value<std::string>()->required(), "stations NE,NN (west to east, south to north)");
  const std::string program = "geobem-halfspace " + step;
  std::vector<const char*> arguments{program.c_str()};
  for (int i = 2; i < argc; ++i) arguments.push_back(argv[i]);
  return geobem::cli::run_stage(program, [&] {
    const auto parsed = geobem::cli::parse_stage_options(
        static_cast<int>(arguments.size()), arguments.data(), program,
        "Half-space under a uniform disk pressure: station radii (radii) or u_z on the grid (displacement).", options);
    if (!parsed) return 0;
    const po::variables_map& vm = *parsed;
    for (const char* name : {"disk-radius", "pressure", "young-modulus"}) require_positive(vm, name);
    const double nu = vm["poisson-ratio"].as<double>();
    if (!(nu > -1.0 && nu < 0.5)) throw po::error("--poisson-ratio must be in (-1, 0.5), got " + std::to_string(nu));
    const Grid grid = grid_from(vm);
    if (!fs::is_directory(vm["out"].as<std::string>()))
      throw std::runtime_error("--out " + vm["out"].as<std::string>() + ": not a folder");
    const double disk_radius = vm["disk-radius"].as<double>();
    return step == "radii" ? write_radii(vm, grid, disk_radius) : write_displacement(vm, grid, disk_radius);
  });
}

}  // namespace

int main(int argc, char** argv) { return run(argc, argv); }

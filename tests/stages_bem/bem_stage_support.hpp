#pragma once
// What the BEM stage tests share: a rod mesh on disk, the stage command
// lines, and the files read back.
#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/vtk_output.hpp"
#include "mesh/surface/box_generator.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "tests/support/test_files.hpp"

namespace geobem::test {

/// The stage executable: $GEOBEM_BIN/NAME when set (a bundle on the GPU
/// machine, where the build folder's path does not exist), else `built`.
inline std::string stage_exe(const char* name, const char* built) {
  const char* bin = std::getenv("GEOBEM_BIN");
  return bin ? std::string(bin) + "/" + name : built;
}

inline const std::string assemble_exe = stage_exe("geobem-assemble", GEOBEM_ASSEMBLE_EXE);
inline const std::string solve_exe = stage_exe("geobem-solve", GEOBEM_SOLVE_EXE);

constexpr double rod_young = 2.1e11, rod_density = 7850.0, rod_pressure = 1e6, rod_length = 3.0;
/// The rod's boundary conditions on the command line (and as GroupConditions below).
inline const std::string rod_conditions = " --fixed x_min --free y_min,y_max,z_min,z_max --traction x_max=1e6:1,0,0";

inline surface::SurfaceMesh rod_mesh(double element_size) {
  return surface::generate_box_surface({rod_length, 1.0, 1.0}, {0.0, 0.0, 0.0}, element_size);
}

inline bem::BemModel rod_model(double element_size) {
  return bem::make_bem_model(rod_mesh(element_size),
                             {{"x_min", true, {}}, {"x_max", false, {rod_pressure, 0, 0}}, {"y_min", false, {}},
                              {"y_max", false, {}}, {"z_min", false, {}}, {"z_max", false, {}}},
                             bem::material_from_young(rod_young, 0.0, rod_density));
}

/// Writes the rod mesh of element size h as scratch(name) (.vtu) and returns its path.
inline std::filesystem::path write_rod_mesh(const std::string& name, double element_size) {
  const auto path = scratch(name);
  surface::write_surface_vtu(rod_mesh(element_size), path);
  return path;
}

inline StageRun assemble(const std::filesystem::path& mesh, const std::filesystem::path& out,
                         const std::string& arguments) {
  return run_command(assemble_exe + " --quiet --mesh " + mesh.string() + " --out " + out.string() + rod_conditions +
                     " " + arguments);
}

inline StageRun solve(const std::filesystem::path& systems, const std::filesystem::path& out,
                      const std::string& arguments) {
  return run_command(solve_exe + " --quiet --manifest " + (systems / "manifest.ini").string() + " --out " +
                     out.string() + " " + arguments);
}

/// Point array `displacement` of a written time step (row-major, 3 per node).
inline std::vector<double> step_displacement(const std::filesystem::path& vtu) {
  const auto data = read_vtk_xml(vtu);
  auto* grid = vtkUnstructuredGrid::SafeDownCast(data);
  vtkDataArray* array = grid ? grid->GetPointData()->GetArray("displacement") : nullptr;
  std::vector<double> values;
  if (!array) return values;
  for (vtkIdType k = 0; k < array->GetNumberOfTuples(); ++k)
    for (int c = 0; c < 3; ++c) values.push_back(array->GetComponent(k, c));
  return values;
}

/// max |a − b| / max |b|.
inline double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0, scale = 0;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
    diff = std::max(diff, std::abs(a[k] - b[k]));
    scale = std::max(scale, std::abs(b[k]));
  }
  return a.size() == b.size() ? diff / scale : 1e300;
}

/// Column `name` of a CSV table.
inline std::vector<double> column(const CsvTable& table, const std::string& name) {
  const std::size_t c = table.column(name);
  std::vector<double> values;
  for (const auto& row : table.rows) values.push_back(row[c]);
  return values;
}

}  // namespace geobem::test

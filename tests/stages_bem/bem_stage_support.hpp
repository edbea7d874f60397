#pragma once
// What the BEM stage tests share: the rod (tests/bem/rod_case.hpp) on disk,
// the stage command lines, and the files read back.
#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkUnstructuredGrid.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "gpu/core/relative_difference.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/vtk_output.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "tests/bem/rod_case.hpp"
#include "tests/support/test_files.hpp"

namespace geobem::test {

/// The stage executable: $GEOBEM_BIN/NAME when set (a bundle on the GPU
/// machine, where the build folder's path does not exist), else `built`.
inline std::string stage_exe(const char* name, const char* built) {
  const char* bin = std::getenv("GEOBEM_BIN");
  return bin ? std::string(bin) + "/" + name : built;
}

inline const std::string laplace_exe = stage_exe("geobem-laplace", GEOBEM_LAPLACE_EXE);
inline const std::string time_exe = stage_exe("geobem-time", GEOBEM_TIME_EXE);

/// Writes the rod mesh of element size h as scratch(name) (.vtu) and returns its path.
inline std::filesystem::path write_rod_mesh(const std::string& name, double element_size) {
  const auto path = scratch(name);
  surface::write_surface_vtu(rod_mesh(element_size), path);
  return path;
}

inline StageRun laplace(const std::filesystem::path& mesh, const std::filesystem::path& out,
                        const std::string& arguments) {
  return run_command(laplace_exe + " --quiet --mesh " + mesh.string() + " --out " + out.string() + rod_conditions +
                     " " + arguments);
}

inline StageRun time_stage(const std::filesystem::path& laplace_out, const std::filesystem::path& out,
                           const std::string& arguments) {
  return run_command(time_exe + " --quiet --laplace " + laplace_out.string() + " --out " + out.string() + " " +
                     arguments);
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

/// Column `name` of a CSV table.
inline std::vector<double> column(const CsvTable& table, const std::string& name) {
  const std::size_t c = table.column(name);
  std::vector<double> values;
  for (const auto& row : table.rows) values.push_back(row[c]);
  return values;
}

}  // namespace geobem::test

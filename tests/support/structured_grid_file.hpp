#pragma once
// A .vts file as ParaView opens it, for the tests of the stages that write
// one (station grids, prism layers): its structured grid and point counts.
#include <array>
#include <filesystem>

#include <vtkDataObject.h>
#include <vtkSmartPointer.h>
#include <vtkStructuredGrid.h>

#include "mesh/io/vtk_output.hpp"

namespace geobem::test {

/// The file's data, its structured grid (null when the file holds none) and
/// the grid's point counts (nx, ny, nz; zeros without a grid).
struct StructuredGridFile {
  vtkSmartPointer<vtkDataObject> data;
  vtkStructuredGrid* grid = nullptr;
  std::array<int, 3> dims{0, 0, 0};
};

/// Reads `path` with VTK's XML reader (read_vtk_xml).
inline StructuredGridFile read_structured_grid(const std::filesystem::path& path) {
  StructuredGridFile file;
  file.data = read_vtk_xml(path);
  file.grid = vtkStructuredGrid::SafeDownCast(file.data);
  if (file.grid) file.grid->GetDimensions(file.dims.data());
  return file;
}

}  // namespace geobem::test

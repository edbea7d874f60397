#include "mesh/prisms/vtk_model.hpp"

#include <vtkCellData.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkIdList.h>
#include <vtkImageData.h>
#include <vtkMatrix3x3.h>
#include <vtkPoints.h>
#include <vtkRectilinearGrid.h>
#include <vtkUnstructuredGrid.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <unordered_map>
#include <stdexcept>

#include "mesh/io/vtk_output.hpp"

namespace geobem::prisms {

namespace {

vtkDataArray* density_array(vtkDataSet* data, const std::string& path, const std::string& name) {
  vtkDataArray* density = data->GetCellData()->GetArray(name.c_str());
  if (density && density->GetNumberOfComponents() == 1) return density;
  std::string names;
  for (int i = 0; i < data->GetCellData()->GetNumberOfArrays(); ++i) {
    const char* name = data->GetCellData()->GetArrayName(i);
    names += (names.empty() ? "" : ", ") + std::string(name ? name : "(unnamed)");
  }
  throw std::runtime_error(path + ": no one-component cell array '" + name + "' (cell arrays: " +
                           (names.empty() ? "none" : names) + ")");
}

std::vector<double> coordinates(vtkDataArray* array) {
  std::vector<double> values(static_cast<std::size_t>(array->GetNumberOfTuples()));
  for (vtkIdType i = 0; i < array->GetNumberOfTuples(); ++i) values[i] = array->GetComponent(i, 0);
  return values;
}

void fill_density(PrismGrid& grid, vtkDataArray* density, const std::string& path) {
  if (static_cast<std::size_t>(density->GetNumberOfTuples()) != grid.cell_count())
    throw std::runtime_error(path + ": '" + std::string(density->GetName()) + "' has " +
                             std::to_string(density->GetNumberOfTuples()) +
                             " values for " + std::to_string(grid.cell_count()) + " cells");
  require_grid_memory(grid.cell_count(), path + ": " + std::to_string(grid.cell_count()) + " cells");
  grid.density.resize(grid.cell_count());
  for (std::size_t i = 0; i < grid.cell_count(); ++i) grid.density[i] = density->GetComponent(i, 0);
}

PrismModel read_rectilinear(vtkRectilinearGrid* data, const std::string& path, const std::string& name) {
  PrismGrid grid;
  grid.easting_edges = coordinates(data->GetXCoordinates());
  grid.northing_edges = coordinates(data->GetYCoordinates());
  grid.upward_edges = coordinates(data->GetZCoordinates());
  fill_density(grid, density_array(data, path, name), path);
  check_grid(grid, path);
  return model_from_grid(std::move(grid), path);
}

PrismModel read_image(vtkImageData* data, const std::string& path, const std::string& name) {
  vtkMatrix3x3* direction = data->GetDirectionMatrix();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (direction->GetElement(i, j) != (i == j ? 1.0 : 0.0))
        throw std::runtime_error(path + ": rotated images (non-identity direction matrix) are not prism models");
  int extent[6];
  double origin[3], spacing[3];
  data->GetExtent(extent);
  data->GetOrigin(origin);
  data->GetSpacing(spacing);
  PrismGrid grid;
  std::vector<double>* axes[3] = {&grid.easting_edges, &grid.northing_edges, &grid.upward_edges};
  for (int a = 0; a < 3; ++a)
    for (int i = extent[2 * a]; i <= extent[2 * a + 1]; ++i) axes[a]->push_back(origin[a] + i * spacing[a]);
  fill_density(grid, density_array(data, path, name), path);
  check_grid(grid, path);
  return model_from_grid(std::move(grid), path);
}

PrismModel read_hexahedra(vtkUnstructuredGrid* data, const std::string& path, const std::string& name) {
  vtkDataArray* density = density_array(data, path, name);
  PrismModel model;
  model.source = path;
  model.prisms.reserve(static_cast<std::size_t>(data->GetNumberOfCells()));
  auto ids = vtkSmartPointer<vtkIdList>::New();
  const vtkIdType point_count = data->GetNumberOfPoints();
  for (vtkIdType cell = 0; cell < data->GetNumberOfCells(); ++cell) {
    const std::string where = path + ": cell " + std::to_string(cell);
    const int type = data->GetCellType(cell);
    if (type != VTK_HEXAHEDRON && type != VTK_VOXEL)
      throw std::runtime_error(where + ": cell type " + std::to_string(type) + " is not a hexahedron or voxel");
    data->GetCellPoints(cell, ids);
    if (ids->GetNumberOfIds() != 8)
      throw std::runtime_error(where + ": a hexahedron with " + std::to_string(ids->GetNumberOfIds()) +
                               " point ids (expected 8)");
    double corners[8][3];
    double bounds[6] = {HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
    for (vtkIdType k = 0; k < 8; ++k) {
      const vtkIdType id = ids->GetId(k);
      if (id < 0 || id >= point_count)
        throw std::runtime_error(where + ": point id " + std::to_string(id) + " of " + std::to_string(point_count) +
                                 " points");
      data->GetPoint(id, corners[k]);
      for (int a = 0; a < 3; ++a) {
        if (!std::isfinite(corners[k][a]))
          throw std::runtime_error(where + ": point " + std::to_string(id) + " has a non-finite coordinate");
        bounds[2 * a] = std::min(bounds[2 * a], corners[k][a]);
        bounds[2 * a + 1] = std::max(bounds[2 * a + 1], corners[k][a]);
      }
    }
    // Axis-aligned box: the 8 points are the 8 distinct corners of their
    // bounding box (8 ids naming fewer points, or a corner twice, is no box).
    const double tolerance = 1e-9 * ((bounds[1] - bounds[0]) + (bounds[3] - bounds[2]) + (bounds[5] - bounds[4]));
    unsigned corners_seen = 0;
    for (const auto& point : corners) {
      unsigned corner = 0;
      for (int a = 0; a < 3; ++a) {
        const bool low = std::abs(point[a] - bounds[2 * a]) <= tolerance;
        const bool high = std::abs(point[a] - bounds[2 * a + 1]) <= tolerance;
        if (!low && !high)
          throw std::runtime_error(where + ": not an axis-aligned box (a corner lies inside its bounds)");
        if (high && !low) corner |= 1u << a;
      }
      corners_seen |= 1u << corner;
    }
    if (corners_seen != 0xffu)
      throw std::runtime_error(where + ": its 8 points are not the 8 distinct corners of a box");
    const Prism prism{bounds[0], bounds[1], bounds[2], bounds[3], bounds[4], bounds[5], density->GetComponent(cell, 0)};
    check_prism(prism, where);
    model.prisms.push_back(prism);
  }
  return model;
}

}  // namespace

PrismModel read_vtk_model(const std::string& path, const std::string& cell_array) {
  const auto data = read_vtk_xml(path);
  if (auto* rectilinear = vtkRectilinearGrid::SafeDownCast(data))
    return read_rectilinear(rectilinear, path, cell_array);
  if (auto* image = vtkImageData::SafeDownCast(data)) return read_image(image, path, cell_array);
  if (auto* unstructured = vtkUnstructuredGrid::SafeDownCast(data))
    return read_hexahedra(unstructured, path, cell_array);
  throw std::runtime_error(path + ": a " + std::string(data->GetClassName()) +
                           " is not a prism model (use .vtr, .vti or a .vtu of hexahedra)");
}

namespace {

/// Ids of distinct points, in the order they are first seen; equal means
/// equal bit patterns (the corners prisms share are copies of one value).
class PointIndex {
 public:
  vtkIdType id(const std::array<double, 3>& point) {
    const auto [at, inserted] = ids_.emplace(point, static_cast<vtkIdType>(points_.size()));
    if (inserted) points_.push_back(point);
    return at->second;
  }
  vtkSmartPointer<vtkPoints> points() const {
    auto result = vtkSmartPointer<vtkPoints>::New();
    result->SetDataTypeToDouble();
    result->SetNumberOfPoints(static_cast<vtkIdType>(points_.size()));
    for (std::size_t i = 0; i < points_.size(); ++i) result->SetPoint(static_cast<vtkIdType>(i), points_[i].data());
    return result;
  }

 private:
  struct Hash {
    std::size_t operator()(const std::array<double, 3>& p) const {
      std::size_t seed = 0;
      for (double v : p) seed ^= std::hash<double>()(v) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
      return seed;
    }
  };
  std::unordered_map<std::array<double, 3>, vtkIdType, Hash> ids_;
  std::vector<std::array<double, 3>> points_;
};

}  // namespace

void write_prism_vtu(const std::filesystem::path& path, const std::vector<Prism>& prisms) {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->Allocate(static_cast<vtkIdType>(prisms.size()));
  auto density = vtkSmartPointer<vtkDoubleArray>::New();
  density->SetName("density");
  density->SetNumberOfValues(static_cast<vtkIdType>(prisms.size()));
  PointIndex index;
  for (std::size_t c = 0; c < prisms.size(); ++c) {
    const Prism& p = prisms[c];
    // VTK_HEXAHEDRON order: bottom face counter-clockwise seen from above, then the top face.
    const std::array<double, 3> corners[8] = {{p.west, p.south, p.bottom}, {p.east, p.south, p.bottom},
                                              {p.east, p.north, p.bottom}, {p.west, p.north, p.bottom},
                                              {p.west, p.south, p.top},    {p.east, p.south, p.top},
                                              {p.east, p.north, p.top},    {p.west, p.north, p.top}};
    vtkIdType ids[8];
    for (int k = 0; k < 8; ++k) ids[k] = index.id(corners[k]);
    grid->InsertNextCell(VTK_HEXAHEDRON, 8, ids);
    density->SetValue(static_cast<vtkIdType>(c), p.density);
  }
  grid->SetPoints(index.points());
  grid->GetCellData()->AddArray(density);
  add_units_field_data(grid, {{"density", "kg/m^3"}});
  write_vtk_xml(grid, path);
}

void write_grid_vtr(const std::filesystem::path& path, const PrismGrid& grid) {
  // Named arrays: an unnamed one is written under a name made from its
  // address, and two identical runs would differ.
  const auto coordinates = [](const std::vector<double>& edges, const char* name) {
    auto array = vtkSmartPointer<vtkDoubleArray>::New();
    array->SetName(name);
    array->SetNumberOfValues(static_cast<vtkIdType>(edges.size()));
    for (std::size_t i = 0; i < edges.size(); ++i) array->SetValue(static_cast<vtkIdType>(i), edges[i]);
    return array;
  };
  auto data = vtkSmartPointer<vtkRectilinearGrid>::New();
  data->SetDimensions(static_cast<int>(grid.easting_edges.size()), static_cast<int>(grid.northing_edges.size()),
                      static_cast<int>(grid.upward_edges.size()));
  data->SetXCoordinates(coordinates(grid.easting_edges, "easting"));
  data->SetYCoordinates(coordinates(grid.northing_edges, "northing"));
  data->SetZCoordinates(coordinates(grid.upward_edges, "upward"));
  // PrismGrid and VTK both order cells with easting fastest, then northing.
  auto density = vtkSmartPointer<vtkDoubleArray>::New();
  density->SetName("density");
  density->SetNumberOfValues(static_cast<vtkIdType>(grid.density.size()));
  for (std::size_t c = 0; c < grid.density.size(); ++c) density->SetValue(static_cast<vtkIdType>(c), grid.density[c]);
  data->GetCellData()->AddArray(density);
  add_units_field_data(data, {{"density", "kg/m^3"}});
  write_vtk_xml(data, path);
}

}  // namespace geobem::prisms

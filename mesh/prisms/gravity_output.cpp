#include "mesh/prisms/gravity_output.hpp"

#include <vtkCellType.h>
#include <vtkDoubleArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStructuredGrid.h>
#include <vtkUnstructuredGrid.h>

#include <climits>
#include <stdexcept>

#include "gpu/core/atomic_file.hpp"
#include "gpu/core/input_error.hpp"
#include "mesh/io/number_text.hpp"
#include "mesh/io/vtk_output.hpp"

namespace geobem::prisms {

namespace {
void check_lengths(std::size_t station_count, const std::vector<GravityColumn>& columns) {
  for (const auto& column : columns)
    if (column.values.size() != station_count)
      throw InputError("gravity output: field '" + column.name + "' has " +
                       std::to_string(column.values.size()) + " values for " +
                       std::to_string(station_count) + " stations");
}

vtkSmartPointer<vtkPoints> station_points(const std::vector<Station>& stations) {
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(static_cast<vtkIdType>(stations.size()));
  for (std::size_t s = 0; s < stations.size(); ++s)
    points->SetPoint(static_cast<vtkIdType>(s), stations[s].easting, stations[s].northing, stations[s].upward);
  return points;
}

void add_fields(vtkDataSet* data, const std::vector<GravityColumn>& columns) {
  std::vector<std::pair<std::string, std::string>> units;
  for (const auto& column : columns) {
    auto array = vtkSmartPointer<vtkDoubleArray>::New();
    array->SetName(column.name.c_str());
    array->SetNumberOfValues(static_cast<vtkIdType>(column.values.size()));
    for (std::size_t s = 0; s < column.values.size(); ++s) array->SetValue(static_cast<vtkIdType>(s), column.values[s]);
    data->GetPointData()->AddArray(array);
    units.emplace_back(column.name, column.unit);
  }
  units.emplace_back("coordinates", "m");
  add_units_field_data(data, units);
}
}  // namespace

void write_gravity_csv(const std::filesystem::path& path, const std::vector<Station>& stations,
                       const std::vector<GravityColumn>& columns) {
  check_lengths(stations.size(), columns);
  write_text_file_atomically(path, [&](std::ostream& out) {
    out << "easting,northing,upward";
    for (const auto& column : columns) out << ',' << column.name;
    out << '\n';
    for (std::size_t s = 0; s < stations.size(); ++s) {
      out << shortest(stations[s].easting) << ',' << shortest(stations[s].northing) << ','
          << shortest(stations[s].upward);
      for (const auto& column : columns) out << ',' << shortest(column.values[s]);
      out << '\n';
    }
  });
}

void write_gravity_vts(const std::filesystem::path& path, const std::vector<Station>& stations,
                       StationGridShape shape, const std::vector<GravityColumn>& columns) {
  if (shape.shape_e == 0 || shape.shape_n == 0 || shape.shape_e > INT_MAX || shape.shape_n > INT_MAX ||
      shape.shape_e * shape.shape_n != stations.size())
    throw InputError("gravity output: a grid of " + std::to_string(shape.shape_e) + " x " +
                     std::to_string(shape.shape_n) + " stations cannot hold " +
                     std::to_string(stations.size()));
  check_lengths(stations.size(), columns);
  auto data = vtkSmartPointer<vtkStructuredGrid>::New();
  data->SetDimensions(static_cast<int>(shape.shape_e), static_cast<int>(shape.shape_n), 1);
  data->SetPoints(station_points(stations));
  add_fields(data, columns);
  write_vtk_xml(data, path);
}

void write_gravity_vtu(const std::filesystem::path& path, const std::vector<Station>& stations,
                       const std::vector<GravityColumn>& columns) {
  check_lengths(stations.size(), columns);
  auto data = vtkSmartPointer<vtkUnstructuredGrid>::New();
  data->SetPoints(station_points(stations));
  data->Allocate(static_cast<vtkIdType>(stations.size()));
  for (std::size_t s = 0; s < stations.size(); ++s) {
    const vtkIdType id = static_cast<vtkIdType>(s);
    data->InsertNextCell(VTK_VERTEX, 1, &id);
  }
  add_fields(data, columns);
  write_vtk_xml(data, path);
}

std::vector<std::filesystem::path> write_gravity_outputs(const std::filesystem::path& directory,
                                                         const std::vector<Station>& stations,
                                                         const std::optional<StationGridShape>& shape,
                                                         const std::vector<GravityColumn>& columns) {
  check_lengths(stations.size(), columns);
  std::filesystem::create_directories(directory);
  const auto csv = directory / "gravity.csv";
  write_gravity_csv(csv, stations, columns);
  if (shape) {
    const auto vts = directory / "gravity.vts";
    write_gravity_vts(vts, stations, *shape, columns);
    return {csv, vts};
  }
  const auto vtu = directory / "gravity.vtu";
  write_gravity_vtu(vtu, stations, columns);
  return {csv, vtu};
}

}  // namespace geobem::prisms

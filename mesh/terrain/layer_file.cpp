#include "mesh/terrain/layer_file.hpp"

#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>
#include <vtkStructuredGrid.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpu/core/input_error.hpp"
#include "mesh/io/vtk_output.hpp"

namespace geobem::terrain {
namespace {

void add_values(vtkFieldData* data, const char* name, std::initializer_list<double> values) {
  auto array = vtkSmartPointer<vtkDoubleArray>::New();
  array->SetName(name);
  for (double v : values) array->InsertNextValue(v);
  data->AddArray(array);
}

void add_text(vtkFieldData* data, const char* name, const std::string& text) {
  auto array = vtkSmartPointer<vtkStringArray>::New();
  array->SetName(name);
  array->InsertNextValue(text);
  data->AddArray(array);
}

double field_value(vtkFieldData* data, const char* name, int index, const std::string& path) {
  vtkDataArray* array = data->GetArray(name);
  if (!array || array->GetNumberOfTuples() * array->GetNumberOfComponents() <= index)
    throw std::runtime_error(path + ": not a prism layer (field data '" + name + "' missing)");
  return array->GetComponent(index / array->GetNumberOfComponents(), index % array->GetNumberOfComponents());
}

std::string field_text(vtkFieldData* data, const char* name) {
  auto* array = vtkStringArray::SafeDownCast(data->GetAbstractArray(name));
  return array && array->GetNumberOfValues() > 0 ? array->GetValue(0) : std::string();
}

}  // namespace

void write_layer_vts(const std::filesystem::path& path, const LayerModel& model) {
  const gravity::PrismLayer& layer = model.layer;
  const gravity::LayerGeometry& g = layer.geometry;
  const std::int64_t corners_e = g.shape_e + 1, corners_n = g.shape_n + 1;
  const std::size_t corners = static_cast<std::size_t>(corners_e * corners_n), cells = layer.cell_count();
  auto grid = vtkSmartPointer<vtkStructuredGrid>::New();
  grid->SetDimensions(static_cast<int>(corners_e), static_cast<int>(corners_n), 2);
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();  // UTM coordinates need more than float's 7 digits
  points->SetNumberOfPoints(static_cast<vtkIdType>(2 * corners));
  // The upper sheet: at each corner the mean top of the prisms around it
  // (skipped cells left out; the reference where none is left).
  for (std::int64_t j = 0; j < corners_n; ++j)
    for (std::int64_t i = 0; i < corners_e; ++i) {
      double sum = 0.0;
      int count = 0;
      for (std::int64_t cj = std::max<std::int64_t>(j - 1, 0); cj <= std::min(j, g.shape_n - 1); ++cj)
        for (std::int64_t ci = std::max<std::int64_t>(i - 1, 0); ci <= std::min(i, g.shape_e - 1); ++ci) {
          const double top = layer.surface[static_cast<std::size_t>(ci + g.shape_e * cj)];
          if (!std::isnan(top)) {
            sum += top;
            ++count;
          }
        }
      const vtkIdType id = static_cast<vtkIdType>(i + corners_e * j);
      const double e = gravity::easting_line(g, i), n = gravity::northing_line(g, j);
      points->SetPoint(id, e, n, g.reference);
      points->SetPoint(id + static_cast<vtkIdType>(corners), e, n, count > 0 ? sum / count : g.reference);
    }
  auto surface = vtkSmartPointer<vtkDoubleArray>::New();
  surface->SetName("surface");
  surface->SetNumberOfTuples(static_cast<vtkIdType>(cells));
  auto density = vtkSmartPointer<vtkDoubleArray>::New();
  density->SetName("density");
  density->SetNumberOfTuples(static_cast<vtkIdType>(cells));
  for (std::size_t c = 0; c < cells; ++c) {
    surface->SetValue(static_cast<vtkIdType>(c), layer.surface[c]);
    density->SetValue(static_cast<vtkIdType>(c),
                      gravity::layer_prism(g, static_cast<std::int64_t>(c), layer.surface[c]).density);
  }
  grid->SetPoints(points);
  grid->GetCellData()->AddArray(surface);
  grid->GetCellData()->AddArray(density);
  vtkFieldData* field = grid->GetFieldData();
  add_values(field, "reference", {g.reference});
  add_values(field, "density_above", {g.density_above});
  add_values(field, "density_below", {g.density_below});
  add_values(field, "west_centre", {g.west_centre});
  add_values(field, "south_centre", {g.south_centre});
  add_values(field, "spacing", {g.spacing_e, g.spacing_n});
  add_text(field, "crs", model.crs);
  add_text(field, "crs_wkt", model.crs_wkt);
  add_units_field_data(grid, {{"surface", "m"},
                              {"density", "kg/m^3"},
                              {"reference", "m"},
                              {"density_above", "kg/m^3"},
                              {"density_below", "kg/m^3"},
                              {"west_centre", "m"},
                              {"south_centre", "m"},
                              {"spacing", "m"}});
  write_vtk_xml(grid, path);
}

LayerModel read_layer_vts(const std::filesystem::path& path) {
  const std::string where = path.string();
  auto data = read_vtk_xml(path);
  auto* grid = vtkStructuredGrid::SafeDownCast(data);
  if (!grid) throw std::runtime_error(where + ": not a structured grid (.vts), so not a prism layer");
  int dims[3];
  grid->GetDimensions(dims);
  if (!grid->GetCellData()->GetArray("surface") && grid->GetPointData()->GetArray("surface"))
    throw std::runtime_error(where + ": a prism layer of an earlier geobem (heights on points over the prism "
                                     "centres); rerun geobem-model --dem to write it with one cell per prism");
  if (dims[2] != 2 || dims[0] < 2 || dims[1] < 2)
    throw std::runtime_error(where + ": a prism layer has 2 sheets of at least 2 x 2 corner points (dimensions " +
                             std::to_string(dims[0]) + " x " + std::to_string(dims[1]) + " x " +
                             std::to_string(dims[2]) + ")");
  vtkFieldData* field = grid->GetFieldData();
  LayerModel model;
  gravity::LayerGeometry& g = model.layer.geometry;
  g.shape_e = dims[0] - 1;
  g.shape_n = dims[1] - 1;
  g.reference = field_value(field, "reference", 0, where);
  g.density_above = field_value(field, "density_above", 0, where);
  g.density_below = field_value(field, "density_below", 0, where);
  g.west_centre = field_value(field, "west_centre", 0, where);
  g.south_centre = field_value(field, "south_centre", 0, where);
  g.spacing_e = field_value(field, "spacing", 0, where);
  g.spacing_n = field_value(field, "spacing", 1, where);
  model.crs = field_text(field, "crs");
  model.crs_wkt = field_text(field, "crs_wkt");
  vtkDataArray* surface = grid->GetCellData()->GetArray("surface");
  const std::size_t cells = static_cast<std::size_t>(g.shape_e) * static_cast<std::size_t>(g.shape_n);
  if (!surface || surface->GetNumberOfComponents() != 1 ||
      static_cast<std::size_t>(surface->GetNumberOfTuples()) != cells)
    throw std::runtime_error(where + ": no cell array 'surface' with one value per prism");
  model.layer.surface.resize(cells);
  for (std::size_t c = 0; c < cells; ++c) model.layer.surface[c] = surface->GetComponent(static_cast<vtkIdType>(c), 0);
  with_origin(InputKind::data, where, [&] { gravity::check_prism_layer(model.layer); });
  return model;
}

}  // namespace geobem::terrain

#include "mesh/terrain/layer_file.hpp"

#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStringArray.h>
#include <vtkStructuredGrid.h>

#include <cmath>
#include <stdexcept>

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
  auto grid = vtkSmartPointer<vtkStructuredGrid>::New();
  grid->SetDimensions(static_cast<int>(g.shape_e), static_cast<int>(g.shape_n), 2);
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();  // UTM coordinates need more than float's 7 digits
  const std::size_t cells = layer.cell_count();
  points->SetNumberOfPoints(static_cast<vtkIdType>(2 * cells));
  auto surface = vtkSmartPointer<vtkDoubleArray>::New();
  surface->SetName("surface");
  surface->SetNumberOfTuples(static_cast<vtkIdType>(2 * cells));
  auto density = vtkSmartPointer<vtkDoubleArray>::New();
  density->SetName("density");
  density->SetNumberOfTuples(static_cast<vtkIdType>(2 * cells));
  for (std::size_t c = 0; c < cells; ++c) {
    const gravity::Prism p = gravity::layer_prism(g, static_cast<std::int64_t>(c), layer.surface[c]);
    const double e = 0.5 * (p.west + p.east), n = 0.5 * (p.south + p.north);
    const double top = std::isnan(layer.surface[c]) ? g.reference : layer.surface[c];
    for (int k = 0; k < 2; ++k) {
      const vtkIdType id = static_cast<vtkIdType>(c + k * cells);
      points->SetPoint(id, e, n, k == 0 ? g.reference : top);
      surface->SetValue(id, layer.surface[c]);
      density->SetValue(id, p.density);
    }
  }
  grid->SetPoints(points);
  grid->GetPointData()->AddArray(surface);
  grid->GetPointData()->AddArray(density);
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
  if (dims[2] != 2 || dims[0] < 1 || dims[1] < 1)
    throw std::runtime_error(where + ": a prism layer has 2 sheets of points (dimensions " + std::to_string(dims[0]) +
                             " x " + std::to_string(dims[1]) + " x " + std::to_string(dims[2]) + ")");
  vtkFieldData* field = grid->GetFieldData();
  LayerModel model;
  gravity::LayerGeometry& g = model.layer.geometry;
  g.shape_e = dims[0];
  g.shape_n = dims[1];
  g.reference = field_value(field, "reference", 0, where);
  g.density_above = field_value(field, "density_above", 0, where);
  g.density_below = field_value(field, "density_below", 0, where);
  g.west_centre = field_value(field, "west_centre", 0, where);
  g.south_centre = field_value(field, "south_centre", 0, where);
  g.spacing_e = field_value(field, "spacing", 0, where);
  g.spacing_n = field_value(field, "spacing", 1, where);
  model.crs = field_text(field, "crs");
  model.crs_wkt = field_text(field, "crs_wkt");
  vtkDataArray* surface = grid->GetPointData()->GetArray("surface");
  const std::size_t cells = static_cast<std::size_t>(dims[0]) * dims[1];
  if (!surface || surface->GetNumberOfComponents() != 1 ||
      static_cast<std::size_t>(surface->GetNumberOfTuples()) != 2 * cells)
    throw std::runtime_error(where + ": no point array 'surface' with one value per point");
  model.layer.surface.resize(cells);
  for (std::size_t c = 0; c < cells; ++c) model.layer.surface[c] = surface->GetComponent(static_cast<vtkIdType>(c), 0);
  try {
    gravity::check_prism_layer(model.layer);
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(where + ": " + error.what());
  }
  return model;
}

}  // namespace geobem::terrain

#include "mesh/surface/vtk_surface_io.hpp"

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <stdexcept>
#include <string>

#include <vtkAlgorithm.h>
#include <vtkCallbackCommand.h>
#include <vtkCellData.h>
#include <vtkCommand.h>
#include <vtkExecutive.h>
#include <vtkCellType.h>
#include <vtkDataArray.h>
#include <vtkDataSet.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkIdList.h>
#include <vtkIntArray.h>
#include <vtkNew.h>
#include <vtkPoints.h>
#include <vtkPolyData.h>
#include <vtkSTLReader.h>
#include <vtkStringArray.h>
#include <vtkUnstructuredGrid.h>

#include "gpu/core/regular_file.hpp"
#include "mesh/io/vtk_output.hpp"
#include "mesh/surface/mesh_geometry.hpp"

namespace geobem::surface {

namespace {

/// Collects the error messages of a VTK algorithm and its executive instead
/// of letting VTK print them, so that the reader can throw them.
class VtkErrorCollector {
 public:
  explicit VtkErrorCollector(vtkAlgorithm* algorithm) {
    callback_->SetClientData(&message_);
    callback_->SetCallback([](vtkObject*, unsigned long, void* client, void* call) {
      auto& message = *static_cast<std::string*>(client);
      if (message.empty() && call) message = static_cast<const char*>(call);
    });
    algorithm->AddObserver(vtkCommand::ErrorEvent, callback_);
    algorithm->GetExecutive()->AddObserver(vtkCommand::ErrorEvent, callback_);
  }
  /// The first error, its trailing newline trimmed; empty when none.
  std::string first_error() const {
    std::string text = message_;
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
  }

 private:
  vtkNew<vtkCallbackCommand> callback_;
  std::string message_;
};

/// The triangles and points of any VTK data set; refuses other cells.
SurfaceMesh triangles_of(vtkDataSet* data, const std::string& name) {
  SurfaceMesh mesh;
  const vtkIdType point_count = data->GetNumberOfPoints();
  mesh.nodes.resize(point_count);
  for (vtkIdType p = 0; p < point_count; ++p) {
    data->GetPoint(p, mesh.nodes[p].data());
    for (double x : mesh.nodes[p])
      if (!std::isfinite(x))
        throw std::runtime_error(name + ": point " + std::to_string(p) + " has a non-finite coordinate");
  }
  auto ids = vtkSmartPointer<vtkIdList>::New();
  const vtkIdType cell_count = data->GetNumberOfCells();
  mesh.triangles.reserve(cell_count);
  for (vtkIdType c = 0; c < cell_count; ++c) {
    const int type = data->GetCellType(c);
    data->GetCellPoints(c, ids);
    const bool triangle = type == VTK_TRIANGLE || (type == VTK_POLYGON && ids->GetNumberOfIds() == 3);
    if (!triangle)
      throw std::runtime_error(name + ": cell " + std::to_string(c) + " has VTK cell type " + std::to_string(type) +
                               " with " + std::to_string(ids->GetNumberOfIds()) +
                               " points; only triangles (type 5) are supported");
    mesh.triangles.push_back({static_cast<int>(ids->GetId(0)), static_cast<int>(ids->GetId(1)),
                              static_cast<int>(ids->GetId(2))});
  }
  if (mesh.triangles.empty()) throw std::runtime_error(name + ": no triangles in the file");
  return mesh;
}

/// vtkSTLReader takes a file with non-text bytes near its start for binary
/// STL and allocates for the triangle count of its header: a binary file must
/// be exactly 84 + 50 x count bytes long (80-byte header, uint32 count,
/// 50 bytes per facet) before VTK sees it.
void check_binary_stl_size(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  char head[256];
  in.read(head, sizeof head);
  const auto read = static_cast<std::size_t>(in.gcount());
  bool text = true;
  for (std::size_t i = 0; i < read; ++i) {
    const auto c = static_cast<unsigned char>(head[i]);
    text &= c == '\n' || c == '\r' || c == '\t' || (c >= 32 && c < 127);
  }
  if (text) return;
  const std::uint64_t size = std::filesystem::file_size(path);
  if (size < 84)
    throw std::runtime_error(path.string() + ": binary STL of " + std::to_string(size) +
                             " bytes, shorter than its 84-byte header");
  const auto* count_bytes = reinterpret_cast<const unsigned char*>(head + 80);
  const std::uint64_t count = count_bytes[0] | (count_bytes[1] << 8) | (count_bytes[2] << 16) |
                              (static_cast<std::uint64_t>(count_bytes[3]) << 24);
  if (84 + 50 * count != size)
    throw std::runtime_error(path.string() + ": binary STL header declares " + std::to_string(count) +
                             " triangles (" + std::to_string(84 + 50 * count) + " bytes), the file has " +
                             std::to_string(size) + " bytes");
}

}  // namespace

vtkSmartPointer<vtkUnstructuredGrid> surface_to_vtk(const SurfaceMesh& mesh) {
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  auto points = vtkSmartPointer<vtkPoints>::New();
  points->SetDataTypeToDouble();
  points->SetNumberOfPoints(static_cast<vtkIdType>(mesh.nodes.size()));
  for (std::size_t p = 0; p < mesh.nodes.size(); ++p) points->SetPoint(static_cast<vtkIdType>(p), mesh.nodes[p].data());
  grid->SetPoints(points);
  const auto triangle_count = static_cast<vtkIdType>(mesh.triangles.size());
  grid->Allocate(triangle_count);
  auto group = vtkSmartPointer<vtkIntArray>::New();
  group->SetName("group");
  group->SetNumberOfTuples(triangle_count);
  auto normal = vtkSmartPointer<vtkDoubleArray>::New();
  normal->SetName("normal");
  normal->SetNumberOfComponents(3);
  normal->SetNumberOfTuples(triangle_count);
  auto area = vtkSmartPointer<vtkDoubleArray>::New();
  area->SetName("area");
  area->SetNumberOfTuples(triangle_count);
  for (vtkIdType t = 0; t < triangle_count; ++t) {
    const auto& tri = mesh.triangles[t];
    const vtkIdType corners[3] = {tri[0], tri[1], tri[2]};
    grid->InsertNextCell(VTK_TRIANGLE, 3, corners);
    group->SetValue(t, t < static_cast<vtkIdType>(mesh.group_of_triangle.size()) ? mesh.group_of_triangle[t] : -1);
    normal->SetTuple(t, triangle_normal(mesh, static_cast<int>(t)).data());
    area->SetValue(t, triangle_area(mesh, static_cast<int>(t)));
  }
  grid->GetCellData()->AddArray(group);
  grid->GetCellData()->AddArray(normal);
  grid->GetCellData()->AddArray(area);
  auto names = vtkSmartPointer<vtkStringArray>::New();
  names->SetName("group_names");
  for (const auto& n : mesh.group_names) names->InsertNextValue(n);
  grid->GetFieldData()->AddArray(names);
  add_units_field_data(grid, {{"coordinates", "m"}, {"normal", "1"}, {"area", "m^2"}});
  return grid;
}

void write_surface_vtu(const SurfaceMesh& mesh, const std::filesystem::path& path) {
  write_vtk_xml(surface_to_vtk(mesh), path);
}

SurfaceMesh read_vtk_surface(const std::filesystem::path& path) {
  const std::string name = path.string();
  auto object = read_vtk_xml(path);
  auto* data = vtkDataSet::SafeDownCast(object);
  if (!data) throw std::runtime_error(name + ": not a VTK data set with cells (expected .vtu or .vtp)");
  SurfaceMesh mesh = triangles_of(data, name);

  vtkDataArray* group = data->GetCellData()->GetArray("group");
  if (!group) return mesh;
  if (group->GetNumberOfComponents() != 1)
    throw std::runtime_error(name + ": cell array 'group' has " + std::to_string(group->GetNumberOfComponents()) +
                             " components; expected 1 (a group id per cell)");
  auto* names = vtkStringArray::SafeDownCast(data->GetFieldData()->GetAbstractArray("group_names"));
  std::map<long long, int> group_of_value;
  if (names)
    for (vtkIdType g = 0; g < names->GetNumberOfValues(); ++g) {
      mesh.group_names.push_back(names->GetValue(g));
      group_of_value[g] = static_cast<int>(g);
    }
  else {
    for (vtkIdType c = 0; c < group->GetNumberOfTuples(); ++c) group_of_value[std::llround(group->GetTuple1(c))] = 0;
    for (auto& [value, id] : group_of_value) {
      id = static_cast<int>(mesh.group_names.size());
      mesh.group_names.push_back("group_" + std::to_string(value));
    }
  }
  for (vtkIdType c = 0; c < group->GetNumberOfTuples(); ++c) {
    const double value = group->GetTuple1(c);
    auto it = group_of_value.find(std::llround(value));
    if (it == group_of_value.end() || value != std::round(value))
      throw std::runtime_error(name + ": cell " + std::to_string(c) + " has group " + std::to_string(value) +
                               ", not an index of the " + std::to_string(mesh.group_names.size()) +
                               " names in field data 'group_names'");
    mesh.group_of_triangle.push_back(it->second);
  }
  return mesh;
}

SurfaceMesh read_stl_surface(const std::filesystem::path& path) {
  const std::string name = path.string();
  if (!std::filesystem::exists(path)) throw std::runtime_error(name + ": no such file");
  require_regular_file(path);
  check_binary_stl_size(path);
  auto reader = vtkSmartPointer<vtkSTLReader>::New();
  reader->SetFileName(name.c_str());
  reader->MergingOn();
  VtkErrorCollector errors(reader);
  reader->Update();
  if (!errors.first_error().empty() || reader->GetErrorCode() != 0 || !reader->GetOutput())
    throw std::runtime_error(name + ": VTK cannot read it as STL" +
                             (errors.first_error().empty() ? "" : ": " + errors.first_error()));
  return triangles_of(reader->GetOutput(), name);
}

}  // namespace geobem::surface

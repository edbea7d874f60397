#include "mesh/io/vtk_output.hpp"

#include <vtkDataObject.h>
#include <vtkFieldData.h>
#include <vtkImageData.h>
#include <vtkPolyData.h>
#include <vtkRectilinearGrid.h>
#include <vtkStringArray.h>
#include <vtkStructuredGrid.h>
#include <vtkUnstructuredGrid.h>
#include <vtkXMLGenericDataObjectReader.h>
#include <vtkXMLImageDataWriter.h>
#include <vtkXMLPolyDataWriter.h>
#include <vtkXMLRectilinearGridWriter.h>
#include <vtkXMLStructuredGridWriter.h>
#include <vtkXMLUnstructuredGridWriter.h>
#include <vtkXMLWriter.h>

#include <sstream>
#include <stdexcept>

#include "gpu/core/atomic_file.hpp"
#include "mesh/io/number_text.hpp"
#include "mesh/io/vtk_xml_check.hpp"

namespace geobem {

void add_units_field_data(vtkDataObject* data, const std::vector<std::pair<std::string, std::string>>& units) {
  auto array = vtkSmartPointer<vtkStringArray>::New();
  array->SetName("units");
  for (const auto& [name, unit] : units) array->InsertNextValue(name + "=" + unit);
  data->GetFieldData()->AddArray(array);
}

std::vector<std::pair<std::string, std::string>> read_units_field_data(vtkDataObject* data) {
  std::vector<std::pair<std::string, std::string>> units;
  auto* array = vtkStringArray::SafeDownCast(data->GetFieldData()->GetAbstractArray("units"));
  if (!array) return units;
  for (vtkIdType i = 0; i < array->GetNumberOfValues(); ++i) {
    const std::string entry = array->GetValue(i);
    const auto equals = entry.find('=');
    if (equals != std::string::npos) units.emplace_back(entry.substr(0, equals), entry.substr(equals + 1));
  }
  return units;
}

namespace {
vtkSmartPointer<vtkXMLWriter> writer_for(vtkDataObject* data, const std::string& extension) {
  if (extension == ".vts" && vtkStructuredGrid::SafeDownCast(data)) return vtkSmartPointer<vtkXMLStructuredGridWriter>::New();
  if (extension == ".vtu" && vtkUnstructuredGrid::SafeDownCast(data)) return vtkSmartPointer<vtkXMLUnstructuredGridWriter>::New();
  if (extension == ".vtr" && vtkRectilinearGrid::SafeDownCast(data)) return vtkSmartPointer<vtkXMLRectilinearGridWriter>::New();
  if (extension == ".vtp" && vtkPolyData::SafeDownCast(data)) return vtkSmartPointer<vtkXMLPolyDataWriter>::New();
  if (extension == ".vti" && vtkImageData::SafeDownCast(data)) return vtkSmartPointer<vtkXMLImageDataWriter>::New();
  return nullptr;
}
}  // namespace

void write_vtk_xml(vtkDataObject* data, const std::filesystem::path& path) {
  auto writer = writer_for(data, path.extension().string());
  if (!writer)
    throw std::runtime_error("cannot write a " + std::string(data->GetClassName()) + " as '" + path.string() +
                             "': the extension does not match the data type");
  writer->SetInputData(data);
  writer->SetDataModeToAppended();
  writer->SetCompressorTypeToZLib();
  // Into memory, then one write: to a file VTK's appended mode issues a
  // write and a seek for every block and offset (about 170 system calls for
  // a 1,000-triangle surface), the bulk of writing a time series of small
  // steps. The bytes are the same.
  writer->WriteToOutputStringOn();
  if (writer->Write() != 1 || writer->GetErrorCode() != 0)
    throw std::runtime_error("VTK could not write '" + path.string() + "'");
  const std::string text = writer->GetOutputString();
  write_text_file_atomically(
      path, [&](std::ostream& out) { out.write(text.data(), static_cast<std::streamsize>(text.size())); });
}

vtkSmartPointer<vtkDataObject> read_vtk_xml(const std::filesystem::path& path) {
  if (!std::filesystem::exists(path)) throw std::runtime_error(path.string() + ": no such file");
  check_vtk_xml_file(path);  // VTK 9.1 crashes on arrays shorter than their piece
  auto reader = vtkSmartPointer<vtkXMLGenericDataObjectReader>::New();
  reader->SetFileName(path.c_str());
  reader->Update();
  vtkDataObject* output = reader->GetOutputDataObject(0);
  if (!output || reader->GetErrorCode() != 0)
    throw std::runtime_error(path.string() + ": VTK could not read this file as VTK XML");
  vtkSmartPointer<vtkDataObject> result;
  result.TakeReference(output->NewInstance());
  result->DeepCopy(output);
  return result;
}

namespace {
/// `text` as an XML attribute value: the five characters XML reserves as entities.
std::string xml_attribute(const std::string& text) {
  std::string escaped;
  for (const char c : text) switch (c) {
      case '&': escaped += "&amp;"; break;
      case '<': escaped += "&lt;"; break;
      case '>': escaped += "&gt;"; break;
      case '"': escaped += "&quot;"; break;
      case '\'': escaped += "&apos;"; break;
      default: escaped += c;
    }
  return escaped;
}
}  // namespace

void write_pvd_collection(const std::filesystem::path& path, const std::vector<PvdDataSet>& data_sets) {
  write_text_file_atomically(path, [&](std::ostream& out) {
    out << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n  <Collection>\n";
    for (const auto& data_set : data_sets) {
      out << "    <DataSet timestep=\"" << shortest(data_set.time) << "\" group=\"\" part=\"" << data_set.part << '"';
      if (!data_set.name.empty()) out << " name=\"" << xml_attribute(data_set.name) << '"';
      out << " file=\"" << xml_attribute(data_set.file) << "\"/>\n";
    }
    out << "  </Collection>\n</VTKFile>\n";
  });
}

}  // namespace geobem

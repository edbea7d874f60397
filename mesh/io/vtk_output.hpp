#pragma once
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include <vtkSmartPointer.h>

class vtkDataObject;

namespace geobem {

/// Attaches the units of the named arrays as VTK field data: a string array
/// `units` whose entries read "ARRAY=UNIT" (e.g. "g_z=mGal"), per docs/design.md#units-axes-and-names.
void add_units_field_data(vtkDataObject* data, const std::vector<std::pair<std::string, std::string>>& units);

/// Reads the `units` field data back as (array, unit) pairs; empty if absent.
std::vector<std::pair<std::string, std::string>> read_units_field_data(vtkDataObject* data);

/// Writes a VTK XML file (.vts, .vtu, .vtr, .vtp or .vti: the extension must
/// match the data set's type) through VTK's XML writers, compressed binary,
/// built in memory (about the file's size) and written at once, atomically
/// (temporary name, then rename). Throws std::runtime_error naming
/// the path on a mismatched extension or a failed write.
void write_vtk_xml(vtkDataObject* data, const std::filesystem::path& path);

/// Reads a serial VTK XML data file (.vti, .vtr, .vts, .vtu, .vtp) through
/// VTK after check_vtk_xml_file has checked every array against its piece;
/// throws std::runtime_error naming the path (and the array) when it is
/// missing, fails the check, or VTK cannot read it.
vtkSmartPointer<vtkDataObject> read_vtk_xml(const std::filesystem::path& path);

/// One data set of a ParaView .pvd collection: its time (s), its file
/// relative to the .pvd's folder, its part (the data sets of several parts at
/// one time open in ParaView as the blocks of one multiblock set) and the
/// part's name, which ParaView shows for the block (else Block0, Block1...).
struct PvdDataSet {
  double time = 0;
  std::string file;
  int part = 0;
  std::string name;
};

/// Writes a ParaView .pvd collection (time series) of `data_sets`, times as
/// shortest_text, files and names XML-escaped. ParaView's reader for this
/// format (vtkXMLCollectionReader) is not part of VTK, which has no writer
/// either, so the short XML is written here; atomically. Throws
/// std::runtime_error naming the path on a failed write.
void write_pvd_collection(const std::filesystem::path& path, const std::vector<PvdDataSet>& data_sets);

}  // namespace geobem

#pragma once
// A full check of a VTK XML data file before VTK's readers see it. VTK 9.1's
// XML readers trust the file: an array shorter than its piece, a value that
// does not parse, an unknown type name or an edited compression header end in
// a crash (SIGSEGV in vtkXMLDataReader::ReadPieceData) or an allocation of
// gigabytes. This check parses the XML with expat (stopping at the appended
// data like VTK does) and decodes every array once (ASCII tokens, base64,
// zlib blocks), so that VTK is only handed files whose every array holds
// exactly the values its piece needs. docs/readers.md lists what is checked.
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace geobem {

/// Checks the bytes of a serial VTK XML file (ImageData, RectilinearGrid,
/// StructuredGrid, UnstructuredGrid or PolyData): the header attributes
/// (byte_order, header_type UInt32/UInt64, no compressor or zlib), piece
/// counts and extents (non-negative, inside WholeExtent), and for every
/// DataArray its type, NumberOfComponents, format and encoding, and that its
/// data decode to exactly the number of values the piece implies (points,
/// cells, extent, NumberOfTuples, last cell offset), with the decoded size
/// within `memory_budget_bytes`. Cell offsets must start ≥ 0 and never
/// decrease, connectivity ids must name existing points, and polyhedron
/// faces are refused. ASCII values must be finite numbers of the array's type
/// (VTK's ASCII parser stops at `nan`). Throws std::runtime_error
/// "NAME: ..." naming the array (and the value's index) on the first problem.
void check_vtk_xml(std::string_view bytes, const std::string& name, std::uint64_t memory_budget_bytes);

/// check_vtk_xml on a file (mapped read-only), budget available_memory_bytes().
/// Throws std::runtime_error naming the path when it is missing or unreadable.
void check_vtk_xml_file(const std::filesystem::path& path);

}  // namespace geobem

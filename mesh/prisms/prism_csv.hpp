#pragma once
// The prism CSV of docs/design.md#file-formats: header west,east,south,north,bottom,top,density
// (any column order), `#` comment lines, metres and kg/m³.
#include <filesystem>
#include <string>
#include <vector>

#include "mesh/prisms/prism_model.hpp"

namespace geobem::prisms {

/// Reads a prism CSV (zero densities kept). Throws std::runtime_error
/// "FILE:LINE: ..." for a missing file, a missing column, a malformed row, a
/// non-finite value, or a prism that is not a box (check_prism).
PrismModel read_prism_csv(const std::string& path);

/// Writes the prisms as a prism CSV, each number the shortest text that reads
/// back exactly (shortest_text), atomically; throws std::runtime_error naming
/// the path.
void write_prism_csv(const std::filesystem::path& path, const std::vector<Prism>& prisms);

}  // namespace geobem::prisms

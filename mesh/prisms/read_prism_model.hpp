#pragma once
// One entry point for every prism model format the stages accept.
#include <string>

#include "mesh/prisms/prism_model.hpp"

namespace geobem::prisms {

/// Reads a prism model by file type: `.csv` (prism CSV), `.vtr`/`.vti`/`.vtu`
/// (VTK), or a UBC-GIF mesh file when `ubc_model_path` names its model file.
/// Zero densities are not yet dropped from list models (drop_zero_density).
/// Throws std::runtime_error naming the file for an unknown type, a UBC model
/// file given with a non-UBC model, and every reader error.
PrismModel read_prism_model(const std::string& path, const std::string& ubc_model_path = "");

}  // namespace geobem::prisms

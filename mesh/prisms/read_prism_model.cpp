#include "mesh/prisms/read_prism_model.hpp"

#include <filesystem>
#include <stdexcept>

#include "mesh/prisms/prism_csv.hpp"
#include "mesh/prisms/ubc_model.hpp"
#include "mesh/prisms/vtk_model.hpp"

namespace geobem::prisms {

PrismModel read_prism_model(const std::string& path, const std::string& ubc_model_path) {
  const std::string extension = std::filesystem::path(path).extension().string();
  const bool vtk = extension == ".vtr" || extension == ".vti" || extension == ".vtu";
  if (!ubc_model_path.empty()) {
    if (extension == ".csv" || vtk)
      throw std::runtime_error(path + ": a UBC model file (" + ubc_model_path +
                               ") goes with a UBC mesh file, not a " + extension + " model");
    return read_ubc_model(path, ubc_model_path);
  }
  if (extension == ".csv") return read_prism_csv(path);
  if (vtk) return read_vtk_model(path);
  throw std::runtime_error(path + ": unknown prism model type '" + extension +
                           "' (expected .csv, .vtr, .vti, .vtu, or a UBC mesh file with its model file)");
}

}  // namespace geobem::prisms

// UBC-GIF mesh + model reader (mesh/prisms/ubc_model.cpp). The input holds
// both files: the mesh, a line "=====", then the model.
#include <string_view>

#include "mesh/prisms/ubc_model.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto split = text.find("=====\n");
  const std::size_t mesh_size = split == std::string_view::npos ? size : split;
  const std::size_t model_start = split == std::string_view::npos ? size : split + 6;
  const auto mesh = geobem::fuzz::input_file(data, mesh_size, ".msh");
  const auto model = geobem::fuzz::input_file(data + model_start, size - model_start, ".den");
  return geobem::fuzz::refusal_is_fine([&] { geobem::prisms::read_ubc_model(mesh.string(), model.string()); });
}

// VTK prism models (mesh/prisms/vtk_model.cpp): the check, then VTK's reader
// and ours. The type attribute picks the extension VTK is given.
#include <string_view>

#include "mesh/prisms/vtk_model.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const char* extension = text.find("\"ImageData\"") != std::string_view::npos        ? ".vti"
                          : text.find("\"RectilinearGrid\"") != std::string_view::npos ? ".vtr"
                                                                                        : ".vtu";
  const auto path = geobem::fuzz::input_file(data, size, extension);
  return geobem::fuzz::refusal_is_fine([&] { geobem::prisms::read_vtk_model(path.string()); });
}

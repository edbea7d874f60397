// Surface meshes as .vtu/.vtp (mesh/surface/vtk_surface_io.cpp).
#include <string_view>

#include "mesh/surface/vtk_surface_io.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const bool poly = text.find("\"PolyData\"") != std::string_view::npos;
  const auto path = geobem::fuzz::input_file(data, size, poly ? ".vtp" : ".vtu");
  return geobem::fuzz::refusal_is_fine([&] { geobem::surface::read_vtk_surface(path); });
}

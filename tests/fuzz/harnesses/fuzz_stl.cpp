// STL surfaces, ASCII and binary (mesh/surface/vtk_surface_io.cpp).
#include "mesh/surface/vtk_surface_io.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = geobem::fuzz::input_file(data, size, ".stl");
  return geobem::fuzz::refusal_is_fine([&] { geobem::surface::read_stl_surface(path); });
}

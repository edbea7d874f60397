// Gmsh ASCII .msh 2.2 and 4.1 (mesh/surface/gmsh_reader.cpp), and the node
// renumbering that follows it.
#include "mesh/surface/gmsh_reader.hpp"
#include "mesh/surface/read_surface_mesh.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = geobem::fuzz::input_file(data, size, ".msh");
  return geobem::fuzz::refusal_is_fine([&] {
    auto mesh = geobem::surface::read_gmsh_surface(path);
    geobem::surface::remove_unused_nodes(mesh);
  });
}

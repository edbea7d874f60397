// The .geo check (mesh/surface/geo_check.cpp) that stands between a user's
// file and Gmsh's parser: it tokenizes and classifies the whole text, so it
// must refuse anything with an exception and never crash or run away.
#include <string>

#include "mesh/surface/geo_check.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  return geobem::fuzz::refusal_is_fine([&] { geobem::surface::check_geo_text(text, "fuzz.geo"); });
}

// The manifest of geobem-laplace's output set (stages/cq_stage/laplace_manifest.cpp):
// an INI file whose keys are all parsed and range-checked before its
// checksum is compared, so mutated inputs reach every key's check.
#include "stages/cq_stage/laplace_manifest.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = geobem::fuzz::input_file(data, size, ".ini");
  return geobem::fuzz::refusal_is_fine([&] { geobem::cq_stage::read_laplace_manifest(path); });
}

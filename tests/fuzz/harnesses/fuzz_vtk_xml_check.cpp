// The VTK XML check alone (mesh/io/vtk_xml_check.cpp), in memory: the part
// that stands between hostile files and VTK's readers. A 256 MiB budget keeps
// every run within libFuzzer's memory limit.
#include "mesh/io/vtk_xml_check.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return geobem::fuzz::refusal_is_fine([&] {
    geobem::check_vtk_xml({reinterpret_cast<const char*>(data), size}, "input", std::uint64_t{256} << 20);
  });
}

// Station CSV reader (mesh/prisms/stations.cpp).
#include "mesh/prisms/stations.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = geobem::fuzz::input_file(data, size, ".csv");
  return geobem::fuzz::refusal_is_fine([&] { geobem::prisms::read_station_csv(path.string()); });
}

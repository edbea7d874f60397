// The numeric CSV tables of the integrate and halfspace stages
// (mesh/io/csv_table.cpp), with and without non-finite values allowed.
#include "mesh/io/csv_table.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = geobem::fuzz::input_file(data, size, ".csv");
  geobem::fuzz::refusal_is_fine([&] {
    const auto table = geobem::read_csv_table(path.string(), true);
    geobem::require_columns(table, {"a", "b"});
  });
  return geobem::fuzz::refusal_is_fine([&] { geobem::read_csv_table(path.string(), false); });
}

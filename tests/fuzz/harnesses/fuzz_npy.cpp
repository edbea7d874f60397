// NumPy .npy systems (mesh/io/npy_file.cpp): the header and sizes of a
// 2 x 2 complex128 array; the CRC is the one of the input, so that inputs
// that pass the header reach the data checks.
#include <zlib.h>

#include <complex>
#include <vector>

#include "mesh/io/npy_file.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = geobem::fuzz::input_file(data, size, ".npy");
  const auto crc = static_cast<std::uint32_t>(crc32(crc32(0L, Z_NULL, 0), data, static_cast<uInt>(size)));
  std::vector<std::complex<double>> values(4);
  return geobem::fuzz::refusal_is_fine([&] {
    geobem::read_npy_complex(path, 2, 2, crc, {{values.data(), 1}, {values.data() + 1, 3}});
  });
}

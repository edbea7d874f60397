#include "mesh/io/npy_file.hpp"

#include <zlib.h>

#include <cstring>
#include <fstream>
#include <stdexcept>
#include <string>

#include "gpu/core/atomic_file.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/regular_file.hpp"

namespace geobem {

namespace {

// numpy.lib.format version 1.0: magic, version, uint16 little-endian header
// length, then an ASCII dict padded with spaces and ended by '\n' so that the
// data starts at a multiple of 64 bytes.
const char magic[] = "\x93NUMPY";
constexpr std::size_t magic_length = 6, preamble_length = 10;

std::string header_text(std::size_t rows, std::size_t columns) {
  std::string dict = "{'descr': '<c16', 'fortran_order': True, 'shape': (" + std::to_string(rows) + ", " +
                     std::to_string(columns) + "), }";
  const std::size_t total = (preamble_length + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - preamble_length - dict.size() - 1, ' ');
  dict += '\n';
  return dict;
}

std::size_t total_count(std::size_t rows, std::size_t columns, std::size_t parts_count) {
  if (parts_count != rows * columns)
    throw InputError("npy array of " + std::to_string(rows) + " x " + std::to_string(columns) +
                     " values given " + std::to_string(parts_count) + " values");
  return parts_count;
}

std::uint32_t crc_update(std::uint32_t crc, const void* data, std::size_t bytes) {
  const auto* p = static_cast<const Bytef*>(data);
  while (bytes > 0) {
    const auto chunk = static_cast<uInt>(std::min<std::size_t>(bytes, 1u << 30));
    crc = static_cast<std::uint32_t>(crc32(crc, p, chunk));
    p += chunk;
    bytes -= chunk;
  }
  return crc;
}

}  // namespace

std::uint32_t write_npy_complex(const std::filesystem::path& path, std::size_t rows, std::size_t columns,
                                const ComplexParts& parts) {
  std::size_t count = 0;
  for (const auto& part : parts) count += part.second;
  total_count(rows, columns, count);
  const std::string dict = header_text(rows, columns);
  std::string preamble(magic, magic_length);
  preamble += '\x01';
  preamble += '\x00';
  preamble += static_cast<char>(dict.size() & 0xff);
  preamble += static_cast<char>(dict.size() >> 8);
  preamble += dict;

  AtomicFile file(path);
  std::uint32_t crc = static_cast<std::uint32_t>(crc32(0L, Z_NULL, 0));
  file.write([&](std::ostream& out) {
    out.write(preamble.data(), static_cast<std::streamsize>(preamble.size()));
    crc = crc_update(crc, preamble.data(), preamble.size());
    // complex128 '<c16' is the host's layout on the little-endian machines we build for.
    for (const auto& part : parts) {
      const std::size_t bytes = part.second * sizeof(std::complex<double>);
      out.write(reinterpret_cast<const char*>(part.first), static_cast<std::streamsize>(bytes));
      crc = crc_update(crc, part.first, bytes);
    }
  });
  file.commit();
  return crc;
}

void read_npy_complex(const std::filesystem::path& path, std::size_t rows, std::size_t columns,
                      std::uint32_t expected_crc32, const MutableComplexParts& parts) {
  std::size_t count = 0;
  for (const auto& part : parts) count += part.second;
  total_count(rows, columns, count);
  const std::string name = path.string();
  require_regular_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(name + ": cannot open (missing matrix file?)");
  char preamble[preamble_length];
  if (!in.read(preamble, preamble_length) || std::memcmp(preamble, magic, magic_length) != 0)
    throw std::runtime_error(name + ": not a NumPy .npy file");
  if (preamble[6] != 1)
    throw std::runtime_error(name + ": .npy format version " + std::to_string(int(preamble[6])) + ", expected 1");
  const std::size_t header_length =
      static_cast<unsigned char>(preamble[8]) | (static_cast<std::size_t>(static_cast<unsigned char>(preamble[9])) << 8);
  std::string dict(header_length, '\0');
  if (!in.read(dict.data(), static_cast<std::streamsize>(header_length)))
    throw std::runtime_error(name + ": truncated .npy header");
  if (dict != header_text(rows, columns)) {
    const auto end = dict.find('}');
    throw std::runtime_error(name + ": .npy header " + dict.substr(0, end == std::string::npos ? 80 : end + 1) +
                             " does not describe a " + std::to_string(rows) + " x " + std::to_string(columns) +
                             " complex128 Fortran-order array");
  }
  std::uint32_t crc = static_cast<std::uint32_t>(crc32(0L, Z_NULL, 0));
  crc = crc_update(crc, preamble, preamble_length);
  crc = crc_update(crc, dict.data(), dict.size());
  for (const auto& part : parts) {
    const std::size_t bytes = part.second * sizeof(std::complex<double>);
    if (!in.read(reinterpret_cast<char*>(part.first), static_cast<std::streamsize>(bytes)))
      throw std::runtime_error(name + ": truncated (" + std::to_string(rows * columns) +
                               " complex128 values expected)");
    crc = crc_update(crc, part.first, bytes);
  }
  if (in.peek() != std::char_traits<char>::eof())
    throw std::runtime_error(name + ": longer than its .npy header says");
  if (crc != expected_crc32)
    throw std::runtime_error(name + ": CRC-32 " + std::to_string(crc) + " differs from the manifest's " +
                             std::to_string(expected_crc32) + " (corrupt or replaced file)");
}

std::uint32_t file_crc32(const std::filesystem::path& path) {
  require_regular_file(path);
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path.string() + ": cannot open");
  std::uint32_t crc = static_cast<std::uint32_t>(crc32(0L, Z_NULL, 0));
  std::vector<char> buffer(1 << 20);
  while (in) {
    in.read(buffer.data(), static_cast<std::streamsize>(buffer.size()));
    crc = crc_update(crc, buffer.data(), static_cast<std::size_t>(in.gcount()));
  }
  if (in.bad()) throw std::runtime_error(path.string() + ": read error");
  return crc;
}

}  // namespace geobem

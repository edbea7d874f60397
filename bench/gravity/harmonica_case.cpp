// NumPy .npy format 1.0 (numpy.lib.format): magic "\x93NUMPY", version 1.0,
// little-endian uint16 header length, a Python dict literal padded with
// spaces and ended by '\n' so that the data starts at a multiple of 64 bytes.
#include "bench/gravity/harmonica_case.hpp"

#include <cstdint>
#include <fstream>
#include <stdexcept>

namespace geobem::bench {

void write_npy(const std::filesystem::path& path, std::size_t rows, std::size_t columns,
               const std::vector<double>& values) {
  std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                       std::to_string(columns) + "), }";
  const std::size_t preamble = 10;  // magic (6), version (2), header length (2)
  header.append(63 - (preamble + header.size()) % 64, ' ');
  header.push_back('\n');
  std::ofstream out(path, std::ios::binary);
  const std::uint16_t length = static_cast<std::uint16_t>(header.size());
  out.write("\x93NUMPY\x01\x00", 8);
  out.put(static_cast<char>(length & 0xff)).put(static_cast<char>(length >> 8));
  out << header;
  out.write(reinterpret_cast<const char*>(values.data()), std::streamsize(values.size() * sizeof(double)));
  if (!out) throw std::runtime_error(path.string() + ": cannot write");
}

void write_harmonica_case(const std::filesystem::path& dir, const std::vector<gravity::Prism>& prisms,
                          const std::vector<gravity::Station>& stations, const std::vector<double>& fields,
                          const std::string& driver, const std::vector<std::pair<std::string, double>>& times) {
  std::filesystem::create_directories(dir);
  std::vector<double> rows;
  rows.reserve(prisms.size() * 7);
  for (const auto& p : prisms) rows.insert(rows.end(), {p.west, p.east, p.south, p.north, p.bottom, p.top, p.density});
  write_npy(dir / "prisms.npy", prisms.size(), 7, rows);
  rows.clear();
  for (const auto& s : stations) rows.insert(rows.end(), {s.easting, s.northing, s.upward});
  write_npy(dir / "stations.npy", stations.size(), 3, rows);
  write_npy(dir / "geobem.npy", fields.size() / stations.size(), stations.size(), fields);
  std::ofstream out(dir / "geobem.txt");
  out << "driver " << driver << '\n';
  for (const auto& [name, seconds] : times) out << name << ' ' << seconds << '\n';
  if (!out) throw std::runtime_error((dir / "geobem.txt").string() + ": cannot write");
}

}  // namespace geobem::bench

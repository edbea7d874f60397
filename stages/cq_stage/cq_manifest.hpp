#pragma once
// The manifest of geobem-assemble's output (docs/design.md#file-formats): an INI
// file that records the problem (mesh file and its CRC-32, boundary
// conditions, material, CQ settings, load history), the system size, and
// where the CQ systems are: one NumPy file per solved frequency l,
// system_LLLL.npy, holding the n × (n+1) complex128 array [A(s_l) | b_l]
// (column-major; b_l the right-hand side for a unit load), with its CRC-32;
// or "in-memory" when they did not fit on disk and geobem-solve assembles
// them itself.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/bem/convolution_quadrature.hpp"
#include "stages/cq_stage/cq_problem.hpp"

namespace geobem::cq_stage {

struct CqManifest {
  std::filesystem::path mesh_file;  ///< absolute when read; written relative to the manifest's folder
  std::uint32_t mesh_crc32 = 0;
  std::size_t nodes = 0, triangles = 0;
  ConditionTexts conditions;
  double young_modulus = 0.0, poisson_ratio = 0.0, density = 0.0;
  bem::CqSettings cq;
  std::string load_history;
  int unknowns = 0, frequencies = 0;
  bool in_memory = false;
  std::uint64_t bytes_needed = 0;       ///< of the system files
  std::vector<std::uint32_t> system_crc32;  ///< one per frequency, files only
};

/// "system_0007.npy": the file of frequency l beside the manifest.
std::string system_file_name(int l);

/// Bytes of the system files of n unknowns and `frequencies` frequencies.
std::uint64_t system_file_bytes(int unknowns, int frequencies);

/// Writes the manifest atomically. Throws std::runtime_error naming the path.
void write_cq_manifest(const std::filesystem::path& path, const CqManifest& manifest);

/// Reads and checks a manifest (format name and version, every key present
/// and valid, one CRC per frequency for files). Throws std::runtime_error
/// naming the file and the key.
CqManifest read_cq_manifest(const std::filesystem::path& path);

}  // namespace geobem::cq_stage

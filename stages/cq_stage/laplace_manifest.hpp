#pragma once
// The manifest of geobem-laplace's output set: an INI file that records the
// problem (mesh file and its CRC-32, boundary conditions, material, CQ
// settings), the system size, and the Laplace-domain solution files: for each
// unit load case k, laplace_caseK.npy, the n × F complex128 array x̂ (Fortran
// order; column l is CQ frequency l = 0…⌊(N+1)/2⌋, rows the unknowns) with its
// CRC-32; and, when exported, the dense systems. A CRC-32 of all these values
// closes the file, so that an edited value (a time step, a modulus) is
// refused instead of silently describing solutions computed with another.
// It also records how the systems were solved: dense, or hierarchical with
// the tolerance asked and, per frequency, GMRES's steps, the compression's
// error estimate and the final relative residual.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "gpu/bem/convolution_quadrature.hpp"
#include "gpu/bem/cq_solver.hpp"
#include "stages/cq_stage/cq_problem.hpp"

namespace geobem::cq_stage {

struct LaplaceManifest {
  /// The fundamental solution's name (bem::shipped_fundamental_solutions()).
  std::string fundamental_solution;
  std::filesystem::path mesh_file;  ///< absolute when read; written relative to the manifest's folder
  std::uint32_t mesh_crc32 = 0;
  std::size_t nodes = 0, triangles = 0;
  ConditionTexts conditions;
  double young_modulus = 0.0, poisson_ratio = 0.0, density = 0.0;
  bem::CqSettings cq;
  int unknowns = 0, frequencies = 0;
  std::vector<std::string> load_case_groups;      ///< the loaded group of each case
  std::vector<std::uint32_t> solution_crc32;      ///< of laplace_caseK.npy, one per case
  std::vector<std::uint32_t> system_crc32;        ///< of systems/system_LLLL.npy when exported, else empty
  std::string solver = "dense";                   ///< how the systems were solved: dense or hierarchical
  double compression_tolerance = 0.0;             ///< hierarchical: the tolerance asked (0 for dense)
  std::vector<bem::FrequencySolve> solves;        ///< hierarchical: GMRES's steps and errors per frequency
};

/// "laplace_case0.npy": the Laplace-domain solution of load case k.
std::string solution_file_name(int load_case);
/// "systems/system_0007.npy": the exported dense system [A(s_l) | B_l] of frequency l.
std::string system_file_name(int l);

/// Bytes of one solution file (n × F complex128 and its header).
std::uint64_t solution_file_bytes(int unknowns, int frequencies);
/// Bytes of the Laplace-domain solutions of every case in memory
/// (cases × F × n complex128); UINT64_MAX when the product overflows.
std::uint64_t solution_memory_bytes(int unknowns, int frequencies, int load_cases);
/// Bytes of the exported dense systems: F files of n × (n + cases) complex128.
std::uint64_t system_file_bytes(int unknowns, int load_cases, int frequencies);

/// Writes the manifest atomically. Throws std::runtime_error naming the path.
void write_laplace_manifest(const std::filesystem::path& path, const LaplaceManifest& manifest);

/// Reads and checks a manifest: format name and version, every key present
/// and valid, the values' checksum, a fundamental solution this build knows. Throws std::runtime_error naming the
/// file and the key (or the checksum: "edited").
LaplaceManifest read_laplace_manifest(const std::filesystem::path& path);

}  // namespace geobem::cq_stage

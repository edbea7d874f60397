#pragma once
// The case that bench/gravity/harmonica_peer.py reads to run Harmonica's
// prism_gravity on the same prisms and stations as geobem, so that both
// codes' times and values are compared on one machine (bench/RESULTS.md).
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "gpu/gravity/prism.hpp"

namespace geobem::bench {

/// Writes a rows × columns float64 array in C order as .npy (format 1.0).
/// Throws std::runtime_error naming the path when it cannot be written.
void write_npy(const std::filesystem::path& path, std::size_t rows, std::size_t columns,
               const std::vector<double>& values);

/// Writes into `dir` (created if missing):
///   prisms.npy   (P, 7) float64: west, east, south, north, bottom, top (m), density (kg/m³)
///   stations.npy (S, 3) float64: easting, northing, upward (m)
///   geobem.npy   (10, S) float64: `fields[f * S + s]`, field f in docs/design.md's
///                order and units (J/kg, mGal, Eötvös)
///   geobem.txt   "driver DRIVER" (cuda or cpu), then one line "NAME SECONDS"
///                per entry of `times`
/// NumPy format 1.0, C order, little-endian. Throws std::runtime_error naming
/// a file that cannot be written.
void write_harmonica_case(const std::filesystem::path& dir, const std::vector<gravity::Prism>& prisms,
                          const std::vector<gravity::Station>& stations, const std::vector<double>& fields,
                          const std::string& driver, const std::vector<std::pair<std::string, double>>& times);

}  // namespace geobem::bench

#pragma once
// NumPy .npy files (format version 1.0, numpy.lib.format) of complex128
// matrices in Fortran (column-major) order: the intermediate arrays of the
// BEM stages (docs/design.md#file-formats), readable with numpy.load().
#include <complex>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <utility>
#include <vector>

namespace geobem {

/// Consecutive pieces of one column-major array: (first value, value count).
using ComplexParts = std::vector<std::pair<const std::complex<double>*, std::size_t>>;
using MutableComplexParts = std::vector<std::pair<std::complex<double>*, std::size_t>>;

/// Writes a rows × columns complex128 array ('<c16', fortran_order True)
/// whose values are `parts` one after the other (their counts must add up to
/// rows·columns), atomically. Returns the CRC-32 (zlib) of the whole file.
/// Throws InputError for a count mismatch and std::runtime_error
/// naming the path when the file cannot be written.
std::uint32_t write_npy_complex(const std::filesystem::path& path, std::size_t rows, std::size_t columns,
                                const ComplexParts& parts);

/// Reads a file write_npy_complex wrote into `parts` (counts adding up to
/// rows·columns). Throws std::runtime_error naming the file when it is
/// missing, is not a .npy file, holds another type, order or shape than
/// expected, is truncated or longer, or its CRC-32 differs from
/// `expected_crc32` (a corrupt or replaced file).
void read_npy_complex(const std::filesystem::path& path, std::size_t rows, std::size_t columns,
                      std::uint32_t expected_crc32, const MutableComplexParts& parts);

/// CRC-32 (zlib) of a whole file; throws std::runtime_error naming it when unreadable.
std::uint32_t file_crc32(const std::filesystem::path& path);

}  // namespace geobem

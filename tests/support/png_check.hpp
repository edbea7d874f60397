#pragma once
// What a workflow's plot stage must leave: a PNG that a decoder reads
// (matplotlib's, in Debian's /usr/bin/python3, which draws the plots), of a
// size a screen shows whole, with a picture in it (many colours, not a blank
// or half-drawn canvas).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/test_files.hpp"

namespace geobem::test {

/// Whether Debian's python3 has what the plot stages need (scripts/setup.sh
/// installs python3-matplotlib).
inline bool plots_can_run() { return run_command("/usr/bin/python3 -c 'import matplotlib'").exit_code == 0; }

/// Expects `png` to be a PNG file (signature, IHDR first, IEND last) of
/// 600–4000 × 300–3000 pixels and more than 20 kB that matplotlib decodes
/// to the same size with at least 64 distinct colours.
inline void expect_plot_png(const std::filesystem::path& png) {
  SCOPED_TRACE(png.string());
  ASSERT_TRUE(std::filesystem::is_regular_file(png));
  const std::string bytes = read_text(png);
  ASSERT_GT(bytes.size(), 20000u);
  ASSERT_EQ(bytes.substr(0, 8), std::string("\x89PNG\r\n\x1a\n", 8));
  ASSERT_EQ(bytes.substr(12, 4), "IHDR");
  const auto big_endian = [&](std::size_t at) {
    unsigned long value = 0;
    for (std::size_t k = 0; k < 4; ++k) value = value << 8 | static_cast<unsigned char>(bytes[at + k]);
    return value;
  };
  const unsigned long width = big_endian(16), height = big_endian(20);
  EXPECT_GE(width, 600u);
  EXPECT_LE(width, 4000u);
  EXPECT_GE(height, 300u);
  EXPECT_LE(height, 3000u);
  EXPECT_EQ(bytes.substr(bytes.size() - 8, 4), "IEND");
  // The decoder's view: its size and the number of distinct colours, on stderr.
  const StageRun decoded = run_command(
      "/usr/bin/python3 -c 'import sys, numpy, matplotlib.image as image; a = image.imread(sys.argv[1]); "
      "print(a.shape[1], a.shape[0], len(numpy.unique(a.reshape(-1, a.shape[2]), axis=0)), file=sys.stderr)' " +
      png.string());
  ASSERT_EQ(decoded.exit_code, 0) << decoded.errors;
  std::istringstream words(decoded.errors);
  unsigned long decoded_width = 0, decoded_height = 0, colours = 0;
  words >> decoded_width >> decoded_height >> colours;
  EXPECT_EQ(decoded_width, width);
  EXPECT_EQ(decoded_height, height);
  EXPECT_GE(colours, 64u) << "a blank or nearly blank picture";
}

}  // namespace geobem::test

#pragma once
// The comparison of two station CSVs written by geobem-gravity or
// geobem-magnetic (easting, northing, upward, then one column per field):
// the measure of gpu/core/relative_difference.hpp, field by field.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "mesh/io/csv_table.hpp"

namespace geobem::test {

/// The largest over the field columns of max |a − reference| / max |reference|.
/// Fails the test when the two files differ in columns or rows, or when a
/// reference column is all zero (it would compare nothing).
inline double largest_field_difference(const std::filesystem::path& a_csv, const std::filesystem::path& reference_csv) {
  const auto a = read_csv_table(a_csv.string()), reference = read_csv_table(reference_csv.string());
  EXPECT_EQ(a.columns, reference.columns);
  EXPECT_EQ(a.rows.size(), reference.rows.size());
  const std::size_t rows = std::min(a.rows.size(), reference.rows.size());
  double worst = 0;
  for (std::size_t j = 3; j < reference.columns.size(); ++j) {
    double largest = 0, difference = 0;
    for (std::size_t i = 0; i < rows; ++i) {
      largest = std::max(largest, std::abs(reference.rows[i][j]));
      difference = std::max(difference, std::abs(a.rows[i][j] - reference.rows[i][j]));
    }
    EXPECT_GT(largest, 0.0) << reference.columns[j] << " of " << reference_csv;
    worst = std::max(worst, difference / largest);
  }
  return worst;
}

}  // namespace geobem::test

// Numbers as the stages write them (mesh/io/number_text.hpp): the shortest
// text that reads back exactly, checked against strtod and against the
// length of printf's correctly rounded %.Ng with the fewest digits that
// reads back, on random doubles over the whole range (fixed seed,
// log-uniform magnitudes, both signs, subnormals and the edges) and on
// decimals as a user types them.
#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "mesh/io/number_text.hpp"
#include "mesh/io/parse_number.hpp"

namespace {

/// printf's correctly rounded %.Ng with the fewest digits N that reads
/// back as `value` (N is at most 17 for any double).
std::string fewest_printf_digits(double value) {
  char text[40];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_shortest(double value) {
  const std::string text = geobem::shortest_text(value);
  const auto back = geobem::parse_number(text);
  ASSERT_TRUE(back.has_value()) << text;
  EXPECT_TRUE(same_bits(*back, value)) << text << " for " << value;
  // Never longer than printf's shortest exact %g form: 22000, not 2.2e+04.
  EXPECT_LE(text.size(), fewest_printf_digits(value).size()) << text;
  std::ostringstream stream;
  stream.precision(3);  // the stream's precision plays no part
  stream << geobem::shortest(value);
  EXPECT_EQ(stream.str(), text);
}

TEST(NumberText, UserDecimalsReadAsGiven) {
  EXPECT_EQ(geobem::shortest_text(0.1), "0.1");
  EXPECT_EQ(geobem::shortest_text(0.3), "0.3");
  EXPECT_EQ(geobem::shortest_text(1.1), "1.1");
  EXPECT_EQ(geobem::shortest_text(22000), "22000");
  EXPECT_EQ(geobem::shortest_text(-5), "-5");
  EXPECT_EQ(geobem::shortest_text(1e-6), "1e-06");
  EXPECT_EQ(geobem::shortest_text(6.6743e-11), "6.6743e-11");
  EXPECT_EQ(geobem::shortest_text(0.1 + 0.2), "0.30000000000000004");  // a computed value keeps its digits
  EXPECT_EQ(geobem::shortest_text(0.0), "0");
  EXPECT_EQ(geobem::shortest_text(-0.0), "-0");
  EXPECT_EQ(geobem::shortest_text(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(geobem::shortest_text(-std::numeric_limits<double>::infinity()), "-inf");
  // Read back as tables that allow non-finite values read it (integrals' failed rows).
  const auto nan = geobem::parse_number(geobem::shortest_text(std::numeric_limits<double>::quiet_NaN()), true);
  ASSERT_TRUE(nan.has_value());
  EXPECT_TRUE(std::isnan(*nan));
}

TEST(NumberText, RandomDoublesReadBackExactlyInTheFewestDigits) {
  std::mt19937_64 random(20261129);
  std::uniform_real_distribution<double> exponent(-307.0, 308.0), unit(0.0, 1.0);
  std::vector<double> values = {DBL_MIN,  DBL_MAX, -DBL_MAX,  std::numeric_limits<double>::denorm_min(),
                                DBL_EPSILON, 1.0,  1.0 / 3.0, 2.0 / 3.0, 5e-324, 4.9406564584124654e-324,
                                9007199254740993.0, 1e23, 8.41e21, 5e-310};
  for (int k = 0; k < 20000; ++k) {
    const double magnitude = std::pow(10.0, exponent(random)) * (1.0 + unit(random));
    values.push_back(k % 2 ? -magnitude : magnitude);
  }
  for (int k = 0; k < 2000; ++k) values.push_back(std::ldexp(unit(random), -1074 + k % 52));  // subnormals
  for (const double value : values) expect_shortest(value);
}

TEST(NumberText, TypedDecimalsComeBackAsTyped) {
  // A decimal of up to 15 significant digits survives a round trip through
  // a double, so printf gives back the typed digits and the shortest text
  // is no longer than that.
  std::mt19937_64 random(33);
  std::uniform_int_distribution<int> digits(1, 15), exponent(-30, 30);
  for (int k = 0; k < 20000; ++k) {
    const int count = digits(random);
    std::string mantissa;
    for (int d = 0; d < count; ++d) mantissa += static_cast<char>('0' + (d == 0 ? 1 + random() % 9 : random() % 10));
    const std::string typed = mantissa.substr(0, 1) + "." + mantissa.substr(1) + "e" + std::to_string(exponent(random));
    const double value = std::strtod(typed.c_str(), nullptr);
    char as_typed[40];
    std::snprintf(as_typed, sizeof as_typed, "%.*g", count, value);
    const std::string text = geobem::shortest_text(value);
    EXPECT_LE(text.size(), std::string(as_typed).size()) << typed << " -> " << text;
    EXPECT_EQ(std::strtod(text.c_str(), nullptr), value) << typed << " -> " << text;
  }
}

}  // namespace

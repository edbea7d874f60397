// Prism CSV reader: valid files and every bad-input case (missing or
// unreadable file, bad header, wrong field count, non-numbers, bad bounds),
// each named by file and line.
#include <gtest/gtest.h>

#include "mesh/prisms/prism_csv.hpp"
#include "mesh/prisms/read_prism_model.hpp"
#include "tests/support/test_files.hpp"

using namespace geobem::prisms;
using geobem::test::CaseName;
using geobem::test::error_of;
using geobem::test::write_text;

namespace {

const char* const header = "west,east,south,north,bottom,top,density\n";

TEST(PrismCsv, ReadsRowsCommentsAndAnyColumnOrder) {
  const auto path = write_text("order.csv",
                               "# two prisms\n"
                               "density,top,bottom,north,south,east,west\n"
                               "2670,-146,-345,14,-18,5,-34\n"
                               "\n"
                               "# a comment between rows\n"
                               "0, -30, -180, 45, -45, 134, 5\n");
  PrismModel model = read_prism_model(path.string());
  ASSERT_EQ(model.prisms.size(), 2u);
  const Prism& p = model.prisms[0];
  EXPECT_EQ(p.west, -34);
  EXPECT_EQ(p.east, 5);
  EXPECT_EQ(p.south, -18);
  EXPECT_EQ(p.north, 14);
  EXPECT_EQ(p.bottom, -345);
  EXPECT_EQ(p.top, -146);
  EXPECT_EQ(p.density, 2670);
  EXPECT_FALSE(model.grid.has_value());
  EXPECT_EQ(drop_zero_density(model), 1u);
  EXPECT_EQ(model.zero_density_dropped, 1u);
  ASSERT_EQ(model.prisms.size(), 1u);
  EXPECT_EQ(model.prisms[0].density, 2670);
}

TEST(PrismCsv, WriterRoundTripsExactly) {
  const std::vector<Prism> prisms{{0.1, 0.7, -1.0 / 3.0, 2.0 / 3.0, -1e4, -1e-3, 2670.123456789012},
                                  {-5, 5, -5, 5, -10, 0, -300}};
  const auto path = geobem::test::scratch("written.csv");
  write_prism_csv(path, prisms);
  const auto back = read_prism_csv(path.string()).prisms;
  ASSERT_EQ(back.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(back[i].west, prisms[i].west);
    EXPECT_EQ(back[i].south, prisms[i].south);
    EXPECT_EQ(back[i].north, prisms[i].north);
    EXPECT_EQ(back[i].top, prisms[i].top);
    EXPECT_EQ(back[i].density, prisms[i].density);
  }
}

struct BadCsv {
  const char* name;
  const char* body;       // rows after the header; the bad one is on line 3
  const char* expected;   // part of the message besides FILE:3
};

class PrismCsvBad : public ::testing::TestWithParam<BadCsv> {};

TEST_P(PrismCsvBad, MessageNamesFileLineAndProblem) {
  const auto path = write_text(std::string("bad_") + GetParam().name + ".csv",
                               std::string(header) + "0,1,0,1,-1,0,100\n" + GetParam().body);
  const std::string message = error_of([&] { read_prism_model(path.string()); });
  EXPECT_NE(message.find(path.string() + ":3"), std::string::npos) << message;
  EXPECT_NE(message.find(GetParam().expected), std::string::npos) << message;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PrismCsvBad,
    ::testing::Values(BadCsv{"west_east", "5,5,0,1,-1,0,100\n", "west (5) must be less than east (5)"},
                      BadCsv{"south_north", "0,1,3,2,-1,0,100\n", "south (3) must be less than north (2)"},
                      BadCsv{"bottom_top", "0,1,0,1,0,-1,100\n", "bottom (0) must be less than top (-1)"},
                      BadCsv{"nan_density", "0,1,0,1,-1,0,nan\n", "'density'"},
                      BadCsv{"inf_density", "0,1,0,1,-1,0,inf\n", "'inf' is not a number"},
                      BadCsv{"overflowing_density", "0,1,0,1,-1,0,1e999\n", "value '1e999' is not finite"},
                      BadCsv{"hexadecimal_density", "0,1,0,1,-1,0,0x10\n", "'0x10' is not a number"},
                      BadCsv{"short_row", "0,1,0,1,-1,0\n", "expected 7 fields, found 6"},
                      BadCsv{"text", "0,1,zero,1,-1,0,100\n", "'zero' is not a number"}),
    CaseName());

TEST(PrismCsv, MissingFileAndColumnAreNamed) {
  const std::string missing = geobem::test::scratch("no_such_model.csv").string();
  EXPECT_NE(error_of([&] { read_prism_model(missing); }).find(missing + ": no such file"), std::string::npos);
  const auto path = write_text("no_top.csv", "west,east,south,north,bottom,density\n0,1,0,1,-1,5\n");
  EXPECT_NE(error_of([&] { read_prism_model(path.string()); }).find("missing column 'top'"), std::string::npos);
}

TEST(PrismModelFiles, UnknownTypeAndMisplacedUbcModelAreErrors) {
  const auto path = write_text("model.txt", "1 1 1\n");
  EXPECT_NE(error_of([&] { read_prism_model(path.string()); }).find("unknown prism model type '.txt'"),
            std::string::npos);
  const auto csv = write_text("with_ubc.csv", std::string(header));
  EXPECT_NE(error_of([&] { read_prism_model(csv.string(), path.string()); }).find("goes with a UBC mesh"),
            std::string::npos);
}

}  // namespace

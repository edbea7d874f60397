// Prescribed tractions from their option text: P d/|d| against the unit
// vectors written out by hand, for directions of every scale a double holds
// (where |d| itself overflows or underflows), and the errors.
#include <gtest/gtest.h>

#include <cmath>

#include "mesh/loads/traction_load.hpp"
#include "tests/support/test_files.hpp"

using namespace geobem;
using geobem::test::error_of;

TEST(TractionLoad, MagnitudeAlongTheUnitDirection) {
  const auto load = loads::parse_traction_load(" x_max = 1e6 : 3, 0, -4");
  EXPECT_EQ(load.group, "x_max");
  EXPECT_DOUBLE_EQ(load.traction[0], 0.6e6);
  EXPECT_EQ(load.traction[1], 0.0);
  EXPECT_DOUBLE_EQ(load.traction[2], -0.8e6);
}

TEST(TractionLoad, DirectionsWhoseLengthOverflowsOrUnderflowsKeepTheirDirection) {
  // |d| of (1e300, 1e300, 0) is 1.4e300, but d·d overflows to inf: a naive
  // d/sqrt(d·d) is the zero vector. Likewise d·d underflows to 0 for 1e-200.
  const double half_root = 1.0 / std::sqrt(2.0), third_root = 1.0 / std::sqrt(3.0);
  for (const double scale : {1e-320, 1e-200, 1e-5, 1.0, 1e5, 1e200, 1e300, 1.7e308}) {
    SCOPED_TRACE(scale);
    char text[120];
    std::snprintf(text, sizeof text, "end=2:%.17g,%.17g,0", scale, scale);
    auto t = loads::parse_traction_load(text).traction;
    EXPECT_NEAR(t[0], 2 * half_root, 4e-16);
    EXPECT_NEAR(t[1], 2 * half_root, 4e-16);
    EXPECT_EQ(t[2], 0.0);
    std::snprintf(text, sizeof text, "end=-1e308:%.17g,%.17g,%.17g", -scale, scale, -scale);
    t = loads::parse_traction_load(text).traction;
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(t[c] / 1e308, (c == 1 ? -1 : 1) * third_root, 4e-16);
  }
}

TEST(TractionLoad, ErrorsNameTheText) {
  EXPECT_EQ(error_of([] { loads::parse_traction_load("x_max=1e6"); }),
            "traction 'x_max=1e6': expected GROUP=P:DX,DY,DZ (P in Pa along the direction DX,DY,DZ)");
  EXPECT_EQ(error_of([] { loads::parse_traction_load("a,b=1:1,0,0"); }),
            "traction 'a,b=1:1,0,0': name one group before '='");
  EXPECT_EQ(error_of([] { loads::parse_traction_load("a=1:1e300,1e999,0"); }),
            "traction 'a=1:1e300,1e999,0': '1e999' is not a finite number");
  EXPECT_EQ(error_of([] { loads::parse_traction_load("a=nan:1,0,0"); }),
            "traction 'a=nan:1,0,0': 'nan' is not a finite number");
  EXPECT_EQ(error_of([] { loads::parse_traction_load("a=1,2:1,0,0"); }),
            "traction 'a=1,2:1,0,0': expected one magnitude P (Pa) between '=' and ':'");
  EXPECT_EQ(error_of([] { loads::parse_traction_load("a=1:1,0"); }),
            "traction 'a=1:1,0': expected three direction components DX,DY,DZ after ':'");
  EXPECT_EQ(error_of([] { loads::parse_traction_load("a=1:0,-0,0"); }),
            "traction 'a=1:0,-0,0': the direction is the zero vector");
}

// Generators: counts and volumes against closed forms (sphere volume 4/3 π r³,
// box volumes) and the paper's count of non-zero prisms.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu/core/math_constants.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "tests/support/test_files.hpp"

using namespace geobem::prisms;

namespace {


TEST(SphereGrid, VolumeOfOneSphereConvergesToFourThirdsPiRCubed) {
  const Sphere sphere{50, 50, -50, 30, 250};
  const double exact = 4.0 / 3.0 * geobem::kPi * 30 * 30 * 30;
  const GridSpec spec{0, 100, 0, 100, -100, 0, 100, 100, 100};  // 1 m cells
  const PrismModel model = model_from_grid(sphere_grid(spec, {sphere}), "one sphere");
  EXPECT_NEAR(total_volume(model.prisms) / exact, 1.0, 2e-3);
  EXPECT_EQ(model.prisms.size() + model.zero_density_dropped, 1000000u);
  for (const Prism& p : model.prisms) {
    const double e = 0.5 * (p.west + p.east) - 50, n = 0.5 * (p.south + p.north) - 50, u = 0.5 * (p.bottom + p.top) + 50;
    ASSERT_LE(e * e + n * n + u * u, 30.0 * 30.0);
    ASSERT_EQ(p.density, 250);
  }
}

TEST(SphereGrid, PaperGridHasTheSeedCountOfNonZeroPrisms) {
  // Couder-Castaneda et al. (2013): 700 x 700 x 50 cells, 251,946 non-zero prisms.
  const PrismGrid grid = sphere_grid(couder_grid(), couder_spheres());
  EXPECT_EQ(grid.cell_count(), 24500000u);
  std::size_t non_zero = 0;
  for (double d : grid.density) non_zero += d != 0.0;
  EXPECT_NEAR(static_cast<double>(non_zero), 251946.0, 0.001 * 251946.0);
  // Seven distinct density contrasts, all present.
  std::vector<double> densities;
  for (const Sphere& s : couder_spheres()) densities.push_back(s.density);
  ASSERT_EQ(densities.size(), 7u);
  for (double d : densities) EXPECT_NE(std::find(grid.density.begin(), grid.density.end(), d), grid.density.end()) << d;
}

TEST(SphereGrid, SpheresAreInsideTheGridAndDisjoint) {
  const GridSpec spec = couder_grid();
  const auto spheres = couder_spheres();
  for (std::size_t i = 0; i < spheres.size(); ++i) {
    const Sphere& a = spheres[i];
    EXPECT_GE(a.easting - a.radius, spec.west);
    EXPECT_LE(a.easting + a.radius, spec.east);
    EXPECT_GE(a.northing - a.radius, spec.south);
    EXPECT_LE(a.northing + a.radius, spec.north);
    EXPECT_GE(a.upward - a.radius, spec.bottom);
    EXPECT_LE(a.upward + a.radius, spec.top);
    for (std::size_t j = i + 1; j < spheres.size(); ++j) {
      const Sphere& b = spheres[j];
      EXPECT_GT(std::hypot(a.easting - b.easting, a.northing - b.northing, a.upward - b.upward), a.radius + b.radius);
    }
  }
}

TEST(SphereGrid, BadSpecsAreRejected) {
  EXPECT_NE(geobem::test::error_of([] { sphere_grid(couder_grid(0, 10, 10), couder_spheres()); }).find("0x10x10"),
            std::string::npos);
  EXPECT_THROW(sphere_grid(GridSpec{1, 0, 0, 1, -1, 0, 2, 2, 2}, {}), std::invalid_argument);
  EXPECT_THROW(sphere_grid(couder_grid(10, 10, 10), {Sphere{1, 1, -1, 0, 100}}), std::invalid_argument);
}

TEST(BlockModel, ExactVolumesAndCheckedBoxes) {
  PrismModel model = block_model({{0, 10, 0, 20, -30, 0, 500}, {100, 101, 0, 1, -1, 0, 0}});
  EXPECT_EQ(model.prisms.size(), 2u);
  EXPECT_EQ(drop_zero_density(model), 1u);
  EXPECT_DOUBLE_EQ(total_volume(model.prisms), 6000.0);
  EXPECT_NE(geobem::test::error_of([] { block_model({{0, 1, 0, 1, -1, 0, 1}, {0, 1, 0, 1, 0, 0, 1}}); })
                .find("block 2: bottom (0) must be less than top (0)"),
            std::string::npos);
}

}  // namespace

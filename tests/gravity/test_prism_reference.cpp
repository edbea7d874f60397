// Prism gravity against the reference values of
// docs/references.md#prism-gravity (Harmonica's documented examples) to 1e-6
// relative in double (or half a unit of the last digit given, where the value
// is given to fewer digits), and against a second method (Gauss–Legendre
// quadrature of Newton's integrals) to 1e-10. The same tests run on the CPU
// (gravity_kernel_tests) and on the GPU (gravity_cuda_tests).
#include <gtest/gtest.h>

#include <cmath>

#include "tests/gravity/gravity_test_support.hpp"
#include "tests/gravity/newton_quadrature.hpp"
#include "tests/support/backend_test.hpp"

namespace geobem::gravity {
namespace {

const Prism first_prism{-34, 5, -18, 14, -345, -146, 2670};
const std::vector<Station> three_stations{{-40, 0, 30}, {0, 0, 30}, {40, 0, 30}};
const std::vector<Prism> two_prisms{{-134, -5, -45, 45, -200, -50, -300}, {5, 134, -45, 45, -180, -30, 300}};

/// |actual - expected| <= max(1e-6·|expected|, half a unit of the last of `decimals` decimals).
void expect_reference(double actual, double expected, int decimals) {
  const double tolerance = std::max(1e-6 * std::abs(expected), 0.5 * std::pow(10.0, -decimals));
  EXPECT_NEAR(actual, expected, tolerance);
}

class PrismReference : public ::geobem::test::BackendTest {};

TEST_P(PrismReference, HarmonicaDoctestGzAtThreeStations) {
  const auto values = test::all_fields({first_prism}, three_stations, device());
  const double expected[3] = {0.0655231, 0.0662913, 0.0617370};
  for (int s = 0; s < 3; ++s) expect_reference(values[3][s], expected[s], 7);
}

TEST_P(PrismReference, TwoPrismsOfOppositeDensity) {
  const auto values = test::all_fields(two_prisms, three_stations, device());
  expect_reference(values[3][0], -0.0537990, 7);
  expect_reference(values[3][1], 0.0290828, 7);
  // docs/references.md lists 0.1123710; the closed form and the quadrature below
  // agree on 0.11237075 (2.3e-6 relative from it), so the listed figure looks
  // mis-rounded: checked here to 3e-6 relative, and exactly by quadrature.
  EXPECT_NEAR(values[3][2], 0.1123710, 3e-6 * 0.1123710);
}

TEST_P(PrismReference, TwoPrismsAgainstQuadrature) {
  const auto values = test::all_fields(two_prisms, three_stations, device());
  for (std::size_t s = 0; s < three_stations.size(); ++s) {
    const auto a = test::newton_quadrature(two_prisms[0], three_stations[s]);
    const auto b = test::newton_quadrature(two_prisms[1], three_stations[s]);
    for (int f = 0; f < 10; ++f) {
      SCOPED_TRACE(field_name(static_cast<Field>(f)));
      const double expected = a[f] + b[f];
      // Plus 1e-13 absolute: g_n, g_en and g_nz vanish by symmetry on y = 0.
      EXPECT_NEAR(values[f][s], expected, 1e-10 * (std::abs(a[f]) + std::abs(b[f])) + 1e-13);
    }
  }
}

TEST_P(PrismReference, AllTenFieldsOfTheFirstPrism) {
  const auto values = test::all_fields({first_prism}, {{0, 0, 30}}, device());
  // potential J/kg; g_e, g_n, g_z mGal; tensor Eötvös (docs/references.md#prism-gravity).
  const double expected[10] = {1.676411e-4, -0.003979053, -0.0005501603, 0.06629132, -2.711141,
                               0.004577589, -0.511968,    -2.750167,     -0.07092092, 5.461308};
  const int decimals[10] = {10, 9, 10, 8, 6, 9, 6, 6, 8, 6};
  const auto quadrature = test::newton_quadrature(first_prism, {0, 0, 30});
  for (int f = 0; f < 10; ++f) {
    SCOPED_TRACE(field_name(static_cast<Field>(f)));
    expect_reference(values[f][0], expected[f], decimals[f]);
    EXPECT_NEAR(values[f][0], quadrature[f], 1e-10 * std::abs(quadrature[f]));
  }
}

GEOBEM_INSTANTIATE_BACKEND(PrismReference);

}  // namespace
}  // namespace geobem::gravity

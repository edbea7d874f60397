// Identities the closed forms must satisfy, independent of any stored value:
// Laplace's equation off the masses, the Bouguer slab limit, symmetry,
// central finite differences (potential -> g, g -> tensor), and the two ways
// of summing the edge pairs (vertex form, centre form) agreeing in double.
// The identities of forward_model run on the CPU (gravity_kernel_tests) and on
// the GPU (gravity_cuda_tests).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gpu/core/math_constants.hpp"
#include "gpu/gravity/prism_kernels.hpp"
#include "tests/gravity/gravity_test_support.hpp"
#include "tests/support/backend_test.hpp"

namespace geobem::gravity {
namespace {

const Prism prism{-34, 5, -18, 14, -345, -146, 2670};

class PrismIdentity : public ::geobem::test::BackendTest {};

TEST_P(PrismIdentity, LaplaceOffTheMasses) {
  const std::vector<Station> stations{{0, 0, 30}, {200, -150, -250}, {-40, 10, -100}, {3, -7, -400}, {-500, 600, 80}};
  const auto v = test::all_fields({prism}, stations, device());
  for (std::size_t s = 0; s < stations.size(); ++s) {
    const double trace = v[4][s] + v[7][s] + v[9][s];
    const double size = std::abs(v[4][s]) + std::abs(v[7][s]) + std::abs(v[9][s]);
    EXPECT_LT(std::abs(trace), 1e-10 * size) << "station " << s;
  }
}

TEST_P(PrismIdentity, PoissonInsideTheMass) {
  // Inside: g_ee + g_nn + g_zz = -∇²U ... with U the potential of Harmonica
  // (positive), ∇²U = -4πGρ, so the trace of the tensor is -4πGρ·1e9 Eötvös.
  const auto v = test::all_fields({prism}, {{-10, 0, -200}}, device());
  const double trace = v[4][0] + v[7][0] + v[9][0];
  const double expected = -4.0 * kPi * gravitational_constant * prism.density * si_to_eotvos;
  EXPECT_NEAR(trace, expected, 1e-9 * std::abs(expected));
}

TEST_P(PrismIdentity, ThinWideSlabTendsToBouguer) {
  // h = 10.5 m, ρ = 2670 kg/m³: 2πGρh = 1.1756719 mGal (docs/references.md#prism-gravity). A
  // 2000 km wide slab seen from 1 m above: the lateral edges subtend a solid
  // angle deficit of order h/L ~ 1e-5.
  const double half = 1e6;
  const Prism slab{-half, half, -half, half, -10.5, 0.0, 2670};
  const double g_z = test::field_at(slab, {0, 0, 1}, Field::g_z, device());
  EXPECT_NEAR(g_z, 1.1756719, 1e-5 * 1.1756719);
  EXPECT_NEAR(2 * kPi * gravitational_constant * 2670 * 10.5 * si_to_mgal, 1.1756719, 1e-7);
}

TEST_P(PrismIdentity, MirrorSymmetry) {
  // A prism symmetric about easting 0: g_e changes sign under easting -> -easting,
  // g_n, g_z and the potential do not; g_en and g_ez change sign.
  const Prism symmetric{-20, 20, -5, 35, -100, -60, 1000};
  const auto v = test::all_fields({symmetric}, {{37, 11, 15}, {-37, 11, 15}}, device());
  for (int f : {0, 2, 3, 4, 7, 8, 9}) EXPECT_NEAR(v[f][0], v[f][1], 1e-12 * std::abs(v[f][0])) << f;
  for (int f : {1, 5, 6}) EXPECT_NEAR(v[f][0], -v[f][1], 1e-12 * std::abs(v[f][0])) << f;
  // Directly above the axis of symmetry g_e and the east cross terms vanish.
  const auto axis = test::all_fields({symmetric}, {{0, 11, 15}}, device());
  EXPECT_NEAR(axis[1][0], 0.0, 1e-15);
  EXPECT_NEAR(axis[5][0], 0.0, 1e-12);
  EXPECT_NEAR(axis[6][0], 0.0, 1e-12);
}

TEST_P(PrismIdentity, FiniteDifferencesOfPotentialAndField) {
  // Central differences with step h: error O(h²·third derivative). In units:
  // g [mGal] = 1e5·∂U/∂(e, n, -u); tensor [Eötvös] = 1e9/1e5·∂g[mGal]/∂x.
  const double h = 0.05;
  const Station at{7, -12, 25};
  const auto c = test::all_fields({prism}, {at}, device());
  auto shifted = [&](double de, double dn, double du) {
    return test::all_fields({prism}, {{at.easting + de, at.northing + dn, at.upward + du}}, device());
  };
  const auto pe = shifted(h, 0, 0), me = shifted(-h, 0, 0);
  const auto pn = shifted(0, h, 0), mn = shifted(0, -h, 0);
  const auto pu = shifted(0, 0, h), mu = shifted(0, 0, -h);
  auto d = [&](const std::vector<std::vector<double>>& plus, const std::vector<std::vector<double>>& minus,
               int f) { return (plus[f][0] - minus[f][0]) / (2 * h); };
  const double rel = 1e-6;
  EXPECT_NEAR(1e5 * d(pe, me, 0), c[1][0], rel * std::abs(c[1][0]));
  EXPECT_NEAR(1e5 * d(pn, mn, 0), c[2][0], rel * std::abs(c[2][0]));
  EXPECT_NEAR(-1e5 * d(pu, mu, 0), c[3][0], rel * std::abs(c[3][0]));
  EXPECT_NEAR(1e4 * d(pe, me, 1), c[4][0], rel * std::abs(c[4][0]));   // g_ee
  EXPECT_NEAR(1e4 * d(pn, mn, 1), c[5][0], rel * std::abs(c[5][0]));   // g_en
  EXPECT_NEAR(-1e4 * d(pu, mu, 1), c[6][0], rel * std::abs(c[6][0]));  // g_ez
  EXPECT_NEAR(1e4 * d(pn, mn, 2), c[7][0], rel * std::abs(c[7][0]));   // g_nn
  EXPECT_NEAR(-1e4 * d(pu, mu, 2), c[8][0], rel * std::abs(c[8][0]));  // g_nz
  EXPECT_NEAR(-1e4 * d(pu, mu, 3), c[9][0], rel * std::abs(c[9][0]));  // g_zz
}

TEST(PrismKernelForms, CentreFormEqualsVertexForm) {
  // prism_fields in double with either way of combining the pair values, at
  // random stations around the prism and at stations on its faces, edges and
  // vertices: equal to 1e-12 of the largest |value| of each field over the
  // stations, NaN at the same places.
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> around(-600, 600);
  std::vector<Station> stations;
  for (int i = 0; i < 200; ++i) stations.push_back({around(rng), around(rng), around(rng) - 250});
  for (double e : {prism.west, 0.0, prism.east})
    for (double n : {prism.south, 0.0, prism.north})
      for (double u : {prism.bottom, -200.0, prism.top}) stations.push_back({e, n, u});
  std::vector<std::vector<double>> vertex(10), centre(10);
  for (const Station& s : stations) {
    const auto rel = relative_prism<double>(prism.west, prism.east, prism.south, prism.north, prism.bottom, prism.top,
                                            s.easting, s.northing, s.upward);
    double a[10], b[10];
    prism_fields<double, InlinePairs, false>(rel, 0x3ffu, a);
    prism_fields<double, InlinePairs, true>(rel, 0x3ffu, b);
    for (int f = 0; f < 10; ++f) {
      vertex[f].push_back(a[f]);
      centre[f].push_back(b[f]);
    }
  }
  for (int f = 0; f < 10; ++f) {
    double largest = 0;
    for (double value : vertex[f])
      if (!std::isnan(value)) largest = std::max(largest, std::abs(value));
    for (std::size_t s = 0; s < stations.size(); ++s) {
      ASSERT_EQ(std::isnan(vertex[f][s]), std::isnan(centre[f][s])) << "field " << f << ", station " << s;
      if (!std::isnan(vertex[f][s])) {
        EXPECT_NEAR(centre[f][s], vertex[f][s], 1e-12 * largest) << f << ", " << s;
      }
    }
  }
}

GEOBEM_INSTANTIATE_BACKEND(PrismIdentity);

}  // namespace
}  // namespace geobem::gravity

// The magnetic field of prisms against independent references: 40-digit
// values of magnetic_reference.py (mpmath: the Hessian of the prism's
// potential closed form by numerical differentiation, kept beside this
// file), the far field of a dipole (a cube: no quadrupole term), Poisson's
// relation with the gravity tensor of the same prism, the induced
// magnetization of a susceptibility, and a magnetized layer against the prism
// list written out by Harmonica's prism_layer rule.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gpu/gravity/gravity.hpp"
#include "gpu/magnetic/magnetic.hpp"

namespace geobem::magnetic {
namespace {

Options quiet_cpu() {
  Options options;
  options.forward.quiet = true;
  return options;
}

/// b_e, b_n, b_u of one prism at one station (CPU, double).
std::array<double, 3> field_of(const MagnetizedPrism& prism, const gravity::Station& station) {
  const Result r = forward_magnetic({prism}, {station}, parse_fields("b_e,b_n,b_u"), quiet_cpu());
  return {r.values[0][0], r.values[1][0], r.values[2][0]};
}

// {west, east, south, north, bottom, top, m_e, m_n, m_u, easting, northing, upward, b_e, b_n, b_u (nT)}
const double reference[][15] = {
    {-50, 50, -40, 60, -120, -20, 0.3, -0.2, 0.5, 7, -3, 0, -36.63021832586611896388281246133691563009, 5.532059235004301486404280817970144003639, 194.0187544626219950646478209886548272433},
    {100, 400, -250, -50, -900, -300, 0.0, 0.0, 1.0, 0, 0, 50, -12.95137815227367942525678606649211074832, 8.257892903504212144064769924577156808976, 16.72192974344890308556889963164508633808},
    {0, 10, 0, 10, 0, 10, 1.0, 2.0, -0.5, 35, -12, 21, -3.180530207558587942687199320842772239721, -2.873058274007757060941893755175546285759, 0.1868158900109428514562933048536115619661},
    {-1000, 1000, -500, 800, -2500, -100, 0.1, 0.4, -0.35, 1234.5, -2345.6, 200, -11.02272393565895205665793356273178012825, 12.78180585115679187523493350700338385759, -4.094892034650096565750909679998905478505},
    {2000, 2100, 3000, 3300, -50, 40, 0.405, 0.035, -0.815, -5000, 7000, 1000, 0.0003753381005772595648102555182983580009275, -0.0003351793719040726074041746859840167132871, 0.0003318967123611540958819849123052824813887},
    {-20, 20, -20, 20, -30, 0, 0.2, 0.1, -0.6, 10, 5, 0.5, -131.3960597116219585807618793253802454217, -50.43034244585553221864893145776741681033, -267.7223933048226961403559032924830057896},
};

TEST(MagneticPrism, MatchesFortyDigitReference) {
  for (const auto& c : reference) {
    const MagnetizedPrism prism{c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]};
    const auto b = field_of(prism, {c[9], c[10], c[11]});
    const double largest = std::max({std::abs(c[12]), std::abs(c[13]), std::abs(c[14])});
    // Far from the prism the tensor terms cancel to (size/distance)^2 of
    // their parts, so double rounding grows as 4 eps (distance/size)^2.
    const double de = c[9] - (c[0] + c[1]) / 2, dn = c[10] - (c[2] + c[3]) / 2, du = c[11] - (c[4] + c[5]) / 2;
    const double ratio = std::sqrt(de * de + dn * dn + du * du) / std::min({c[1] - c[0], c[3] - c[2], c[5] - c[4]});
    const double tolerance = std::max(1e-12, 4 * 2.2e-16 * ratio * ratio);
    for (int i = 0; i < 3; ++i) EXPECT_LT(std::abs(b[i] - c[12 + i]), tolerance * largest) << "component " << i;
  }
}

TEST(MagneticPrism, CubeFarFieldIsTheDipoleField) {
  // A cube's second moments are isotropic, so its field differs from its
  // dipole's only at order (a/R)^4: 1.6e-7 at R = 50 a.
  const double a = 20.0, volume = a * a * a;
  const MagnetizedPrism cube{-a / 2, a / 2, -a / 2, a / 2, -a / 2, a / 2, 0.3, -0.7, 1.1};
  std::mt19937_64 rng(5);
  std::normal_distribution<double> normal;
  for (int k = 0; k < 20; ++k) {
    double d[3] = {normal(rng), normal(rng), normal(rng)};
    const double norm = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), r = 50.0 * a;
    for (double& x : d) x /= norm;
    const double m[3] = {cube.magnetization_e, cube.magnetization_n, cube.magnetization_u};
    const double dot = d[0] * m[0] + d[1] * m[1] + d[2] * m[2];
    const auto b = field_of(cube, {r * d[0], r * d[1], r * d[2]});
    double dipole[3], largest = 0;
    for (int i = 0; i < 3; ++i) {
      dipole[i] = field_factor_nt * volume * (3.0 * d[i] * dot - m[i]) / (r * r * r);  // mu0/4pi in nT
      largest = std::max(largest, std::abs(dipole[i]));
    }
    for (int i = 0; i < 3; ++i) EXPECT_LT(std::abs(b[i] - dipole[i]), 1e-6 * largest) << "direction " << k;
  }
}

TEST(MagneticPrism, PoissonsRelationWithTheGravityTensor) {
  // B = mu0/(4 pi G rho) * (gravity tensor) . M, the gravity tensor in
  // easting, northing, upward axes (g_ez, g_nz are taken with z downward).
  const gravity::Prism mass{-300, 200, 100, 700, -800, -150, 2670.0};
  const MagnetizedPrism magnetized{-300, 200, 100, 700, -800, -150, 0.25, -0.4, 0.9};
  for (const gravity::Station s : {gravity::Station{0, 0, 10}, {-900, 1500, 300}, {150, 400, -100}}) {
    gravity::ForwardOptions options;
    options.quiet = true;
    const auto g = gravity::forward_model({mass}, {s}, gravity::parse_fields("g_ee,g_en,g_ez,g_nn,g_nz,g_zz"), options);
    const double scale = field_factor_nt / (gravity::gravitational_constant * mass.density * 1e9);  // nT per Eotvos / (A/m)
    const double t[3][3] = {{g.values[0][0], g.values[1][0], -g.values[2][0]},
                            {g.values[1][0], g.values[3][0], -g.values[4][0]},
                            {-g.values[2][0], -g.values[4][0], g.values[5][0]}};
    const double m[3] = {magnetized.magnetization_e, magnetized.magnetization_n, magnetized.magnetization_u};
    const auto b = field_of(magnetized, s);
    for (int i = 0; i < 3; ++i) {
      const double expected = scale * (t[i][0] * m[0] + t[i][1] * m[1] + t[i][2] * m[2]);
      EXPECT_NEAR(b[i], expected, 1e-12 * std::max(1.0, std::abs(expected)));
    }
  }
}

TEST(MagneticPrism, InducedMagnetizationAndTotalFieldAnomaly) {
  // chi = 0.01 in 51,000 nT: |M| = chi F / mu0 = 0.01 * 51e-6 / (4 pi 1.00000000055e-7) A/m
  // (mu0/4pi: CODATA 2018's measured value, not 1e-7).
  EXPECT_EQ(mu0_over_4pi, 1.00000000055e-7);
  EXPECT_NEAR(field_factor_nt, 100.000000055, 1e-12);
  const InducingField earth{51000.0, 64.0, -5.0};
  const auto m = induced_magnetization(0.01, earth);
  const double pi = 3.14159265358979323846;
  EXPECT_NEAR(std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]), 0.01 * 51e-6 / (4 * pi * 1.00000000055e-7), 1e-15);
  EXPECT_NEAR(m[2] / std::sqrt(m[0] * m[0] + m[1] * m[1]), -std::tan(64.0 * pi / 180.0), 1e-12);  // dips down
  EXPECT_NEAR(std::atan2(m[0], m[1]), -5.0 * pi / 180.0, 1e-14);
  // Over the middle of a thin horizontal sheet magnetized vertically down
  // (I = 90), the TFA is positive and equals -b_u.
  Options options = quiet_cpu();
  options.tfa_inclination_deg = 90.0;
  const MagnetizedPrism sheet{-5000, 5000, -5000, 5000, -60, -50, 0.0, 0.0, -1.0};
  const Result r = forward_magnetic({sheet}, {{0, 0, 100}}, parse_fields("all"), options);
  EXPECT_GT(r.values[3][0], 0.0);
  EXPECT_NEAR(r.values[3][0], -r.values[2][0], 1e-12 * std::abs(r.values[2][0]));
}

TEST(MagneticLayer, EqualsHarmonicasPrismList) {
  MagneticLayer layer;
  layer.layer.geometry = {9, 7, 100.0, 200.0, 60.0, 80.0, 50.0, 0.0, 0.0};
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> height(-200.0, 600.0);
  for (int c = 0; c < 63; ++c) layer.layer.surface.push_back(height(rng));
  layer.layer.surface[4] = std::nan("");
  layer.magnetization_above = {0.1, 0.2, -0.8};
  layer.magnetization_below = {-0.05, 0.0, 0.3};
  std::vector<MagnetizedPrism> prisms;
  const auto& g = layer.layer.geometry;
  for (int j = 0; j < 7; ++j)
    for (int i = 0; i < 9; ++i) {
      const double s = layer.layer.surface[i + 9 * j];
      if (std::isnan(s)) continue;
      const double e = g.west_centre + i * g.spacing_e, n = g.south_centre + j * g.spacing_n;
      const auto& m = s > g.reference ? layer.magnetization_above : layer.magnetization_below;
      prisms.push_back({e - 30, e + 30, n - 40, n + 40, std::min(s, g.reference), std::max(s, g.reference), m[0], m[1],
                        m[2]});
    }
  std::vector<gravity::Station> stations;
  for (int k = 0; k < 30; ++k) stations.push_back({50.0 + 23.0 * k, 150.0 + 19.0 * k, 700.0 + k});
  const auto fields = parse_fields("all");
  const Result a = forward_magnetic_layer(layer, stations, fields, quiet_cpu());
  const Result b = forward_magnetic(prisms, stations, fields, quiet_cpu());
  for (std::size_t f = 0; f < fields.size(); ++f) {
    double largest = 0, diff = 0;
    for (std::size_t s = 0; s < stations.size(); ++s) {
      largest = std::max(largest, std::abs(b.values[f][s]));
      diff = std::max(diff, std::abs(a.values[f][s] - b.values[f][s]));
    }
    EXPECT_LT(diff, 1e-13 * largest) << field_name(fields[f]);
  }
}

}  // namespace
}  // namespace geobem::magnetic

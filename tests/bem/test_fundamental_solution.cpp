// Laplace-domain elastodynamic fundamental solutions: Kelvin parts against
// the textbook closed form, U* against Domínguez's formula evaluated directly
// with std::complex, T* against Hooke's law applied to finite differences of
// U*, the s → 0 and r → 0 limits.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <random>

#include "gpu/bem/elastodynamic_full_space.hpp"
#include "gpu/bem/fundamental_solution.hpp"
#include "gpu/core/math_constants.hpp"

namespace {

using namespace geobem::bem;
using cd = std::complex<double>;
using geobem::kPi;

const Material steel = material_from_young(2.1e11, 0.25, 7850.0);

/// U*_ij by Domínguez (1993) eq. 2.176 in plain std::complex arithmetic.
void reference_u(Vec3 r_vec, cd s, const Material& m, cd u[3][3]) {
  const double r = norm(r_vec);
  const double rd[3] = {r_vec.x / r, r_vec.y / r, r_vec.z / r};
  const cd k1 = s / m.p_wave_speed, k2 = s / m.s_wave_speed;
  const double q = std::pow(m.s_wave_speed / m.p_wave_speed, 2);
  const cd e1 = std::exp(-k1 * r), e2 = std::exp(-k2 * r);
  const cd z1 = k1 * r, z2 = k2 * r;
  const cd psi = e2 / r * (1.0 + 1.0 / z2 + 1.0 / (z2 * z2)) - q * e1 / r * (1.0 / z1 + 1.0 / (z1 * z1));
  const cd chi = e2 / r * (1.0 + 3.0 / z2 + 3.0 / (z2 * z2)) - q * e1 / r * (1.0 + 3.0 / z1 + 3.0 / (z1 * z1));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      u[i][j] = ((i == j ? psi : cd(0.0)) - chi * rd[i] * rd[j]) / (4.0 * kPi * m.shear_modulus);
}

void full_u(Vec3 r_vec, cd s, const Material& m, cd u[3][3]) {
  double u0[3][3], t0[3][3];
  Complex ud[3][3], td[3][3];
  kelvin_solution(r_vec, {0, 0, 1}, m, u0, t0);
  dynamic_remainders(r_vec, {0, 0, 1}, {s.real(), s.imag()}, m, ud, td);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) u[i][j] = u0[i][j] + cd(ud[i][j].re, ud[i][j].im);
}

void full_t(Vec3 r_vec, Vec3 n, cd s, const Material& m, cd t[3][3]) {
  double u0[3][3], t0[3][3];
  Complex ud[3][3], td[3][3];
  kelvin_solution(r_vec, n, m, u0, t0);
  dynamic_remainders(r_vec, n, {s.real(), s.imag()}, m, ud, td);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) t[i][j] = t0[i][j] + cd(td[i][j].re, td[i][j].im);
}

double max_abs(const cd a[3][3]) {
  double m = 0;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) m = std::max(m, std::abs(a[i][j]));
  return m;
}

TEST(FundamentalSolution, KelvinMatchesClosedForm) {
  for (double nu : {0.0, 0.25, 0.4}) {
    const Material m = material_from_young(1e9, nu, 2000.0);
    const Vec3 r_vec{0.3, -0.7, 0.4}, n{0.6, 0.0, 0.8};
    double u0[3][3], t0[3][3];
    kelvin_solution(r_vec, n, m, u0, t0);
    const double r = norm(r_vec), rd[3] = {r_vec.x / r, r_vec.y / r, r_vec.z / r};
    const double rn = dot(r_vec, n) / r, nv[3] = {n.x, n.y, n.z};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        // Brebbia & Dominguez (1992) eqs. 5.20-5.21, r = x − ξ.
        const double dij = i == j ? 1.0 : 0.0;
        const double u_ref = ((3 - 4 * nu) * dij + rd[i] * rd[j]) / (16 * kPi * m.shear_modulus * (1 - nu) * r);
        const double t_ref = -1.0 / (8 * kPi * (1 - nu) * r * r) *
                             (rn * ((1 - 2 * nu) * dij + 3 * rd[i] * rd[j]) -
                              (1 - 2 * nu) * (rd[i] * nv[j] - rd[j] * nv[i]));
        EXPECT_NEAR(u0[i][j], u_ref, 1e-14 * std::abs(u_ref) + 1e-25) << nu << " " << i << j;
        EXPECT_NEAR(t0[i][j], t_ref, 1e-13 / (r * r)) << nu << " " << i << j;
      }
  }
}

TEST(FundamentalSolution, DynamicMatchesDirectFormula) {
  const Vec3 dir{0.48, 0.6, -0.64};
  // |s r / c2| from 0.05 (series branch) across the switch at 1/2 (of z2 at
  // 0.49/0.51, of z1 = z2·c2/c1 near 0.86) to 40 (closed form).
  for (double zr : {0.05, 0.3, 0.49, 0.51, 0.85, 0.88, 1.5, 5.0, 40.0}) {
    for (double angle : {0.0, 0.7, 1.4}) {
      const double r = 0.37;
      const cd s = std::polar(zr * steel.s_wave_speed / r, angle);
      cd u[3][3], ref[3][3];
      full_u(r * dir, s, steel, u);
      reference_u(r * dir, s, steel, ref);
      // U* = U0 + (U* − U0): for large |z| U* is e^{−z}-small and the sum
      // carries the rounding of U0 (about 1e-16·|U0|) as its absolute error.
      double u0[3][3], t0[3][3];
      kelvin_solution(r * dir, {0, 0, 1}, steel, u0, t0);
      const double scale = max_abs(ref) + 1e-4 * std::abs(u0[0][0]);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_LT(std::abs(u[i][j] - ref[i][j]), 1e-11 * scale) << zr << " " << angle;
    }
  }
}

TEST(FundamentalSolution, TractionIsHookeOfDisplacementFiniteDifferences) {
  const Material& m = steel;
  const Vec3 xi{0.1, 0.2, -0.3}, x{0.5, -0.1, 0.2}, n{0.0, 0.6, 0.8};
  for (double zr : {0.2, 1.0, 3.0, 12.0}) {
    const cd s = std::polar(zr * m.s_wave_speed / norm(x - xi), 0.9);
    // grad[k][i][j] = ∂U_ij/∂x_k by central differences.
    const double h = 1e-5 * norm(x - xi);
    cd grad[3][3][3];
    for (int k = 0; k < 3; ++k) {
      Vec3 step{k == 0 ? h : 0, k == 1 ? h : 0, k == 2 ? h : 0};
      cd up[3][3], um[3][3];
      full_u(x + step - xi, s, m, up);
      full_u(x - step - xi, s, m, um);
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) grad[k][i][j] = (up[i][j] - um[i][j]) / (2 * h);
    }
    const double nv[3] = {n.x, n.y, n.z};
    cd t_ref[3][3], t[3][3];
    for (int i = 0; i < 3; ++i) {
      const cd div = grad[0][i][0] + grad[1][i][1] + grad[2][i][2];
      for (int j = 0; j < 3; ++j) {
        cd tj = m.lame_lambda * div * nv[j];
        for (int k = 0; k < 3; ++k) tj += m.shear_modulus * (grad[k][i][j] + grad[j][i][k]) * nv[k];
        t_ref[i][j] = tj;
      }
    }
    full_t(x - xi, n, s, m, t);
    const double scale = max_abs(t_ref);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_LT(std::abs(t[i][j] - t_ref[i][j]), 1e-7 * scale) << zr << i << j;
  }
}

TEST(FundamentalSolution, TendsToKelvinLinearlyInS) {
  const Vec3 r_vec{0.2, 0.3, -0.1}, n{1, 0, 0};
  double diff_u[2], diff_t[2];
  for (int k = 0; k < 2; ++k) {
    const Complex s{1e-3 * steel.s_wave_speed / (k + 1.0), 2e-3 * steel.s_wave_speed / (k + 1.0)};
    Complex ud[3][3], td[3][3];
    dynamic_remainders(r_vec, n, s, steel, ud, td);
    diff_u[k] = diff_t[k] = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        diff_u[k] = std::max(diff_u[k], abs(ud[i][j]));
        diff_t[k] = std::max(diff_t[k], abs(td[i][j]));
      }
  }
  double u0[3][3], t0[3][3];
  kelvin_solution(r_vec, n, steel, u0, t0);
  EXPECT_LT(diff_u[0], 1e-2 * std::abs(u0[0][0]));
  EXPECT_NEAR(diff_u[0] / diff_u[1], 2.0, 0.01);  // U* − U0 = O(s)
  EXPECT_GT(diff_t[0] / diff_t[1], 1.9);          // T* − T0 = O(s) or smaller
}

TEST(FundamentalSolution, RemainderBoundedAtOriginWithKnownLimit) {
  // U* − U0 → −s/(12πρ)(2/c2³ + 1/c1³) δ_ij as r → 0 (series of ψ, χ).
  const Complex s{3e4, -5e4};
  const double c1 = steel.p_wave_speed, c2 = steel.s_wave_speed;
  const double factor = -(2 / (c2 * c2 * c2) + 1 / (c1 * c1 * c1)) / (12 * kPi * steel.density);
  for (double r : {1e-3, 1e-6, 1e-9}) {
    Complex ud[3][3], td[3][3];
    dynamic_remainders({r * 0.6, 0, r * 0.8}, {0, 1, 0}, s, steel, ud, td);
    const Complex limit = factor * s;
    for (int i = 0; i < 3; ++i) {
      // The next term of the series is O(|s| r / c2) relative to the limit.
      EXPECT_LT(abs(ud[i][i] - limit), (2.0 * abs(s) * r / c2 + 1e-12) * abs(limit)) << r;
      for (int j = 0; j < 3; ++j) EXPECT_TRUE(std::isfinite(td[i][j].re) && std::isfinite(td[i][j].im));
    }
    double t_max = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) t_max = std::max(t_max, abs(td[i][j]));
    EXPECT_LT(t_max, 0.1 * abs(s) * abs(s) / (c2 * c2));  // bounded: no 1/r or 1/r² growth
  }
}

TEST(FundamentalSolution, SymmetricAndEvenInR) {
  const Vec3 r_vec{0.4, -0.2, 0.9};
  const cd s(2e4, 7e3);
  cd u[3][3], um[3][3];
  full_u(r_vec, s, steel, u);
  full_u(-1.0 * r_vec, s, steel, um);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      EXPECT_LT(std::abs(u[i][j] - u[j][i]), 1e-14 * max_abs(u));
      EXPECT_LT(std::abs(u[i][j] - um[i][j]), 1e-14 * max_abs(u));
    }
}

TEST(FundamentalSolution, PointKernelEntriesMatchTheBlocks) {
  // The entry-by-entry kernel of the quadrature loops: U* against Domínguez's
  // formula directly, T* against the Kelvin block plus the remainder block
  // (the Hooke test above checks those), T* − T0 against the remainder block.
  const Vec3 dir{-0.36, 0.48, 0.8}, n{0.6, 0.0, -0.8};
  for (double zr : {0.05, 0.49, 0.51, 3.0, 30.0}) {
    const double r = 0.21;
    const cd s = std::polar(zr * steel.s_wave_speed / r, 1.1);
    const PointKernel kernel = point_kernel(r * dir, n, {s.real(), s.imag()}, steel);
    cd u_ref[3][3], t_ref[3][3];
    reference_u(r * dir, s, steel, u_ref);
    full_t(r * dir, n, s, steel, t_ref);
    double u0[3][3], t0[3][3];
    kelvin_solution(r * dir, n, steel, u0, t0);
    Complex ud[3][3], td[3][3];
    dynamic_remainders(r * dir, n, {s.real(), s.imag()}, steel, ud, td);
    const double u_scale = max_abs(u_ref) + 1e-4 * std::abs(u0[0][0]), t_scale = max_abs(t_ref) + 1e-4 * t0[0][0];
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const Complex u = kernel.u(i, j), t = kernel.t(i, j), rem = kernel.t_remainder(i, j);
        EXPECT_LT(std::abs(cd(u.re, u.im) - u_ref[i][j]), 1e-11 * u_scale) << zr << i << j;
        EXPECT_LT(std::abs(cd(t.re, t.im) - t_ref[i][j]), 1e-13 * (max_abs(t_ref) + std::abs(t0[i][j]) + 1e-300))
            << zr << i << j;
        EXPECT_LT(abs(rem - td[i][j]), 1e-14 * (abs(td[i][j]) + t_scale)) << zr << i << j;
      }
  }
}

/// One wave's term e^{−k r} Σ_m c_m (k r)^{−m} / r of 4πμ ψ or 4πμ χ, and its
/// r-derivative −e^{−k r} Σ_m c_m (k r)^{−m} (k r + m + 1) / r².
void wave_term(cd k, double r, const double c[3], cd& value, cd& derivative) {
  const cd z = k * r, e = std::exp(-z);
  value = derivative = 0.0;
  for (int m = 0; m < 3; ++m) {
    const cd power = std::pow(z, -m);
    value += c[m] * power;
    derivative -= c[m] * power * (z + double(m + 1));
  }
  value *= e / r;
  derivative *= e / (r * r);
}

/// T*_ij evaluated directly, each term with its own exponential (no Kelvin
/// part to cancel when the kernel is damped far below it): Hooke's law on
/// u_j = a δ_ij − b r_,i r_,j (the header formula of fundamental_solution.hpp),
/// a = ψ/4πμ, b = χ/4πμ of Domínguez's formula and their r-derivatives.
void reference_t(Vec3 r_vec, Vec3 normal, cd s, const Material& m, cd t[3][3]) {
  const double r = norm(r_vec), inv = 1.0 / (4.0 * kPi * m.shear_modulus);
  const double rd[3] = {r_vec.x / r, r_vec.y / r, r_vec.z / r}, n[3] = {normal.x, normal.y, normal.z};
  const double rn = rd[0] * n[0] + rd[1] * n[1] + rd[2] * n[2];
  const double q = std::pow(m.s_wave_speed / m.p_wave_speed, 2);
  const cd k1 = s / m.p_wave_speed, k2 = s / m.s_wave_speed;
  const double psi_s[3] = {1, 1, 1}, psi_p[3] = {0, -q, -q}, chi_s[3] = {1, 3, 3}, chi_p[3] = {-q, -3 * q, -3 * q};
  cd v1, d1, v2, d2, v3, d3, v4, d4;
  wave_term(k2, r, psi_s, v1, d1);
  wave_term(k1, r, psi_p, v2, d2);
  wave_term(k2, r, chi_s, v3, d3);
  wave_term(k1, r, chi_p, v4, d4);
  const cd da = inv * (d1 + d2), b = inv * (v3 + v4), db = inv * (d3 + d4);
  const double lambda = m.lame_lambda, mu = m.shear_modulus;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      const double dij = i == j ? 1.0 : 0.0;
      t[i][j] = lambda * n[j] * (da - db - 2.0 * b / r) * rd[i] +
                mu * (da * (rn * dij + rd[j] * n[i]) - 2.0 * db * rn * rd[i] * rd[j] -
                      (b / r) * ((n[i] - rd[i] * rn) * rd[j] + 2.0 * rd[i] * (n[j] - rd[j] * rn) + (dij - rd[i] * rd[j]) * rn));
    }
}

TEST(FundamentalSolution, KernelBoundsHoldBeyondTheirDistance) {
  // The far-block drop rests on ElastodynamicFullSpace::kernel_bounds: every
  // |U*_ij| and |T*_ij| (Domínguez's formula and its Hooke traction, checked
  // above) at any distance r' ≥ r below the bound at r. Random battery
  // (fixed seed): Poisson's ratios over [−0.5, 0.45], |s| r/c_S log-uniform
  // over [1e-3, 1e3] with arg s over (−π/2, π/2) (the CQ frequencies'
  // half-plane), r' from r to 10 r, random directions and normals.
  std::mt19937_64 random(2026);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto unit_vector = [&] {
    const double z = 2 * unit(random) - 1, phi = 2 * kPi * unit(random), rho = std::sqrt(1 - z * z);
    return Vec3{rho * std::cos(phi), rho * std::sin(phi), z};
  };
  int checked = 0;
  double tightest_u = 0, tightest_t = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const Material m = material_from_young(1e9 + 1e11 * unit(random), -0.5 + 0.95 * unit(random), 1500 + 6000 * unit(random));
    const double r = 0.01 + 10 * unit(random);
    const double size = std::pow(10.0, -3.0 + 6.0 * unit(random)) * m.s_wave_speed / r;
    const cd s = std::polar(size, (unit(random) - 0.5) * 0.999 * kPi);
    double u_bound = 0, t_bound = 0;
    ElastodynamicFullSpace::kernel_bounds(r, {s.real(), s.imag()}, m, u_bound, t_bound);
    const double farther = r * (1 + 9 * unit(random) * unit(random));
    const Vec3 x = farther * unit_vector(), n = unit_vector();
    cd u[3][3], t[3][3];
    reference_u(x, s, m, u);
    reference_t(x, n, s, m, t);
    const double u_max = max_abs(u), t_max = max_abs(t);
    // Where T* is not damped far below its Kelvin part, the direct form agrees
    // with the Kelvin part plus the remainder (the code's, tested above).
    cd t_code[3][3];
    full_t(x, n, s, m, t_code);
    double t0[3][3], u0[3][3];
    kelvin_solution(x, n, m, u0, t0);
    if (t_max > 1e-4 * (std::abs(t0[0][0]) + std::abs(t0[1][2]))) {
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) EXPECT_LT(std::abs(t[i][j] - t_code[i][j]) / t_max, 1e-8) << trial;
    }
    EXPECT_LE(u_max, u_bound) << "trial " << trial;
    EXPECT_LE(t_max, t_bound) << "trial " << trial;
    tightest_u = std::max(tightest_u, u_max / u_bound);
    tightest_t = std::max(tightest_t, t_max / t_bound);
    ++checked;
  }
  std::printf("%d points: largest |U*|/bound %.3g, |T*|/bound %.3g\n", checked, tightest_u, tightest_t);
}

TEST(FundamentalSolution, RejectsBadMaterial) {
  EXPECT_THROW(material_from_young(-1.0, 0.2, 1.0), std::invalid_argument);
  EXPECT_THROW(material_from_young(1.0, 0.5, 1.0), std::invalid_argument);
  EXPECT_THROW(material_from_young(1.0, 0.2, 0.0), std::invalid_argument);
}

}  // namespace

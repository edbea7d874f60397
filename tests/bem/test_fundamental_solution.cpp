// Laplace-domain elastodynamic fundamental solutions: Kelvin parts against
// the textbook closed form, U* against Domínguez's formula evaluated directly
// with std::complex, T* against Hooke's law applied to finite differences of
// U*, the s → 0 and r → 0 limits.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

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

TEST(FundamentalSolution, RejectsBadMaterial) {
  EXPECT_THROW(material_from_young(-1.0, 0.2, 1.0), std::invalid_argument);
  EXPECT_THROW(material_from_young(1.0, 0.5, 1.0), std::invalid_argument);
  EXPECT_THROW(material_from_young(1.0, 0.2, 0.0), std::invalid_argument);
}

}  // namespace

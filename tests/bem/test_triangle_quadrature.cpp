// Triangle rules of the collocation BEM against the closed form of
// barycentric monomials, ∫_T λ0^a λ1^b λ2^c dA = 2A a! b! c! / (a + b + c + 2)!
// (e.g. Zienkiewicz & Taylor, The Finite Element Method, vol. 1): every
// symmetric rule (Dunavant 1985) integrates every monomial of its degree
// exactly, one degree more not; and the plans' rules (symmetric or collapsed,
// on subdivided triangles) do the same on a triangle in space.
#include <gtest/gtest.h>

#include <cmath>

#include "gpu/bem/triangle_quadrature.hpp"

namespace {

using namespace geobem::bem;

double factorial(int n) { return n <= 1 ? 1.0 : n * factorial(n - 1); }

/// ∫ λ0^a λ1^b λ2^c over a triangle of area `area`.
double monomial_integral(int a, int b, int c, double area) {
  return 2.0 * area * factorial(a) * factorial(b) * factorial(c) / factorial(a + b + c + 2);
}

/// Largest relative error of rule r over the monomials of total degree `degree`.
double symmetric_rule_error(const QuadratureTable& table, int r, int degree) {
  double worst = 0.0;
  for (int a = 0; a <= degree; ++a)
    for (int b = 0; a + b <= degree; ++b) {
      const int c = degree - a - b;
      double sum = 0.0;
      for (int k = table.symmetric_start[r]; k < table.symmetric_start[r + 1]; ++k) {
        const double* l = table.symmetric_lambda[k];
        sum += table.symmetric_weight[k] * std::pow(l[0], a) * std::pow(l[1], b) * std::pow(l[2], c);
      }
      const double exact = monomial_integral(a, b, c, 1.0);
      worst = std::fmax(worst, std::fabs(sum - exact) / exact);
    }
  return worst;
}

TEST(TriangleQuadrature, SymmetricRulesIntegrateTheirDegreeExactly) {
  const QuadratureTable table = make_quadrature_table();
  for (int r = 0; r < QuadratureTable::symmetric_rule_count; ++r) {
    const int degree = symmetric_rule_degree(r);
    EXPECT_EQ(table.symmetric_start[r + 1] - table.symmetric_start[r], symmetric_rule_points(r)) << degree;
    for (int k = table.symmetric_start[r]; k < table.symmetric_start[r + 1]; ++k) {
      EXPECT_GT(table.symmetric_weight[k], 0.0) << degree;
      for (int i = 0; i < 3; ++i) EXPECT_GT(table.symmetric_lambda[k][i], 0.0) << degree;
    }
    // Published to 15 digits: exact to a few 1e-14 relative (the smallest
    // monomial integrals of degree 14 are ~1e-9).
    for (int d = 0; d <= degree; ++d) EXPECT_LT(symmetric_rule_error(table, r, d), 5e-14) << degree << " " << d;
    EXPECT_GT(symmetric_rule_error(table, r, degree + 1), 1e-8) << degree;
  }
}

/// Accumulates ∫ λ0^a λ1^b λ2^c.
struct MonomialIntegrand {
  int a, b, c;
  double sum = 0.0;
  void operator()(Vec3, double w, const double lam[3]) {
    sum += w * std::pow(lam[0], a) * std::pow(lam[1], b) * std::pow(lam[2], c);
  }
};

TEST(TriangleQuadrature, PlansIntegrateTheirDegreeOnSubdividedTriangles) {
  const QuadratureTable table = make_quadrature_table();
  const Vec3 v[3] = {{0.3, -0.2, 1.1}, {2.1, 0.4, 0.7}, {0.9, 1.8, -0.4}};
  const double area = 0.5 * norm(cross(v[1] - v[0], v[2] - v[0]));
  // Far, near and high-wave-number plans: symmetric rules and, beyond
  // their degrees, collapsed products; subdivided ones too.
  const struct {
    double ratio, kappa;
  } cases[] = {{6.0, 0.0}, {2.5, 0.0}, {1.7, 3.0}, {6.0, 8.0}, {6.0, 30.0}, {0.4, 0.0}, {0.2, 9.0}};
  for (const auto& k : cases) {
    const QuadraturePlan plan = quadrature_plan(k.ratio, 1.0, PairWaves{k.kappa, 0.0, 0.6 * k.kappa, 0.0}, false);
    const int degree = 2 * plan.order - 2;
    if (plan.symmetric_rule >= 0) {
      EXPECT_EQ(symmetric_rule_degree(plan.symmetric_rule), degree);
    }
    for (int a = 0; a <= degree; a += 3)
      for (int b = 0; a + b <= degree; b += 2) {
        MonomialIntegrand f{a, b, degree - a - b};
        integrate_triangle(v, area, -1, false, nullptr, plan, table, f);
        const double exact = monomial_integral(f.a, f.b, f.c, area);
        EXPECT_NEAR(f.sum / exact, 1.0, 1e-13) << k.ratio << " " << k.kappa << " " << a << b;
      }
  }
}

}  // namespace

#include <gtest/gtest.h>

#include <cmath>

#include "gpu/core/gauss_legendre.hpp"

namespace {

// ∫_{-1}^{1} x^k dx = 2/(k+1) for even k, 0 for odd k.
double monomial_integral(int k) { return k % 2 ? 0.0 : 2.0 / (k + 1); }

TEST(GaussLegendre, ExactForPolynomialsUpToDegree2nMinus1) {
  for (int order : {1, 2, 3, 5, 8, 16, 33}) {
    const auto rule = geobem::gauss_legendre_rule(order);
    for (int k = 0; k <= 2 * order - 1; ++k) {
      double sum = 0.0;
      for (int i = 0; i < order; ++i) sum += rule.weights[i] * std::pow(rule.nodes[i], k);
      EXPECT_NEAR(sum, monomial_integral(k), 1e-13) << "order " << order << " degree " << k;
    }
  }
}

TEST(GaussLegendre, KnownThreePointRule) {
  const auto rule = geobem::gauss_legendre_rule(3);
  EXPECT_NEAR(rule.nodes[0], -std::sqrt(0.6), 1e-15);
  EXPECT_NEAR(rule.nodes[1], 0.0, 1e-15);
  EXPECT_NEAR(rule.weights[1], 8.0 / 9.0, 1e-15);
  EXPECT_NEAR(rule.weights[2], 5.0 / 9.0, 1e-15);
}

TEST(GaussLegendre, HighOrderIntegratesSmoothFunction) {
  const auto rule = geobem::gauss_legendre_rule(200);
  double sum = 0.0;
  for (int i = 0; i < 200; ++i) sum += rule.weights[i] * std::exp(rule.nodes[i]);
  EXPECT_NEAR(sum, std::exp(1.0) - std::exp(-1.0), 1e-13);
}

TEST(GaussLegendre, RejectsOrderBelowOne) { EXPECT_THROW(geobem::gauss_legendre_rule(0), std::invalid_argument); }

}  // namespace

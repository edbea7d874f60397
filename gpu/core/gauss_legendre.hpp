#pragma once
#include <vector>

namespace geobem {

/// Gauss–Legendre rule of `order` points on [-1, 1]: nodes ascending and
/// weights, exact for polynomials of degree 2·order − 1. Nodes by Newton's
/// method on the three-term Legendre recurrence (Abramowitz & Stegun 25.4.29),
/// accurate to machine precision for order ≤ 1000. Throws
/// InputError for order < 1.
struct GaussLegendreRule {
  std::vector<double> nodes;
  std::vector<double> weights;
};
GaussLegendreRule gauss_legendre_rule(int order);

}  // namespace geobem

#include "gpu/core/gauss_legendre.hpp"

#include <cmath>
#include <stdexcept>
#include <string>

#include "gpu/core/input_error.hpp"
#include "gpu/core/math_constants.hpp"

namespace geobem {

GaussLegendreRule gauss_legendre_rule(int order) {
  if (order < 1) throw InputError("Gauss-Legendre order must be >= 1, got " + std::to_string(order));
  GaussLegendreRule rule;
  rule.nodes.resize(order);
  rule.weights.resize(order);
  const int n = order;
  for (int i = 0; i < (n + 1) / 2; ++i) {
    // Tricomi's initial guess for the i-th largest root, then Newton.
    double x = std::cos(kPi * (i + 0.75) / (n + 0.5));
    double derivative = 1.0;
    for (int iteration = 0; iteration < 100; ++iteration) {
      double p0 = 1.0, p1 = x;
      for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
      }
      derivative = n * (x * p1 - p0) / (x * x - 1.0);
      const double step = p1 / derivative;
      x -= step;
      if (std::fabs(step) < 1e-16) break;
    }
    const double weight = 2.0 / ((1.0 - x * x) * derivative * derivative);
    rule.nodes[n - 1 - i] = x;
    rule.nodes[i] = -x;
    rule.weights[i] = rule.weights[n - 1 - i] = weight;
  }
  if (n % 2 == 1) rule.nodes[n / 2] = 0.0;
  return rule;
}

}  // namespace geobem

#pragma once
// A second, independent method for the tests: Newton's volume integrals of a
// prism (potential, attraction and gradient tensor of 1/r) by tensor-product
// Gauss–Legendre quadrature on sub-cells. Valid for stations off the prism,
// where the integrands are smooth; results in the units of docs/design.md.
#include <array>
#include <cmath>

#include "gpu/core/gauss_legendre.hpp"
#include "gpu/gravity/prism.hpp"

namespace geobem::gravity::test {

/// All ten fields (Field order) of `prism` at `station` by quadrature with
/// `cells`³ sub-cells of `order`³ points each.
inline std::array<double, 10> newton_quadrature(const Prism& prism, const Station& station, int cells = 3,
                                                int order = 20) {
  const GaussLegendreRule rule = gauss_legendre_rule(order);
  std::array<double, 10> sum{};
  const double lo[3] = {prism.west, prism.south, prism.bottom};
  const double hi[3] = {prism.east, prism.north, prism.top};
  const double at[3] = {station.easting, station.northing, station.upward};
  double h[3];
  for (int a = 0; a < 3; ++a) h[a] = (hi[a] - lo[a]) / cells;
  for (int ci = 0; ci < cells; ++ci)
    for (int cj = 0; cj < cells; ++cj)
      for (int ck = 0; ck < cells; ++ck)
        for (int i = 0; i < order; ++i)
          for (int j = 0; j < order; ++j)
            for (int k = 0; k < order; ++k) {
              // Source point minus station (east, north, up) and the weight.
              const double x = lo[0] + h[0] * (ci + 0.5 * (rule.nodes[i] + 1)) - at[0];
              const double y = lo[1] + h[1] * (cj + 0.5 * (rule.nodes[j] + 1)) - at[1];
              const double z = lo[2] + h[2] * (ck + 0.5 * (rule.nodes[k] + 1)) - at[2];
              const double w = rule.weights[i] * rule.weights[j] * rule.weights[k] * h[0] * h[1] * h[2] / 8;
              const double r2 = x * x + y * y + z * z, r = std::sqrt(r2);
              const double r3 = r2 * r, r5 = r3 * r2;
              // U = ∫ 1/r; g = ∇U toward the mass (g_z downward = -∂U/∂u);
              // T_ab = ∂²U/∂a∂b = (3 d_a d_b - δ_ab r²)/r⁵ with d = source - station.
              sum[0] += w / r;
              sum[1] += w * x / r3;
              sum[2] += w * y / r3;
              sum[3] -= w * z / r3;
              sum[4] += w * (3 * x * x - r2) / r5;
              sum[5] += w * 3 * x * y / r5;
              sum[6] -= w * 3 * x * z / r5;
              sum[7] += w * (3 * y * y - r2) / r5;
              sum[8] -= w * 3 * y * z / r5;
              sum[9] += w * (3 * z * z - r2) / r5;
            }
  const double scale[10] = {1, si_to_mgal, si_to_mgal, si_to_mgal, si_to_eotvos, si_to_eotvos,
                            si_to_eotvos, si_to_eotvos, si_to_eotvos, si_to_eotvos};
  for (int f = 0; f < 10; ++f) sum[f] *= gravitational_constant * prism.density * scale[f];
  return sum;
}

}  // namespace geobem::gravity::test

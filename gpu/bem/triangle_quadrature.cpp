#include "gpu/bem/triangle_quadrature.hpp"

#include <stdexcept>
#include <string>

#include "gpu/core/gauss_legendre.hpp"

namespace geobem::bem {

namespace {

/// One orbit of a fully symmetric triangle rule, each point with weight
/// `weight` (a fraction of the triangle's area): 1 point, the centroid; 3
/// points, the permutations of (a, (1 − a)/2, (1 − a)/2); 6 points, those of
/// (a, b, 1 − a − b).
struct SymmetricOrbit {
  int points;
  double a, b, weight;
};

/// Dunavant, D. A. (1985), "High degree efficient symmetrical Gaussian
/// quadrature rules for the triangle", Int. J. Numer. Methods Eng. 21,
/// 1129–1148, Table I: the even degrees 4–14, whose points all lie inside the
/// triangle and whose weights are all positive (the rules of degree 11, 15,
/// 16, 18 and 20 there have exterior points or negative weights). Published
/// to 15 digits; the coordinates not listed are completed here so that every
/// point's barycentric coordinates sum to 1.
struct SymmetricRuleData {
  int degree;
  int orbit_count;
  SymmetricOrbit orbits[10];
};

constexpr double third = 1.0 / 3.0;

constexpr SymmetricRuleData dunavant_rules[QuadratureTable::symmetric_rule_count] = {
    {4, 2, {{3, 0.108103018168070, 0.0, 0.223381589678011},
            {3, 0.816847572980459, 0.0, 0.109951743655322}}},
    {6, 3, {{3, 0.501426509658179, 0.0, 0.116786275726379},
            {3, 0.873821971016996, 0.0, 0.050844906370207},
            {6, 0.053145049844816, 0.310352451033785, 0.082851075618374}}},
    {8, 5, {{1, third, 0.0, 0.144315607677787},
            {3, 0.081414823414554, 0.0, 0.095091634267285},
            {3, 0.658861384496480, 0.0, 0.103217370534718},
            {3, 0.898905543365938, 0.0, 0.032458497623198},
            {6, 0.008394777409958, 0.263112829634638, 0.027230314174435}}},
    {10, 6, {{1, third, 0.0, 0.090817990382754},
             {3, 0.028844733232685, 0.0, 0.036725957756467},
             {3, 0.781036849029926, 0.0, 0.045321059435528},
             {6, 0.141707219414880, 0.307939838764121, 0.072757916845420},
             {6, 0.025003534762686, 0.246672560639903, 0.028327242531057},
             {6, 0.009540815400299, 0.066803251012200, 0.009421666963733}}},
    {12, 8, {{3, 0.023565220452390, 0.0, 0.025731066440455},
             {3, 0.120551215411080, 0.0, 0.043692544538038},
             {3, 0.457579229975768, 0.0, 0.062858224217885},
             {3, 0.744847708916828, 0.0, 0.034796112930709},
             {3, 0.957365299093580, 0.0, 0.006166261051559},
             {6, 0.115343494534698, 0.275713269685514, 0.040371557766381},
             {6, 0.022838332222257, 0.281325580989940, 0.022356773202303},
             {6, 0.025734050548330, 0.116251915907597, 0.017316231108659}}},
    {14, 10, {{3, 0.022072179275643, 0.0, 0.021883581369429},
              {3, 0.164710561319092, 0.0, 0.032788353544125},
              {3, 0.453044943382323, 0.0, 0.051774104507292},
              {3, 0.645588935174913, 0.0, 0.042162588736993},
              {3, 0.876400233818255, 0.0, 0.014433699669777},
              {3, 0.961218077502598, 0.0, 0.004923403602400},
              {6, 0.057124757403648, 0.172266687821356, 0.024665753212564},
              {6, 0.092916249356972, 0.336861459796345, 0.038571510787061},
              {6, 0.014646950055654, 0.298372882136258, 0.014436308113534},
              {6, 0.001268330932872, 0.118974497696957, 0.005010228838501}}},
};

}  // namespace

QuadratureTable make_quadrature_table() {
  QuadratureTable table{};
  for (int n = 1; n <= QuadratureTable::max_order; ++n) {
    const GaussLegendreRule rule = gauss_legendre_rule(n);
    for (int i = 0; i < n; ++i) {
      table.node[n * (n - 1) / 2 + i] = 0.5 * (rule.nodes[i] + 1.0);
      table.weight[n * (n - 1) / 2 + i] = 0.5 * rule.weights[i];
    }
  }
  int point = 0;
  for (int r = 0; r < QuadratureTable::symmetric_rule_count; ++r) {
    const SymmetricRuleData& data = dunavant_rules[r];
    if (data.degree != symmetric_rule_degree(r))
      throw std::logic_error("symmetric rule " + std::to_string(r) + " has degree " + std::to_string(data.degree));
    table.symmetric_start[r] = point;
    for (int k = 0; k < data.orbit_count; ++k) {
      const SymmetricOrbit& o = data.orbits[k];
      const double h = 0.5 * (1.0 - o.a), c = 1.0 - o.a - o.b;
      const double centroid[1][3] = {{third, third, third}};
      const double three[3][3] = {{o.a, h, h}, {h, o.a, h}, {h, h, o.a}};
      const double six[6][3] = {{o.a, o.b, c}, {o.a, c, o.b}, {o.b, o.a, c},
                                {o.b, c, o.a}, {c, o.a, o.b}, {c, o.b, o.a}};
      const double(*points)[3] = o.points == 1 ? centroid : o.points == 3 ? three : six;
      for (int m = 0; m < o.points; ++m, ++point) {
        if (point >= QuadratureTable::symmetric_point_count)
          throw std::logic_error("symmetric rules exceed their table");
        for (int i = 0; i < 3; ++i) table.symmetric_lambda[point][i] = points[m][i];
        table.symmetric_weight[point] = o.weight;
      }
    }
    if (point - table.symmetric_start[r] != symmetric_rule_points(r))
      throw std::logic_error("symmetric rule of degree " + std::to_string(data.degree) + " has " +
                             std::to_string(point - table.symmetric_start[r]) + " points");
  }
  table.symmetric_start[QuadratureTable::symmetric_rule_count] = point;
  return table;
}

}  // namespace geobem::bem

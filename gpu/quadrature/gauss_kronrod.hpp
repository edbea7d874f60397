#pragma once
// The 7-point Gauss / 15-point Kronrod pair on one interval, GEOBEM_HD.
// Nodes and weights: Kronrod's extension of Gauss–Legendre (Kronrod 1965;
// the values tabulated in QUADPACK, Piessens et al. 1983, routine QK15).
#include <cmath>

#include "gpu/core/host_device.hpp"

namespace geobem::quadrature {

/// x = high + low exactly (Knuth's TwoSum; Ogita, Rump & Oishi 2005).
GEOBEM_HD inline void two_sum(double a, double b, double* high, double* low) {
  *high = a + b;
  const double b_virtual = *high - a;
  *low = (a - (*high - b_virtual)) + (b - b_virtual);
}

/// Overload ranks for evaluate_at_node: Rank<2> is tried first.
template <int N>
struct Rank : Rank<N - 1> {};
template <>
struct Rank<0> {};

/// f at the node x_high + x_low, and in *magnitude the size its rounding
/// is relative to: f(x_high, x_low, magnitude) where f takes the node in two
/// doubles and reports that size (Integrand1D: the sum of its terms' sizes,
/// larger than |f| where they cancel), else f(x_high, x_low) or f(x_high)
/// with *magnitude = |f|. Returns through *node_exact whether f saw the node
/// in two doubles (Rank<0>: f(x_high) sees it rounded, and its argument with it).
template <class F>
GEOBEM_HD inline auto evaluate_at_node(const F& f, double x_high, double x_low, double* magnitude, bool* node_exact,
                                       Rank<2>) -> decltype(f(x_high, x_low, magnitude)) {
  *node_exact = true;
  return f(x_high, x_low, magnitude);
}
template <class F>
GEOBEM_HD inline auto evaluate_at_node(const F& f, double x_high, double x_low, double* magnitude, bool* node_exact,
                                       Rank<1>) -> decltype(f(x_high, x_low)) {
  *node_exact = true;
  const double value = f(x_high, x_low);
  *magnitude = fabs(value);
  return value;
}
template <class F>
GEOBEM_HD inline double evaluate_at_node(const F& f, double x_high, double, double* magnitude, bool* node_exact,
                                         Rank<0>) {
  *node_exact = false;
  const double value = f(x_high);
  *magnitude = fabs(value);
  return value;
}

/// A Kronrod rule's result on one interval, or summed over many: the
/// estimate in two doubles (estimate + estimate_low), QUADPACK's truncation
/// error, Σ r² of the rounding bounds r, and Σ of the bounds for a rounded
/// argument where f takes the node in one double (see gauss_kronrod_15).
struct KronrodSums {
  double estimate, estimate_low, error, rounding_squared, argument_rounding;
};

/// total += part, the estimates added by TwoSum so that the sum of many
/// intervals carries no rounding of its own beyond ε² terms.
GEOBEM_HD inline void add_kronrod_sums(KronrodSums& total, const KronrodSums& part) {
  double low;
  two_sum(total.estimate, part.estimate, &total.estimate, &low);
  total.estimate_low += low + part.estimate_low;
  total.error += part.error;
  total.rounding_squared += part.rounding_squared;
  total.argument_rounding += part.argument_rounding;
}

/// Applies the 15-point Kronrod rule to f on [a, b]. error: QUADPACK's
/// estimate of the truncation error (Piessens, de Doncker-Kapenga, Überhuber
/// & Kahaner, QUADPACK, Springer 1983, routine QK15): with e = |K15 − G7|·(b − a)/2
/// and I_asc = ∫|f − K15/(b − a)| by the Kronrod weights, I_asc·min(1, (200 e /
/// I_asc)^{3/2}) (the 3/2 power reflects that K15 is far more accurate than G7
/// once e is small). QUADPACK's floor 50·ε·∫|f| is not applied: the rule
/// is summed without rounding of its own (TwoProduct and TwoSum, Ogita, Rump &
/// Oishi 2005; the interval's width and nodes in two doubles), so what rounding
/// is left lies in the function values, a few ulps of their magnitude m_j
/// each (evaluate_at_node), and in rounding_squared goes Σ_j (ε·w_j·m_j·(b − a)/2)²
/// over the nodes. The callers add these over
/// many intervals: the roundings are independent, so their total grows like
/// √(Σ r²), not Σ r (Higham, Accuracy and Stability of Numerical Algorithms,
/// 2nd ed. 2002, §2.8, the statistical view of rounding errors). f takes the
/// node in two doubles where it can (Integrand1D), so that the argument of
/// e^{px} or sin(ωx) is not rounded to ε·|x| absolute; where it cannot (a
/// functor of one double), argument_rounding adds the first-order effect of
/// that rounding, ε·max(|a|, |b|)·∫|f'| with ∫|f'| the variation over the
/// nodes, summed linearly: its part from constants such as a rounded π is
/// the same at every node.
/// xk: Kronrod abscissae on [0, 1) descending; odd indices (1, 3, 5) and the
/// centre (index 7) are the 7-point Gauss nodes, weighted by wg.
template <class F>
GEOBEM_HD inline KronrodSums gauss_kronrod_15(const F& f, double a, double b) {
  const double xk[8] = {0.991455371120812639206854697526329, 0.949107912342758524526189684047851,
                        0.864864423359769072789712788640926, 0.741531185599394439863864773280788,
                        0.586087235467691130294144845693013, 0.405845151377397166906606412076961,
                        0.207784955007898467600689403773245, 0.0};
  const double wk[8] = {0.022935322010529224963732008058970, 0.063092092629978553290700663189204,
                        0.104790010322250183839876322541518, 0.140653259715525918745189590510238,
                        0.169004726639267902826583426598550, 0.190350578064785409913256402421014,
                        0.204432940075298892414161999234649, 0.209482141084727828012999174891714};
  const double wg[4] = {0.129484966168869693270611432679082, 0.279705391489276667901467771423780,
                        0.381830050505118944950369775488975, 0.417959183673469387755102040816327};
  constexpr double kEpsilon = 2.220446049250313e-16;
  double sum, sum_low, difference, difference_low;
  two_sum(a, b, &sum, &sum_low);
  two_sum(b, -a, &difference, &difference_low);
  const double center = 0.5 * sum, center_low = 0.5 * sum_low;
  const double half = 0.5 * difference, half_low = 0.5 * difference_low;
  double values[15], magnitudes[15];
  bool node_exact = true;
  values[7] = evaluate_at_node(f, center, center_low, &magnitudes[7], &node_exact, Rank<2>{});
  for (int j = 0; j < 7; ++j) {
    const double dx = half * xk[j];
    double x, x_low;
    two_sum(center, -dx, &x, &x_low);
    values[j] = evaluate_at_node(f, x, x_low + center_low, &magnitudes[j], &node_exact, Rank<2>{});
    two_sum(center, dx, &x, &x_low);
    values[14 - j] = evaluate_at_node(f, x, x_low + center_low, &magnitudes[14 - j], &node_exact, Rank<2>{});
  }
  double kronrod = 0.0, kronrod_low = 0.0, gauss = wg[3] * values[7], absolute = 0.0, squares = 0.0;
  for (int j = 0; j < 15; ++j) {
    const double weight = wk[j < 8 ? j : 14 - j];
    const double term = weight * values[j];
    double low;
    two_sum(kronrod, term, &kronrod, &low);
    kronrod_low += low + fma(weight, values[j], -term);
    absolute += fabs(term);
    squares += weight * weight * magnitudes[j] * magnitudes[j];
  }
  for (int j = 1; j < 7; j += 2) gauss += wg[j / 2] * (values[j] + values[14 - j]);
  const double mean = 0.5 * kronrod;
  double deviation = wk[7] * fabs(values[7] - mean);
  for (int j = 0; j < 7; ++j) deviation += wk[j] * (fabs(values[j] - mean) + fabs(values[14 - j] - mean));
  const double width = fabs(half);
  double e = fabs((kronrod - gauss) * half);
  deviation *= width;
  if (deviation <= 2.0 * kEpsilon * absolute * width)
    e = 0.0;  // f is constant to rounding over the nodes: the rule is exact but for the rounding term
  else if (e != 0.0)
    e = deviation * fmin(1.0, pow(200.0 * e / deviation, 1.5));
  KronrodSums result;
  result.estimate = kronrod * half;
  result.estimate_low = fma(kronrod, half, -result.estimate) + kronrod_low * half + kronrod * half_low;
  result.error = e;
  result.rounding_squared = kEpsilon * kEpsilon * squares * half * half;
  result.argument_rounding = 0.0;
  if (!node_exact) {
    double variation = 0.0;  // values[] runs over the nodes in ascending order
    for (int j = 0; j < 14; ++j) variation += fabs(values[j + 1] - values[j]);
    result.argument_rounding = kEpsilon * fmax(fabs(a), fabs(b)) * variation;
  }
  return result;
}

}  // namespace geobem::quadrature

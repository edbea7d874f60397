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

/// A Kronrod rule's result on one interval, or summed over a run of
/// adjacent intervals: the estimate in two doubles (estimate +
/// estimate_low), the truncation error, Σ r² of the rounding bounds r, and
/// Σ of the bounds for a rounded argument where f takes the node in one
/// double (see gauss_kronrod_15); and at the run's two ends, f there as the
/// interpolant through the 15 nodes of the end interval extrapolates it
/// (left_value, right_value) and that interval's end gap, the width between
/// its end and its outer node (left_gap, right_gap; 0: an empty sum).
struct KronrodSums {
  double estimate, estimate_low, error, rounding_squared, argument_rounding;
  double left_value, right_value, left_gap, right_gap;
  double left_roughness, right_roughness;  ///< the end intervals' largest |N_m(f)|, m = 9 … 14, or 10 ulps of their mean |f|
};

/// Fraction of an interval's width between each end and its outer Kronrod node.
constexpr double kKronrodEndGap = 0.5 * (1.0 - 0.991455371120812639206854697526329);

/// The error a kink hidden in the end gaps at the junction of two adjacent
/// intervals leaves: f linear on all 15 nodes of each (a kink within
/// kKronrodEndGap of the shared end), so that no rule on either interval's
/// nodes sees it, but their interpolants extrapolated to the shared end
/// disagree by δ = |s_1 − s_2|·d, d ≤ gap the kink's distance from that end;
/// the rule's error is |s_1 − s_2|·d²/2 = δ·d/2, so δ·gap bounds it twice
/// over. Not counted: a δ within the extrapolations' rounding (their
/// Lebesgue constant 3.8 times a few ulps of f, 1000 ulps here); an error
/// within `argument_noise` (the runs' argument_rounding, already in the
/// rounding term, which a functor of one double's rounded node makes far
/// larger than ulps of f); and a δ within 100 times the two intervals'
/// `roughness` (their largest null-rule value, at least 10 ulps of f's mean
/// size over the interval): a smooth f's interpolants
/// miss its value at the end by about its next expansion coefficient, far
/// more than the Kronrod rule misses its integral, whereas f linear on all
/// nodes has null-rule values of rounding's size.
GEOBEM_HD inline double junction_error(double left_value, double right_value, double gap, double argument_noise,
                                      double roughness) {
  constexpr double kEpsilon = 2.220446049250313e-16;
  const double mismatch = fabs(left_value - right_value);
  const bool counted = mismatch > 1000.0 * kEpsilon * (fabs(left_value) + fabs(right_value)) &&
                       mismatch > 100.0 * roughness && mismatch * gap > argument_noise;
  return counted ? mismatch * gap : 0.0;
}

/// total += part, `part` the run just right of `total`'s: the estimates
/// added by TwoSum so that the sum of many intervals carries no rounding of
/// its own beyond ε² terms, the errors summed with junction_error at the
/// shared end.
GEOBEM_HD inline void add_kronrod_sums(KronrodSums& total, const KronrodSums& part) {
  if (part.left_gap == 0.0) return;
  if (total.left_gap == 0.0) {
    total = part;
    return;
  }
  double low;
  two_sum(total.estimate, part.estimate, &total.estimate, &low);
  total.estimate_low += low + part.estimate_low;
  total.error += part.error + junction_error(total.right_value, part.left_value, fmax(total.right_gap, part.left_gap),
                                            total.argument_rounding + part.argument_rounding,
                                            total.right_roughness + part.left_roughness);
  total.rounding_squared += part.rounding_squared;
  total.argument_rounding += part.argument_rounding;
  total.right_value = part.right_value;
  total.right_gap = part.right_gap;
  total.right_roughness = part.right_roughness;
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
///
/// |K15 − G7| alone can vanish by accident where f is not smooth: a kink
/// |x − c| at some positions c inside the interval gives an estimate 10⁻⁶ of
/// the true error (0.5% of positions below it, 0.03% below a tenth of it).
/// A second estimate from a sequence of null rules on the same 15 points
/// (Berntsen & Espelid, Error estimation in automatic quadrature routines,
/// ACM TOMS 17, 1991) sees what one difference misses: N_m(f) = Σ_j w_j
/// P_m(x_j) f(x_j), P_m the polynomials orthonormal in the Kronrod weights
/// on the 15 nodes, vanishes on polynomials of degree < m, and N_9 … N_14 are
/// the coefficients of f's discrete expansion that K15 − G7 (a multiple of
/// N_14) is one of. Paired as E_1 = |(N_14, N_13)|, E_2 = |(N_12, N_11)|,
/// E_3 = |(N_10, N_9)|, their ratios r = max(E_1/E_2, E_2/E_3) are small
/// where f is asymptotically smooth; where r > 0.3 (not asymptotic: a kink,
/// an endpoint singularity, a pole nearer than the interval's width) the
/// error is at least 10·max(E_k)·(b − a)/2, the non-asymptotic estimate of
/// Berntsen & Espelid, unless the pairs are within the values' rounding
/// (50·ε·Σ|w f|, QUADPACK's floor), where their ratios are rounding's, not f's.
/// Measured (bench/RESULTS.md): every kink position but the two gaps between
/// the interval's ends and its outer nodes (0.43% of the width each, where f
/// is linear on all 15 nodes and no rule on them can tell), and x^{−a} at an
/// end for a ≤ 0.98, have their error within this estimate.
///
/// Ratio of successive null-rule pairs above which f is taken as not asymptotic.
constexpr double kNullRuleCriticalRatio = 0.3;
/// Safety factor of the non-asymptotic null-rule estimate.
constexpr double kNullRuleSafety = 10.0;

/// The non-asymptotic null-rule estimate of the 15 values in ascending node
/// order on an interval of half-width `half` (see gauss_kronrod_15), 0 where
/// the null rules decay as for a smooth f or are within `noise` (the
/// values' rounding); *roughness receives the largest
/// |N_m(f)|. rules[k]: N_{9+k} at the nodes in
/// ascending order j = 0 … 7 (centre), the rest by symmetry,
/// N_m(x_{14−j}) = (−1)^m N_m(x_j); the Kronrod weights times the discrete
/// orthonormal polynomials (Gram–Schmidt on the monomials in 40 digits).
GEOBEM_HD inline double null_rule_error(const double* values, double half, double noise, double* roughness) {
  const double rules[6][8] = {
      {-0.045965007870745325, 0.053940771447892472, 0.058867741859852919, -0.13617322773261725, 0.047735206021151701,
       0.11759566200044749, -0.15045316360263725, 0.0},
      {0.04322749824099046, -0.073794268837947166, 0.00049226528943308501, 0.1097127735128705, -0.14296304865580076,
       0.049812396374427352, 0.097036568207859553, -0.16704836826366606},
      {-0.039652671446735836, 0.085980164419982102, -0.059731148752389954, -0.026339869100637518, 0.11965884239135126,
       -0.15801168326892279, 0.11020208365466766, 0.0},
      {0.034785683358911385, -0.087898482218680851, 0.10116873974550034, -0.069622186427797189, 0.0028039963671601278,
       0.077129214214242167, -0.14063007211912792, 0.16452621415958391},
      {-0.027654609623467618, 0.076634897360810153, -0.1102192461005813, 0.12539972729753973, -0.12046215667753678,
       0.094508768588945094, -0.051660010911722891, 0.0},
      {0.016178520002172892, -0.046833370469251193, 0.073918616762743639, -0.098087033363369644, 0.11921552045966081,
       -0.13506915113113621, 0.14420649549166345, -0.14705919550496752}};
  double null[6];
  for (int k = 0; k < 6; ++k) {
    const double mirror = (k & 1) ? 1.0 : -1.0;  // N_{9+k}: odd m for even k
    double sum = rules[k][7] * values[7];
    for (int j = 0; j < 7; ++j) sum += rules[k][j] * (values[j] + mirror * values[14 - j]);
    null[k] = fabs(sum);
  }
  const double e1 = hypot(null[5], null[4]), e2 = hypot(null[3], null[2]), e3 = hypot(null[1], null[0]);
  const double largest = fmax(e1, fmax(e2, e3));
  *roughness = 0.0;
  for (int k = 0; k < 6; ++k) *roughness = fmax(*roughness, null[k]);
  // A pair within the values' rounding has decayed as far as it can: its
  // ratio to the next is rounding's, not f's (Berntsen & Espelid's noise level).
  const bool asymptotic = (e1 <= kNullRuleCriticalRatio * e2 || e1 <= noise) &&
                          (e2 <= kNullRuleCriticalRatio * e3 || e2 <= noise);
  return asymptotic ? 0.0 : kNullRuleSafety * largest * fabs(half);
}

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
  double argument_rounding = 0.0;
  if (!node_exact) {
    double variation = 0.0;  // values[] runs over the nodes in ascending order
    for (int j = 0; j < 14; ++j) variation += fabs(values[j + 1] - values[j]);
    argument_rounding = kEpsilon * fmax(fabs(a), fabs(b)) * variation;
  }
  const double width = fabs(half);
  double e = fabs((kronrod - gauss) * half);
  deviation *= width;
  double roughness = 0.0;
  if (deviation <= 2.0 * kEpsilon * absolute * width) {
    e = 0.0;  // f is constant to rounding over the nodes: the rule is exact but for the rounding term
  } else {
    if (e != 0.0) e = deviation * fmin(1.0, pow(200.0 * e / deviation, 1.5));
    const double null_error = null_rule_error(values, half, 50.0 * kEpsilon * absolute, &roughness);
    // Not counted within the rounding floor, nor within ten times the
    // argument's rounding (a functor of one double: its values carry
    // ε·|x|·|f'| each, which the null rules see as a non-asymptotic f).
    if (null_error > 50.0 * kEpsilon * absolute * width && null_error > 10.0 * argument_rounding)
      e = fmax(e, null_error);
  }
  // f at the ends as the interpolant through the 15 nodes extrapolates it
  // (Lagrange's basis at +1 over the ascending nodes; at −1 by symmetry).
  const double to_end[15] = {0.00623852864534031,  -0.01845157704696352, 0.030438309530368069, -0.043250815978174144,
                             0.057719118618911644, -0.073778979644262707, 0.091687296848571284, -0.11292917291898187,
                             0.13978343178290886, -0.17457035156224193,  0.22117597022489355,  -0.29141869591999175,
                             0.42004719972088489,  -0.70667399340457671,  1.4539837311033141};
  double left_value = 0.0, right_value = 0.0;
  for (int j = 0; j < 15; ++j) {
    right_value += to_end[j] * values[j];
    left_value += to_end[j] * values[14 - j];
  }
  KronrodSums result;
  result.left_value = left_value;
  result.right_value = right_value;
  result.left_gap = result.right_gap = 2.0 * kKronrodEndGap * width;
  // At least 10 ulps of f's mean size over the interval: where f passes
  // through 0 at the shared end, its values' rounding is relative to that.
  result.left_roughness = result.right_roughness = fmax(roughness, 10.0 * kEpsilon * absolute);
  result.estimate = kronrod * half;
  result.estimate_low = fma(kronrod, half, -result.estimate) + kronrod_low * half + kronrod * half_low;
  result.error = e;
  result.rounding_squared = kEpsilon * kEpsilon * squares * half * half;
  result.argument_rounding = argument_rounding;
  return result;
}

}  // namespace geobem::quadrature

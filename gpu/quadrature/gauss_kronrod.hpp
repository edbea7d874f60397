#pragma once
// The 7-point Gauss / 15-point Kronrod pair on one interval, GEOBEM_HD.
// Nodes and weights: Kronrod's extension of Gauss–Legendre (Kronrod 1965;
// the values tabulated in QUADPACK, Piessens et al. 1983, routine QK15).
#include <cmath>

#include "gpu/core/host_device.hpp"

namespace geobem::quadrature {

/// Applies the 15-point Kronrod rule to f on [a, b] with QUADPACK's error
/// estimate (Piessens, de Doncker-Kapenga, Überhuber & Kahaner, QUADPACK,
/// Springer 1983, routine QK15): with e = |K15 − G7|·(b − a)/2 and
/// I_asc = ∫|f − K15/(b − a)| by the Kronrod weights, the error is
/// I_asc·min(1, (200 e / I_asc)^{3/2}) (the 3/2 power reflects that K15 is far
/// more accurate than G7 once e is small), and never below the rounding term,
/// which is returned in *rounding as well: QUADPACK's 50·ε·∫|f| for the sum,
/// plus ε·max(|a|, |b|)·∫|f'| for the abscissae and the integrand's argument,
/// each rounded to relative ε (a first-order perturbation: f(x(1 + δ)) − f(x)
/// ≈ x f'(x) δ; it dominates for e^{px} or sin(ωx) far from x = 0, where
/// |ωx| ε reaches the tolerance), ∫|f'| taken as the variation of f over the
/// 15 nodes.
/// xk: Kronrod abscissae on [0, 1) descending; odd indices (1, 3, 5) and the
/// centre (index 7) are the 7-point Gauss nodes, weighted by wg.
template <class F>
GEOBEM_HD inline void gauss_kronrod_15(const F& f, double a, double b, double* estimate, double* error,
                                       double* rounding) {
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
  const double center = 0.5 * (a + b), half = 0.5 * (b - a);
  double values[15];
  values[7] = f(center);
  for (int j = 0; j < 7; ++j) {
    const double dx = half * xk[j];
    values[j] = f(center - dx);
    values[14 - j] = f(center + dx);
  }
  double kronrod = wk[7] * values[7], gauss = wg[3] * values[7], absolute = wk[7] * fabs(values[7]);
  for (int j = 0; j < 7; ++j) {
    const double pair = values[j] + values[14 - j];
    kronrod += wk[j] * pair;
    absolute += wk[j] * (fabs(values[j]) + fabs(values[14 - j]));
    if (j % 2 == 1) gauss += wg[j / 2] * pair;
  }
  const double mean = 0.5 * kronrod;
  double deviation = wk[7] * fabs(values[7] - mean);
  for (int j = 0; j < 7; ++j) deviation += wk[j] * (fabs(values[j] - mean) + fabs(values[14 - j] - mean));
  double variation = 0.0;  // values[] runs over the nodes in ascending order
  for (int j = 0; j < 14; ++j) variation += fabs(values[j + 1] - values[j]);
  const double width = fabs(half);
  double e = fabs((kronrod - gauss) * half);
  deviation *= width;
  if (deviation != 0.0 && e != 0.0) e = deviation * fmin(1.0, pow(200.0 * e / deviation, 1.5));
  *rounding = kEpsilon * (10.0 * absolute * width + fmax(fabs(a), fabs(b)) * variation);
  *estimate = kronrod * half;
  *error = fmax(e, *rounding);
}

}  // namespace geobem::quadrature

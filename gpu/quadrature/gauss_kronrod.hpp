#pragma once
// The 7-point Gauss / 15-point Kronrod pair on one interval, GEOBEM_HD.
// Nodes and weights: Kronrod's extension of Gauss–Legendre (Kronrod 1965;
// the values tabulated in QUADPACK, Piessens et al. 1983, routine QK15).
#include <cmath>

#include "gpu/core/host_device.hpp"

namespace geobem::quadrature {

/// Kronrod abscissae on [0, 1) descending; odd indices (1, 3, 5) and the
/// centre (index 7) are the 7-point Gauss nodes.
struct GaussKronrod15 {
  static constexpr int kPoints = 15;
};

/// Applies the 15-point Kronrod rule to f on [a, b]: *estimate is the Kronrod
/// value, *error = |K15 − G7| (the plain difference, no QUADPACK rescaling,
/// so it is a conservative estimate of the G7 error and far above K15's).
template <class F>
GEOBEM_HD inline void gauss_kronrod_15(const F& f, double a, double b, double* estimate, double* error) {
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
  const double center = 0.5 * (a + b), half = 0.5 * (b - a);
  const double fc = f(center);
  double kronrod = wk[7] * fc, gauss = wg[3] * fc;
  for (int j = 0; j < 7; ++j) {
    const double dx = half * xk[j];
    const double pair = f(center - dx) + f(center + dx);
    kronrod += wk[j] * pair;
    if (j % 2 == 1) gauss += wg[j / 2] * pair;
  }
  *estimate = kronrod * half;
  *error = fabs((kronrod - gauss) * half);
}

}  // namespace geobem::quadrature

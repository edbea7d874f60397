#pragma once
// A user's Longman integrand: the oscillating factor named by
// `--oscillation KIND:PARAM` (cos, sin, J0 or J1 of omega x) times the rest
// given as an expression, as a functor of longman.hpp's concept. The factor
// fixes the half-cycle partition as a weight function does for QUADPACK's
// QAWF (Piessens et al. 1983): its zeros, (n + 1/2) pi/omega, (n + 1) pi/omega
// or j_{nu,n+1}/omega. The rest is assumed smooth over a half cycle unless
// the user states a decay rate, which then sets the Gauss panels and the
// cut-off exactly as the damped built-in families do (families.hpp). Nothing
// vouches for that smoothness, so each half-cycle area is checked and
// bisected where it needs it, and its error counted (integrate_one below).
// `Rest` is any functor `double operator()(double x) const`: the CPU
// program (expression_program.hpp) or the generated device functor.
#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/transform/bessel.hpp"
#include "gpu/transform/families.hpp"
#include "gpu/transform/longman.hpp"

namespace geobem::expression {

enum class OscillationKind : int { Cos = 0, Sin = 1, J0 = 2, J1 = 3 };

/// cos, sin, J0 or J1 of `argument`.
template <OscillationKind Kind>
GEOBEM_HD inline double oscillating_factor(double argument) {
  if (Kind == OscillationKind::Cos) return cos(argument);
  if (Kind == OscillationKind::Sin) return sin(argument);
  if (Kind == OscillationKind::J0) return transform::bessel_j0(argument);
  return transform::bessel_j1(argument);
}

template <class Rest, OscillationKind Kind>
struct OscillatoryIntegrand {
  Rest rest;
  double omega;       ///< angular frequency, > 0
  double decay_rate;  ///< lambda of an envelope e^{-lambda x} of the rest; 0: not damped

  GEOBEM_HD double operator()(double x) const { return oscillating_factor<Kind>(omega * x) * rest(x); }
  GEOBEM_HD double lower() const { return 0.0; }
  GEOBEM_HD double partition(int n) const {
    if (Kind == OscillationKind::Cos) return (n + 0.5) * kPi / omega;
    if (Kind == OscillationKind::Sin) return (n + 1) * kPi / omega;
    return transform::bessel_zero(Kind == OscillationKind::J0 ? 0 : 1, n + 1) / omega;
  }
  GEOBEM_HD double panel_width(double) const { return transform::damped_panel_width(decay_rate); }
  GEOBEM_HD double decay_length() const { return transform::decay_length_of(decay_rate); }
};

/// Longman's method with checked areas (transform::checked_area) for a
/// user's integrand; the drivers' unqualified integrate_one finds it by
/// argument-dependent lookup, as they find a family's own.
template <class Rest, OscillationKind Kind>
GEOBEM_HD transform::LongmanResult integrate_one(const OscillatoryIntegrand<Rest, Kind>& f,
                                                 const transform::GaussRule& rule,
                                                 const transform::LongmanOptions& options) {
  return transform::longman_integrate<true>(f, rule, options);
}

}  // namespace geobem::expression

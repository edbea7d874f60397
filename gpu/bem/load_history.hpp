#pragma once
// Load histories: the time factor f(t) that multiplies a load case's
// prescribed traction or pressure. Every history is causal (f = 0 for t < 0)
// and dimensionless; the load's amplitude carries the unit.
//
// How a stage uses one (the CQ-BEM solves per Laplace point, so a history
// enters only through its CQ forward transform, docs/references.md#cq-bem):
//   LoadHistory history = geobem::loads::parse_load_history("ricker:25");  // mesh/loads
//   std::vector<double> g = load_history_samples(history, cq);             // f(nΔt), n = 0…N
//   std::vector<Complex> g_hat = cq_forward_transform(g, cq);              // ĝ_l, l = 0…⌊L/2⌋
// and the solution for that load case at Laplace point s_l is scaled by ĝ_l
// before the inverse transform. The texts parse_load_history() accepts are
// listed there; a stage takes them as `--load-history [GROUP=]TEXT`.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/bem/convolution_quadrature.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/math_constants.hpp"

namespace geobem::bem {

struct LoadHistory {
  enum class Kind {
    heaviside,    ///< f = 1 for t ≥ 0
    ramp,         ///< f = min(t/T, 1), T = rise_time
    ricker,       ///< f = (1 − 2π²f_c²τ²) e^{−π²f_c²τ²}, τ = t − delay (the Mexican hat; peak 1 at t = delay)
    friedlander,  ///< f = (1 − t/t_d) e^{−b t/t_d} (Friedlander blast pulse; t_d positive-phase duration, b decay)
    tabulated,    ///< linear between (times[k], values[k]); 0 before times[0]; values.back() after times.back()
  };
  Kind kind = Kind::heaviside;
  double rise_time = 0;           ///< ramp: T (s)
  double central_frequency = 0;   ///< ricker: f_c (Hz), the peak of its amplitude spectrum
  double delay = 0;               ///< ricker: time of the peak (s)
  double positive_duration = 0;   ///< friedlander: t_d (s)
  double decay = 0;               ///< friedlander: b (dimensionless)
  std::vector<double> times;      ///< tabulated: strictly increasing, ≥ 0 (s)
  std::vector<double> values;     ///< tabulated: one value per time

  /// f(t).
  double operator()(double t) const {
    if (t < 0) return 0.0;
    switch (kind) {
      case Kind::heaviside: return 1.0;
      case Kind::ramp: return std::min(t / rise_time, 1.0);
      case Kind::ricker: {
        const double x = kPi * central_frequency * (t - delay), x2 = x * x;
        // e^{−x²} underflows past x² = 745, where (1 − 2x²) may already be
        // infinite: their product is 0 there, not NaN.
        return x2 < 745.0 ? (1 - 2 * x2) * std::exp(-x2) : 0.0;
      }
      case Kind::friedlander: {
        const double u = t / positive_duration;
        return decay * u < 745.0 ? (1 - u) * std::exp(-decay * u) : 0.0;
      }
      case Kind::tabulated: {
        if (t < times.front()) return 0.0;
        if (t >= times.back()) return values.back();
        const auto k = static_cast<std::size_t>(std::upper_bound(times.begin(), times.end(), t) - times.begin());
        const double w = (t - times[k - 1]) / (times[k] - times[k - 1]);
        return values[k - 1] + w * (values[k] - values[k - 1]);
      }
    }
    return 0.0;
  }
};

/// f(t) = 1, t ≥ 0.
inline LoadHistory heaviside_history() { return {}; }

/// f(t) = min(t/T, 1). Throws InputError unless T > 0 is finite.
inline LoadHistory ramp_history(double rise_time) {
  if (!(rise_time > 0) || !std::isfinite(rise_time))
    throw InputError("ramp rise time " + std::to_string(rise_time) + " s: expected a finite number > 0");
  LoadHistory h;
  h.kind = LoadHistory::Kind::ramp;
  h.rise_time = rise_time;
  return h;
}

/// Ricker wavelet of central frequency f_c (Hz) peaking at `delay` (s); the
/// default delay 1.5/f_c makes f(0) ≈ −1e-8, so cutting it at t = 0 is harmless.
/// Throws InputError unless f_c > 0 and delay ≥ 0 are finite.
inline LoadHistory ricker_history(double central_frequency, std::optional<double> delay = std::nullopt) {
  if (!(central_frequency > 0) || !std::isfinite(central_frequency))
    throw InputError("Ricker central frequency " + std::to_string(central_frequency) +
                     " Hz: expected a finite number > 0");
  if (delay && (!(*delay >= 0) || !std::isfinite(*delay)))
    throw InputError("Ricker delay " + std::to_string(*delay) + " s: expected a finite number >= 0");
  LoadHistory h;
  h.kind = LoadHistory::Kind::ricker;
  h.central_frequency = central_frequency;
  h.delay = delay ? *delay : 1.5 / central_frequency;
  return h;
}

/// Friedlander blast pulse (1 − t/t_d) e^{−b t/t_d}: peak 1 at t = 0, zero at
/// t_d, then a negative phase. Throws InputError unless t_d > 0
/// and b ≥ 0 are finite.
inline LoadHistory friedlander_history(double positive_duration, double decay) {
  if (!(positive_duration > 0) || !std::isfinite(positive_duration))
    throw InputError("Friedlander positive-phase duration " + std::to_string(positive_duration) +
                     " s: expected a finite number > 0");
  if (!(decay >= 0) || !std::isfinite(decay))
    throw InputError("Friedlander decay coefficient " + std::to_string(decay) +
                     ": expected a finite number >= 0");
  LoadHistory h;
  h.kind = LoadHistory::Kind::friedlander;
  h.positive_duration = positive_duration;
  h.decay = decay;
  return h;
}

/// Piecewise-linear history through (times[k], values[k]). Throws
/// InputError (naming the 0-based point) for no points,
/// sizes that differ, non-finite numbers, a negative first time or times not
/// strictly increasing.
inline LoadHistory tabulated_history(std::vector<double> times, std::vector<double> values) {
  if (times.empty()) throw InputError("tabulated history: no points");
  if (times.size() != values.size()) throw InputError("tabulated history: times and values differ in count");
  for (std::size_t k = 0; k < times.size(); ++k) {
    if (!std::isfinite(times[k]) || !std::isfinite(values[k]))
      throw InputError("tabulated history: point " + std::to_string(k) + " is not finite");
    if (k == 0 && times[k] < 0)
      throw InputError("tabulated history: first time " + std::to_string(times[k]) + " s is negative");
    if (k > 0 && !(times[k] > times[k - 1]))
      throw InputError("tabulated history: time of point " + std::to_string(k) + " (" +
                       std::to_string(times[k]) + " s) does not increase");
  }
  LoadHistory h;
  h.kind = LoadHistory::Kind::tabulated;
  h.times = std::move(times);
  h.values = std::move(values);
  return h;
}

/// The samples g_n = f(nΔt), n = 0…N, that cq_forward_transform() takes.
/// Throws InputError when the step cannot sample the history: a
/// Ricker wavelet whose central frequency lies above the Nyquist frequency
/// 1/(2Δt), or a Friedlander pulse whose positive phase is shorter than one
/// step, fall between the samples; and when a sample is not finite (a
/// Friedlander pulse without decay whose t/t_d overflows).
inline std::vector<double> load_history_samples(const LoadHistory& history, const CqSettings& settings) {
  check_cq_settings(settings);
  const auto text = [](double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", value);
    return std::string(buffer);
  };
  if (history.kind == LoadHistory::Kind::ricker && history.central_frequency * settings.time_step > 0.5)
    throw InputError("Ricker central frequency " + text(history.central_frequency) +
                     " Hz lies above the Nyquist frequency " + text(0.5 / settings.time_step) +
                     " Hz of the time step " + text(settings.time_step) +
                     " s: the wavelet falls between the samples; take a shorter step or a lower frequency");
  if (history.kind == LoadHistory::Kind::friedlander && history.positive_duration < settings.time_step)
    throw InputError("Friedlander positive-phase duration " + text(history.positive_duration) +
                     " s is shorter than the time step " + text(settings.time_step) +
                     " s: the pulse falls between the samples; take a shorter step");
  std::vector<double> samples(settings.steps + 1);
  for (int n = 0; n <= settings.steps; ++n) {
    samples[n] = history(n * settings.time_step);
    if (!std::isfinite(samples[n]))
      throw InputError("the load history is not finite at t = " + text(n * settings.time_step) + " s");
  }
  return samples;
}

}  // namespace geobem::bem

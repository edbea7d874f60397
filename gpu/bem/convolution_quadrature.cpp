#include "gpu/bem/convolution_quadrature.hpp"
#include "gpu/core/input_error.hpp"

#include <fftw3.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace geobem::bem {

namespace {
constexpr double two_pi = 6.283185307179586476925286766559;
// FFTW's planner is not thread-safe.
std::mutex fftw_planner_mutex;

/// The shortest text that reads back as `value` (std::to_string prints 1e-300 as 0.000000).
std::string number_text(double value) {
  char text[32];
  return std::string(text, std::to_chars(text, text + sizeof text, value).ptr);
}
}  // namespace

void check_cq_settings(const CqSettings& s) {
  if (s.steps < 1 || s.steps > max_cq_steps)
    throw InputError("CQ steps " + std::to_string(s.steps) + ": must be from 1 to " +
                     std::to_string(max_cq_steps));
  if (!(s.time_step > 0.0) || !std::isfinite(s.time_step))
    throw InputError("CQ time step " + number_text(s.time_step) + " s: must be positive");
  if (!(s.epsilon >= min_cq_epsilon && s.epsilon <= max_cq_epsilon))
    throw InputError("CQ epsilon " + number_text(s.epsilon) + ": must lie in [" +
                     number_text(min_cq_epsilon) + ", " + number_text(max_cq_epsilon) +
                     "] (the transform's aliasing error is about epsilon, its rounding error about "
                     "1e-16/sqrt(epsilon))");
}

void check_cq_step_ratio(double wave_speed, double time_step, double element_size) {
  const double beta = wave_speed * time_step / element_size;
  if (beta >= min_cq_step_ratio) return;
  char text[320];
  std::snprintf(text, sizeof text,
                "CQ step ratio beta = c*dt/h = %.3g (c = %.6g m/s, dt = %.6g s, h = %.6g m) is below %g: the step is "
                "far shorter than the mesh resolves (stable around 0.1-0.3); give dt >= %.6g s or a finer mesh",
                beta, wave_speed, time_step, element_size, min_cq_step_ratio,
                min_cq_step_ratio * element_size / wave_speed);
  throw InputError(text);
}

int cq_frequency_count(const CqSettings& s) { return (s.steps + 1) / 2 + 1; }

double cq_radius(const CqSettings& s) { return std::pow(s.epsilon, 1.0 / (2.0 * s.steps)); }

Complex cq_laplace_point(const CqSettings& s, int l) {
  const double radius = cq_radius(s), angle = two_pi * l / (s.steps + 1);
  const Complex zeta{radius * std::cos(angle), radius * std::sin(angle)};
  return (1.5 - 2.0 * zeta + 0.5 * (zeta * zeta)) / s.time_step;
}

std::vector<Complex> cq_forward_transform(const std::vector<double>& history, const CqSettings& s) {
  const int length = s.steps + 1;
  if (static_cast<int>(history.size()) != length)
    throw InputError("load history has " + std::to_string(history.size()) + " values, expected N + 1 = " +
                     std::to_string(length));
  std::vector<double> scaled(length);
  const double radius = cq_radius(s);
  for (int j = 0; j < length; ++j) scaled[j] = std::pow(radius, j) * history[j];
  std::vector<Complex> out(length / 2 + 1);
  fftw_plan plan;
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex);
    plan = fftw_plan_dft_r2c_1d(length, scaled.data(), reinterpret_cast<fftw_complex*>(out.data()), FFTW_ESTIMATE);
  }
  fftw_execute(plan);
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex);
    fftw_destroy_plan(plan);
  }
  // FFTW's forward sign is e^{−2πi jl/L}; the CQ transform uses e^{+…}: conjugate (real input).
  for (auto& value : out) value = conj(value);
  return out;
}

std::vector<double> cq_inverse_transform(const std::vector<Complex>& transformed, int columns, const CqSettings& s) {
  const int length = s.steps + 1, frequencies = cq_frequency_count(s);
  if (static_cast<long>(transformed.size()) != static_cast<long>(frequencies) * columns)
    throw InputError("inverse CQ transform: expected " + std::to_string(frequencies) + " x " +
                     std::to_string(columns) + " values");
  // Σ_l x̂_l e^{−2πi nl/L} is real, so equals Σ_l conj(x̂_l) e^{+2πi nl/L}: FFTW's c2r of the conjugates.
  std::vector<Complex> input(transformed.size());
  for (std::size_t k = 0; k < input.size(); ++k) input[k] = conj(transformed[k]);
  std::vector<double> out(static_cast<std::size_t>(length) * columns);
  fftw_plan plan;
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex);
    plan = fftw_plan_many_dft_c2r(1, &length, columns, reinterpret_cast<fftw_complex*>(input.data()), nullptr,
                                  columns, 1, out.data(), nullptr, columns, 1, FFTW_ESTIMATE);
  }
  fftw_execute(plan);
  {
    std::lock_guard<std::mutex> lock(fftw_planner_mutex);
    fftw_destroy_plan(plan);
  }
  const double radius = cq_radius(s);
  for (int n = 0; n < length; ++n) {
    const double scale = std::pow(radius, -n) / length;
    for (int c = 0; c < columns; ++c) out[static_cast<std::size_t>(n) * columns + c] *= scale;
  }
  return out;
}

double cq_time_step_from_beta(double beta, double element_size, double wave_speed) {
  for (const auto& [name, value] : {std::pair<const char*, double>{"beta", beta}, {"element size", element_size},
                                    {"wave speed", wave_speed}})
    if (!(value > 0.0) || !std::isfinite(value))
      throw InputError(std::string("CQ step: ") + name + " " + std::to_string(value) + " must be positive");
  return beta * element_size / wave_speed;
}

int cq_steps_for_duration(double duration, double time_step) {
  const double steps = std::ceil(duration / time_step - 1e-9);
  if (!(duration > 0.0) || !(steps >= 1.0 && steps <= max_cq_steps))
    throw InputError("duration " + number_text(duration) + " s with dt = " + number_text(time_step) +
                     " s gives " + number_text(steps) + " steps (1 to " + std::to_string(max_cq_steps) +
                     " allowed)");
  return static_cast<int>(steps);
}

std::string cq_step_warning(double wave_speed, double time_step, double element_size) {
  const double beta = wave_speed * time_step / element_size;
  // A β given as 0.3 comes back from dt = βh/c a few ulps off: the ends of
  // the range are taken with that much slack.
  const double slack = 1e-12;
  if (beta >= 0.1 * (1 - slack) && beta <= 0.3 * (1 + slack)) return "";
  char text[200];
  std::snprintf(text, sizeof text,
                "CQ step ratio beta = c*dt/h = %.3g (c = %.6g m/s, dt = %.6g s, h = %.6g m) lies outside the stable "
                "range 0.1-0.3",
                beta, wave_speed, time_step, element_size);
  return text;
}

}  // namespace geobem::bem

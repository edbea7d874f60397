// Load histories: values against their formulas' known points, and the CQ
// (BDF2) forward transform of their samples against closed-form sums
// ĝ_l = Σ_{j=0}^{N} g_j z^j, z = R e^{2πi l/L}, where the sum is geometric.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "gpu/bem/convolution_quadrature.hpp"
#include "gpu/bem/load_history.hpp"
#include "gpu/core/math_constants.hpp"
#include "mesh/loads/load_history_text.hpp"
#include "tests/support/test_files.hpp"

using namespace geobem;
using namespace geobem::bem;
using geobem::test::error_of;
using geobem::test::write_text;
using Cx = std::complex<long double>;

namespace {

const long double pi = 3.141592653589793238462643383279502884L;

/// z_l = R e^{2πi l/L}.
Cx cq_point(const CqSettings& cq, int l) {
  const long double R = std::pow(static_cast<long double>(cq.epsilon), 1.0L / (2 * cq.steps));
  return std::polar(R, 2 * pi * l / (cq.steps + 1));
}

/// Σ_{j=0}^{n} y^j.
Cx geometric(Cx y, int n) { return (Cx(1) - std::pow(y, n + 1)) / (Cx(1) - y); }

/// Σ_{j=0}^{n} j y^j = y(1 − (n+1) y^n + n y^{n+1}) / (1 − y)².
Cx weighted_geometric(Cx y, int n) {
  return y * (Cx(1) - Cx(n + 1) * std::pow(y, n) + Cx(n) * std::pow(y, n + 1)) / ((Cx(1) - y) * (Cx(1) - y));
}

/// Max over l of |computed − expected| / max |expected|.
template <class Expected>
double transform_error(const LoadHistory& history, const CqSettings& cq, Expected expected) {
  const auto computed = cq_forward_transform(load_history_samples(history, cq), cq);
  double error = 0, scale = 0;
  for (int l = 0; l < static_cast<int>(computed.size()); ++l) {
    const Cx e = expected(cq_point(cq, l));
    scale = std::max(scale, static_cast<double>(std::abs(e)));
    error = std::max(error, static_cast<double>(std::abs(Cx(computed[l].re, computed[l].im) - e)));
  }
  return error / scale;
}

const CqSettings settings[] = {{10, 0.1, 1e-10}, {127, 2.5e-4, 1e-10}, {400, 1e-3, 1e-8}};

}  // namespace

TEST(LoadHistory, HeavisideTransformIsGeometric) {
  for (const auto& cq : settings) {
    const int N = cq.steps;
    EXPECT_LT(transform_error(heaviside_history(), cq, [&](Cx z) { return geometric(z, N); }), 1e-13) << N;
  }
}

TEST(LoadHistory, RampTransformInClosedForm) {
  for (const auto& cq : settings)
    for (int m : {1, 3, cq.steps / 2, cq.steps}) {
      const auto ramp = ramp_history(m * cq.time_step);
      const int N = cq.steps;
      // (1/m) Σ_{j≤m} j z^j + Σ_{j=m+1}^{N} z^j.
      auto expected = [&](Cx z) {
        return weighted_geometric(z, m) / Cx(m) + (std::pow(z, m + 1) - std::pow(z, N + 1)) / (Cx(1) - z);
      };
      EXPECT_LT(transform_error(ramp, cq, expected), 1e-12) << N << " " << m;
    }
}

TEST(LoadHistory, FriedlanderTransformInClosedForm) {
  for (const auto& cq : settings)
    for (double b : {0.0, 1.0, 5.0}) {
      const double td = 7.3 * cq.time_step;
      const auto pulse = friedlander_history(td, b);
      const long double h = cq.time_step / td, q = std::exp(-b * h);
      const int N = cq.steps;
      // g_j = (1 − j h) q^j: Σ (qz)^j − h Σ j (qz)^j.
      auto expected = [&](Cx z) { return geometric(q * z, N) - Cx(h) * weighted_geometric(q * z, N); };
      EXPECT_LT(transform_error(pulse, cq, expected), 1e-12) << N << " " << b;
    }
  const auto pulse = friedlander_history(0.02, 1.5);
  EXPECT_DOUBLE_EQ(pulse(0), 1.0);
  EXPECT_NEAR(pulse(0.02), 0.0, 1e-17);
  EXPECT_NEAR(pulse(0.04), -std::exp(-3.0), 1e-15);
  EXPECT_EQ(pulse(-1e-9), 0.0);
}

TEST(LoadHistory, RickerPeakZerosAndSpectrum) {
  const double fc = 25.0;
  const auto ricker = ricker_history(fc);
  const double t0 = 1.5 / fc;
  EXPECT_DOUBLE_EQ(ricker(t0), 1.0);
  // Zeros at t0 ± 1/(π f_c √2).
  const double half_width = 1 / (geobem::kPi * fc * std::sqrt(2.0));
  EXPECT_NEAR(ricker(t0 + half_width), 0.0, 1e-15);
  EXPECT_NEAR(ricker(t0 - half_width), 0.0, 1e-15);
  EXPECT_LT(std::abs(ricker(0.0)), 2e-8);
  // Its amplitude spectrum ∝ f² e^{−f²/f_c²} peaks at f_c: a fine Fourier sum.
  auto amplitude = [&](double f) {
    std::complex<double> sum = 0;
    const double dt = 1e-5;
    for (double t = 0; t < 2 * t0; t += dt) sum += ricker(t) * std::polar(dt, -2 * geobem::kPi * f * t);
    return std::abs(sum);
  };
  const double peak = amplitude(fc);
  EXPECT_NEAR(amplitude(0.5 * fc) / peak, 0.25 * std::exp(0.75), 1e-6);
  EXPECT_LT(amplitude(0.97 * fc), peak);
  EXPECT_LT(amplitude(1.03 * fc), peak);
  EXPECT_NEAR(ricker_history(10.0, 0.5)(0.5), 1.0, 0.0);
}

TEST(LoadHistory, ParsedTextsAndTheirErrors) {
  EXPECT_EQ(loads::parse_load_history("heaviside").kind, LoadHistory::Kind::heaviside);
  EXPECT_EQ(loads::parse_load_history("ramp:0.01").rise_time, 0.01);
  const auto ricker = loads::parse_load_history("ricker:30:0.1");
  EXPECT_EQ(ricker.central_frequency, 30.0);
  EXPECT_EQ(ricker.delay, 0.1);
  EXPECT_DOUBLE_EQ(loads::parse_load_history("ricker:30").delay, 0.05);
  const auto pulse = loads::parse_load_history("friedlander:0.002:1.2");
  EXPECT_EQ(pulse.positive_duration, 0.002);
  EXPECT_EQ(pulse.decay, 1.2);
  EXPECT_EQ(error_of([] { loads::parse_load_history("step"); }),
            "load history 'step': unknown; expected heaviside, ramp:T, ricker:FC[:DELAY], friedlander:TD:B or "
            "csv:FILE");
  EXPECT_EQ(error_of([] { loads::parse_load_history("ramp"); }), "load history 'ramp': expected ramp:T (rise time, s)");
  EXPECT_EQ(error_of([] { loads::parse_load_history("ramp:x"); }), "load history 'ramp:x': 'x' is not a number");
  EXPECT_EQ(error_of([] { loads::parse_load_history("ramp:-1"); }),
            "load history 'ramp:-1': ramp rise time -1.000000 s: expected a finite number > 0");
  EXPECT_NE(error_of([] { loads::parse_load_history("ricker:0"); }).find("Ricker central frequency"),
            std::string::npos);
  EXPECT_NE(error_of([] { loads::parse_load_history("friedlander:1"); }).find("expected friedlander:TD:B"),
            std::string::npos);
  EXPECT_EQ(error_of([] { loads::parse_load_history("csv:"); }), "load history 'csv:': expected csv:FILE");
}

TEST(LoadHistory, TabulatedCsvIsTheRampItDescribes) {
  // A UTF-8 byte-order mark, CR LF line ends, a comment and an extra column.
  const auto file = write_text("ramp.csv", "\xEF\xBB\xBFtime,value,note\r\n# rise over 3 steps\r\n0,0,1\r\n0.3,1,2\r\n");
  const auto table = loads::parse_load_history("csv:" + file.string());
  const CqSettings cq{10, 0.1, 1e-10};
  const auto ramp = ramp_history(0.3);
  const auto a = load_history_samples(table, cq), b = load_history_samples(ramp, cq);
  for (std::size_t n = 0; n < a.size(); ++n) EXPECT_NEAR(a[n], b[n], 1e-15) << n;
  EXPECT_NEAR(table(0.15), 0.5, 1e-15);
  EXPECT_EQ(table(-0.1), 0.0);
  // Starting late: zero before the first time.
  const auto late = loads::read_load_history_csv(write_text("late.csv", "time,value\n0.2,1\n0.4,3\n").string());
  EXPECT_EQ(late(0.1), 0.0);
  EXPECT_DOUBLE_EQ(late(0.3), 2.0);
  EXPECT_EQ(late(1.0), 3.0);
}

TEST(LoadHistory, BadCsvNamesFileAndLine) {
  auto error = [](const std::string& name, const std::string& text) {
    const auto path = write_text(name, text).string();
    const std::string message = error_of([&] { loads::read_load_history_csv(path); });
    return message.substr(message.find(name));
  };
  EXPECT_EQ(error("back.csv", "time,value\n0,0\n0.2,1\n0.1,2\n"),
            "back.csv:4: time 0.100000 s does not increase (previous 0.200000 s)");
  EXPECT_EQ(error("negative.csv", "time,value\n-1,0\n0.1,2\n"), "negative.csv:2: time -1.000000 s is negative");
  EXPECT_EQ(error("empty.csv", "time,value\n"), "empty.csv: no rows after the header");
  EXPECT_NE(error("word.csv", "time,value\n0,high\n").find("word.csv:2"), std::string::npos);
  EXPECT_NE(error("columns.csv", "t,p\n0,1\n").find("missing column 'time'"), std::string::npos);
  EXPECT_NE(error_of([] { loads::read_load_history_csv("/nonexistent/history.csv"); }).find("/nonexistent/history.csv"),
            std::string::npos);
}

// The promise of `converged` on user expressions that defeat a rule assuming
// smoothness (expression_battery.hpp): over >= 30 forms at 1e-6, 1e-10 and
// 1e-12, >= 99.5% of converged rows within their tolerance and their own
// error estimate and none beyond 10x the tolerance, against mpmath; every
// row of a batch the same bytes as that row alone; and the reproductions of
// the rows that said `converged` wrongly before.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iostream>
#include <map>

#include "tests/expression/expression_battery.hpp"

namespace ex = geobem::expression;
namespace tf = geobem::transform;
namespace q = geobem::quadrature;
using geobem::ComputeDevice;
using geobem::IntegrationStatus;
using geobem::test::BatteryOutcome;
using geobem::test::BatteryRow;

namespace {

constexpr int kRowsPerFormInCi = 4;

TEST(ExpressionBattery, ConvergedRowsAreWithinTheirToleranceAndEstimate) {
  const auto forms = geobem::test::battery_forms(geobem::test::load_expression_battery(kRowsPerFormInCi));
  ASSERT_GE(forms.size(), 30u);
  std::size_t converged = 0, honest = 0, rows = 0, beyond_tenfold = 0;
  for (const double tolerance : {1e-6, 1e-10, 1e-12}) {
    for (const auto& form : forms) {
      const auto outcomes = geobem::test::run_battery_form(form, tolerance, ComputeDevice::Cpu);
      std::size_t form_converged = 0;
      for (std::size_t i = 0; i < form.size(); ++i) {
        ++rows;
        const BatteryOutcome& o = outcomes[i];
        if (o.status != IntegrationStatus::Converged) continue;
        ++converged, ++form_converged;
        const double miss = std::fabs(o.value - form[i].reference);
        const double allowed = tolerance * std::fabs(form[i].reference);
        // The reference's own last digit (17 printed) is within 1e-16 of it.
        const bool within = miss <= allowed + 1e-16 * std::fabs(form[i].reference) &&
                            miss <= o.error + 1e-16 * std::fabs(form[i].reference);
        honest += within;
        beyond_tenfold += miss > 10.0 * allowed;
        EXPECT_LE(miss, 10.0 * allowed) << form[i].method << " " << form[i].expression << " row " << i << " at "
                                        << tolerance << ": " << o.value << " against " << form[i].reference;
        if (!within)
          std::cout << "outside its tolerance or estimate: " << form[i].method << " '" << form[i].expression
                    << "' a=" << form[i].a << " b=" << form[i].b << " c=" << form[i].c << " w=" << form[i].w
                    << " [" << form[i].lower << ", " << form[i].upper << "] at " << tolerance << ": miss " << miss
                    << ", error " << o.error << "\n";
      }
      std::cout << tolerance << " " << form[0].method << " '" << form[0].expression << "': " << form_converged << " of "
                << form.size() << " converged\n";
    }
  }
  std::cout << converged << " of " << rows << " rows converged; " << honest << " of them within both\n";
  EXPECT_EQ(beyond_tenfold, 0u);
  EXPECT_GE(static_cast<double>(honest), 0.995 * static_cast<double>(converged));
  EXPECT_GE(converged, rows * 3 / 4);  // the battery measures the promise on most rows, not on a few
}

bool same_bytes(const BatteryOutcome& x, const BatteryOutcome& y) {
  return std::memcmp(&x.value, &y.value, sizeof(double)) == 0 && std::memcmp(&x.error, &y.error, sizeof(double)) == 0 &&
         x.status == y.status;
}

TEST(ExpressionBattery, EachRowOfABatchIsTheSameBytesAlone) {
  const auto forms = geobem::test::battery_forms(geobem::test::load_expression_battery(3));
  for (const auto& form : forms) {
    const auto batch = geobem::test::run_battery_form(form, 1e-10, ComputeDevice::Cpu);
    for (std::size_t i = 0; i < form.size(); ++i) {
      const auto alone = geobem::test::run_battery_form({form[i]}, 1e-10, ComputeDevice::Cpu);
      EXPECT_TRUE(same_bytes(batch[i], alone[0]))
          << form[i].method << " '" << form[i].expression << "' row " << i << ": batch " << batch[i].value << " +- "
          << batch[i].error << ", alone " << alone[0].value << " +- " << alone[0].error;
    }
  }
}

TEST(ExpressionReproductions, PoleNearTheAxisWithLongman) {
  // x/(x^2 + b^2) sin(w x): (pi/2) e^{-w b} = 1.3486790178334129; one Gauss
  // panel on the first half cycle was 1.5e-5 off and the row said converged.
  const ex::Expression rest = ex::parse_expression("x/(x^2+b^2)", {"x"}, {{"b", "w"}, "a column"});
  const double b = 0.3154641821925339, w = 0.4832786281375629, exact = 1.3486790178334129;
  for (const tf::Accelerator accelerator : {tf::Accelerator::Euler, tf::Accelerator::Epsilon, tf::Accelerator::SidiMW}) {
    tf::LongmanOptions options;
    options.accelerator = accelerator;
    options.relative_tolerance = 1e-12;
    const auto r = ex::integrate_longman_expression(rest, ex::OscillationKind::Sin, {w, 0.0, b}, 1, options, 16,
                                                    ComputeDevice::Cpu);
    EXPECT_EQ(r[0].status, IntegrationStatus::Converged) << static_cast<int>(accelerator);
    EXPECT_NEAR(r[0].value, exact, 1e-12 * exact) << static_cast<int>(accelerator);
    EXPECT_NEAR(r[0].value, exact, r[0].error) << static_cast<int>(accelerator);
  }
}

TEST(ExpressionReproductions, KinkInABatchAsAlone) {
  // abs(x - c) on [0, 1], c = 0.5 then c = 0.08397747883158116: the second
  // row's kink fell in the gap between a subinterval's end and its outer
  // node, where f is linear on all 15 nodes, and it said converged 4.8e-11 off.
  q::Adaptive1DOptions options;
  const ex::Expression f = ex::parse_expression("abs(x-c)", {"x"}, {{"c"}, "a column"});
  const double c = 0.08397747883158116, exact = 0.5 * (c * c + (1 - c) * (1 - c));
  const auto batch = ex::integrate_adaptive_expression(f, {0.0, 1.0, 0.5, 0.0, 1.0, c}, 2, options, ComputeDevice::Cpu);
  const auto alone = ex::integrate_adaptive_expression(f, {0.0, 1.0, c}, 1, options, ComputeDevice::Cpu);
  EXPECT_EQ(batch[0].status, IntegrationStatus::Converged);
  EXPECT_NEAR(batch[0].estimate, 0.25, 1e-10 * 0.25);
  EXPECT_EQ(batch[1].status, IntegrationStatus::Converged);
  EXPECT_NEAR(batch[1].estimate, exact, 1e-10 * exact);
  EXPECT_NEAR(batch[1].estimate, exact, batch[1].error);
  EXPECT_EQ(std::memcmp(&batch[1].estimate, &alone[0].estimate, sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(&batch[1].error, &alone[0].error, sizeof(double)), 0);
}

TEST(ExpressionReproductions, InverseSquareRootAtTheLowerLimitConverges) {
  // 1/sqrt(x) on [0, U] = 2 sqrt(U): the blocks at 0 were halved to
  // denormal widths, whose nodes reach x = 0 (non_finite).
  q::Adaptive1DOptions options;
  const ex::Expression f = ex::parse_expression("1/sqrt(x)", {"x"}, {});
  for (const double tolerance : {1e-6, 1e-10, 1e-12}) {
    options.rel_tol = tolerance;
    for (const double upper : {1e-3, 1.0, 7.0, 1e3}) {
      const auto r = ex::integrate_adaptive_expression(f, {0.0, upper}, 1, options, ComputeDevice::Cpu);
      const double exact = 2.0 * std::sqrt(upper);
      EXPECT_EQ(r[0].status, IntegrationStatus::Converged) << upper << " at " << tolerance;
      EXPECT_NEAR(r[0].estimate, exact, tolerance * exact) << upper << " at " << tolerance;
      EXPECT_NEAR(r[0].estimate, exact, r[0].error) << upper << " at " << tolerance;
    }
  }
}

}  // namespace

// The expression grammar: errors at the column of the bad token naming what
// is wrong, precedence and evaluation against the same formulas written in
// C++, and the Bessel functions the grammar adds (J_n, Y0, Y1) against
// libstdc++'s std::cyl_bessel_j / std::cyl_neumann (an independent
// implementation) and the Wronskian J1 Y0 - J0 Y1 = 2/(pi x).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "gpu/core/math_constants.hpp"
#include "gpu/expression/expression.hpp"
#include "gpu/expression/expression_cuda_source.hpp"
#include "gpu/expression/expression_functions.hpp"
#include "gpu/expression/expression_program.hpp"

namespace ex = geobem::expression;
namespace tf = geobem::transform;

namespace {

const ex::ParameterSource kColumns{{"a", "w", "u"}, "a column of table.csv"};

double evaluate(const std::string& text, double x, const std::vector<double>& parameters = {}) {
  const ex::Expression e = ex::parse_expression(text, {"x"}, kColumns);
  std::vector<double> row;
  for (const auto& name : e.parameters) row.push_back(parameters.at(name == "a" ? 0 : name == "w" ? 1 : 2));
  return ex::ExpressionProgram(e).evaluate(&x, row.data());
}

/// The ExpressionError's column and message for `text`.
std::pair<int, std::string> error_of(const std::string& text) {
  try {
    ex::parse_expression(text, {"x"}, kColumns);
  } catch (const ex::ExpressionError& error) {
    return {error.column(), error.what()};
  }
  return {0, ""};
}

}  // namespace

TEST(ExpressionParser, ErrorsPointAtTheBadTokenAndNameIt) {
  struct Case {
    std::string text;
    int column;
    std::string message;
  };
  const Case cases[] = {
      {"exp(-a*x)*foo", 11, "unknown name 'foo'"},
      {"exp(-a*x)*foo", 11, "not a column of table.csv (a, w, u)"},
      {"sinc(x)", 1, "unknown function 'sinc'"},
      {"atan2(x)", 1, "'atan2' takes 2 arguments, got 1"},
      {"exp(x, 2)", 1, "'exp' takes 1 argument, got 2"},
      {"exp(-a*x", 9, "expected ',' or ')'"},
      {"(x + 1", 7, "expected ')' to close the '(' at column 1"},
      {"x + * 2", 5, "unexpected '*' where an operand is expected"},
      {"x 2", 3, "unexpected '2' after a complete expression"},
      {"2x", 2, "a number directly followed by a name"},
      {"x $ 2", 3, "unexpected character '$'"},
      {"1e999 * x", 1, "not a number within double range"},
      {"", 1, "empty expression"},
      {"x +", 4, "ends where an operand is expected"},
      {"cos * x", 1, "'cos' is a function"},
  };
  for (const auto& c : cases) {
    const auto [column, message] = error_of(c.text);
    EXPECT_EQ(column, c.column) << c.text;
    EXPECT_NE(message.find(c.message), std::string::npos) << c.text << " -> " << message;
    // The caret line: the text, then a caret under the column.
    EXPECT_NE(message.find("\n  " + c.text + "\n  " + std::string(c.column - 1, ' ') + "^"), std::string::npos)
        << message;
  }
}

TEST(ExpressionParser, HexadecimalNumbersAreRefused) {
  for (const std::string text : {"0x10", "x*0X1p4", "0x.8"}) {
    const auto [column, message] = error_of(text);
    EXPECT_EQ(column, static_cast<int>(text.find('0')) + 1) << text;
    EXPECT_NE(message.find("hexadecimal numbers are not accepted"), std::string::npos) << message;
  }
  EXPECT_EQ(evaluate("0.5e1 + 10", 0.0), 15.0);
}

std::string repeated(const std::string& unit, int count) {
  std::string text;
  for (int k = 0; k < count; ++k) text += unit;
  return text;
}

// Texts that overflowed the parser's stack: every bound is named in the
// message, at its column, and the largest accepted texts still evaluate
// (the CPU program and the CUDA source recurse through them too).
TEST(ExpressionParser, SizeBoundsAreNamedAndTheLargestTextsStillEvaluate) {
  const int nesting = ex::kMaxExpressionNesting, terms = ex::kMaxExpressionTerms;
  struct Case {
    std::string text;
    int column;
    std::string message;
  };
  const Case cases[] = {
      {repeated("(", 20000) + "x" + repeated(")", 20000), ex::kMaxExpressionCharacters + 1,
       "longer than 4096 characters (40001)"},
      {"x" + repeated("+x", 39999), ex::kMaxExpressionCharacters + 1, "longer than 4096 characters (79999)"},
      {repeated("(", nesting) + "x" + repeated(")", nesting), nesting + 1, "nested deeper than 100 levels"},
      {repeated("-", nesting) + "x", nesting + 1, "nested deeper than 100 levels"},
      {"x" + repeated("^x", nesting), 2 * nesting + 1, "nested deeper than 100 levels"},
      {repeated("exp(", nesting) + "x" + repeated(")", nesting), 4 * nesting + 1, "nested deeper than 100 levels"},
      {"x" + repeated("+x", terms), 2 * terms + 1, "more than 1000 terms (numbers and names)"},
  };
  for (const auto& c : cases) {
    const auto [column, message] = error_of(c.text);
    EXPECT_EQ(column, c.column) << c.text.substr(0, 40);
    EXPECT_NE(message.find(c.message), std::string::npos) << message.substr(0, 300);
    EXPECT_LT(message.size(), 400u) << "the text is shown around the column, not whole";
  }
  // One level and one term less: accepted, and evaluated to the number it is.
  EXPECT_EQ(evaluate(repeated("(", nesting - 1) + "x" + repeated(")", nesting - 1), 3.0), 3.0);
  EXPECT_EQ(evaluate(repeated("-", nesting - 2) + "x", 3.0), 3.0);
  EXPECT_EQ(evaluate("x" + repeated("+x", terms - 1), 0.5), 0.5 * terms);
  const ex::Expression widest = ex::parse_expression("x" + repeated("*x", terms - 1), {"x"}, kColumns);
  EXPECT_EQ(ex::ExpressionProgram(widest).evaluate(std::vector<double>{1.0}.data(), nullptr), 1.0);
  EXPECT_EQ(ex::cuda_expression_source(widest, {"x"}, {}).size(), 6u * terms - 5);  // "(a * b)" per product
}

TEST(ExpressionParser, WithoutParametersSaysSo) {
  try {
    ex::parse_expression("x1 * b", ex::numbered_variables(2), {});
    FAIL();
  } catch (const ex::ExpressionError& error) {
    EXPECT_EQ(error.column(), 6);
    EXPECT_NE(std::string(error.what()).find("not a variable (x1, x2)"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("this command takes no parameters"), std::string::npos);
  }
}

TEST(ExpressionParser, ParametersInOrderOfFirstUse) {
  const ex::Expression e = ex::parse_expression("u*x + a*w - u", {"x"}, kColumns);
  EXPECT_EQ(e.parameters, (std::vector<std::string>{"u", "a", "w"}));
}

TEST(ExpressionParser, PrecedenceAndAssociativity) {
  EXPECT_EQ(evaluate("-2^2", 0.0), -4.0);
  EXPECT_EQ(evaluate("2^3^2", 0.0), 512.0);
  EXPECT_EQ(evaluate("2^-1", 0.0), 0.5);
  EXPECT_EQ(evaluate("8/4/2", 0.0), 1.0);
  EXPECT_EQ(evaluate("10-4-3", 0.0), 3.0);
  EXPECT_EQ(evaluate("1+2*3^2", 0.0), 19.0);
  EXPECT_EQ(evaluate("--x", 3.0), 3.0);
  EXPECT_EQ(evaluate("+x", 3.0), 3.0);
  EXPECT_EQ(evaluate(".5e1 + 1.5E-1 + 2.", 0.0), 7.15);
  EXPECT_EQ(evaluate("pi", 0.0), geobem::kPi);
  EXPECT_EQ(evaluate("x^0.5", 2.0), std::sqrt(2.0));
}

TEST(ExpressionParser, RandomBatteryMatchesTheSameFormulasInCpp) {
  struct Case {
    std::string text;
    std::function<double(double, double, double, double)> exact;  // x, a, w, u
  };
  const Case cases[] = {
      {"exp(-a*x)*cos(w*x)", [](double x, double a, double w, double) { return std::exp(-a * x) * std::cos(w * x); }},
      {"x^3 - 2*x + sin(x)/cos(x)", [](double x, double, double, double) { return x * x * x - 2 * x + std::sin(x) / std::cos(x); }},
      {"sqrt(abs(x)) * log(1 + x^2) + tan(u)",
       [](double x, double, double, double u) { return std::sqrt(std::fabs(x)) * std::log(1 + x * x) + std::tan(u); }},
      {"sinh(x/a) - cosh(x/w) + tanh(u*x)",
       [](double x, double a, double w, double u) { return std::sinh(x / a) - std::cosh(x / w) + std::tanh(u * x); }},
      {"asin(u/2) + acos(u/3) + atan(x) + atan2(x, -a)",
       [](double x, double a, double, double u) { return std::asin(u / 2) + std::acos(u / 3) + std::atan(x) + std::atan2(x, -a); }},
      {"min(x, a) * max(w, u) + x^-2",
       [](double x, double a, double w, double u) { return std::min(x, a) * std::max(w, u) + 1.0 / (x * x); }},
      {"a^w", [](double, double a, double w, double) { return std::pow(a, w); }},
      {"J0(x) + J1(a*x) + Jn(3, w*x) + Y0(x) + Y1(a + x)",
       [](double x, double a, double w, double) {
         return tf::bessel_j0(x) + tf::bessel_j1(a * x) + tf::bessel_jn(3, w * x) + ex::bessel_y0(x) + ex::bessel_y1(a + x);
       }},
  };
  std::mt19937_64 random(18);
  std::uniform_real_distribution<double> decades(-3.0, 2.0), unit(-0.9, 0.9);
  for (const auto& c : cases)
    for (int trial = 0; trial < 200; ++trial) {
      const double x = std::pow(10.0, decades(random)), a = std::pow(10.0, decades(random)),
                   w = std::pow(10.0, decades(random)), u = unit(random);
      const double value = evaluate(c.text, x, {a, w, u}), exact = c.exact(x, a, w, u);
      if (!std::isfinite(exact)) {  // sinh, cosh overflow: the same infinity or NaN
        EXPECT_TRUE(value == exact || (std::isnan(value) && std::isnan(exact))) << c.text << " at x=" << x;
        continue;
      }
      EXPECT_NEAR(value, exact, 4e-16 * std::fabs(exact) + 1e-300) << c.text << " at x=" << x << " a=" << a << " w=" << w;
    }
}

TEST(ExpressionParser, NanAndInfinityPassThrough) {
  EXPECT_TRUE(std::isnan(evaluate("sqrt(x)", -1.0)));
  EXPECT_TRUE(std::isinf(evaluate("1/x", 0.0)));
  EXPECT_TRUE(std::isnan(evaluate("min(x, 1)", NAN)));
  EXPECT_TRUE(std::isnan(evaluate("max(1, sqrt(x))", -1.0)));
  EXPECT_TRUE(std::isnan(evaluate("Jn(1.5, x)", 1.0)));  // non-integer order
  EXPECT_TRUE(std::isnan(evaluate("Y0(x)", -1.0)));
}

TEST(ExpressionParser, CudaSourceMirrorsTheProgram) {
  const ex::Expression e = ex::parse_expression("-a*x^2 + Jn(2, x)/w - 3^0.5 + abs(min(x, u))", {"x"}, kColumns);
  EXPECT_EQ(ex::cuda_expression_source(e, {"x"}, {"p[0]", "p[1]", "p[2]"}),
            "(((((-p[0]) * geobem::expression::integer_power(x, 2)) + "
            "(geobem::expression::bessel_jn_of_real(2.0, x) / p[1])) - pow(3.0, 0.5)) + "
            "fabs(geobem::expression::nan_min(x, p[2])))");
}

TEST(BesselOrdersAndSecondKind, MatchLibstdcxxAndTheWronskian) {
  // libstdc++'s large-x branch rounds its phase x - c (an error of eps x)
  // where ours does not (mpmath: J14(39.70239...) = 0.1104027319234854420,
  // ours ...543, libstdc++ ...653), so above x = 20 the comparison is looser.
  std::mt19937_64 random(1818);
  std::uniform_real_distribution<double> decades(-4.0, std::log10(50.0));
  for (int trial = 0; trial < 3000; ++trial) {
    const double x = std::pow(10.0, decades(random));
    const int n = static_cast<int>(random() % 40);
    const double jn = tf::bessel_jn(n, x), reference = std::cyl_bessel_j(static_cast<double>(n), x);
    const double tolerance = x < 20.0 ? 2e-15 : 1e-14;  // absolute: libstdc++'s own error (see above)
    EXPECT_NEAR(jn, reference, tolerance * std::max(std::fabs(reference), 1.0)) << "J" << n << "(" << x << ")";
    double y0, y1;
    tf::bessel_y01(x, y0, y1);
    EXPECT_NEAR(y0, std::cyl_neumann(0.0, x), tolerance * std::max(1.0, std::fabs(y0))) << x;
    EXPECT_NEAR(y1, std::cyl_neumann(1.0, x), tolerance * std::max(1.0, std::fabs(y1))) << x;
  }
  // Values of mpmath 1.2 at 30 digits (besselj, bessely), where libstdc++ errs.
  const struct {
    int n;
    double x, j;
  } orders[] = {{2, 18.306856363366215, -0.063254687181951215799}, {13, 10.801150461285877, 0.055645424629563164057},
                {5, 29.00289376363097, -0.054064668763339462565},  {22, 27.579680993261626, -0.0013913094114411375149},
                {14, 39.702391181214715, 0.11040273192348544197},  {40, 12.5, 3.1985013987128431838e-17},
                {100, 150.0, -0.015359526118405390629},            {3, 0.001, 2.0833332031250033853e-11}};
  for (const auto& c : orders)
    EXPECT_NEAR(tf::bessel_jn(c.n, c.x), c.j, 1e-15 * std::fabs(c.j) + (std::fabs(c.j) > 1e-3 ? 2e-16 : 0.0))
        << "J" << c.n << "(" << c.x << ")";
  const struct {
    double x, y0, y1;
  } second[] = {{1e-05, -7.4031602837019700805, -63661.97727536547995}, {0.3, -0.80727357780451949121, -2.2931051383885291231},
                {1.0, 0.088256964215676957983, -0.78121282130028871655},  {7.5, 0.11731328614820863084, -0.2591285104861162518},
                {19.9, 0.045762094159385478714, -0.17178303121049256457}, {20.1, 0.078810592428750292646, -0.1576259807478115438},
                {55.5, -0.10334564480672326008, 0.027174247859296399134}, {1234.5, 0.018222995047412551598, 0.013557761447180334391}};
  for (const auto& c : second) {
    double y0, y1;
    tf::bessel_y01(c.x, y0, y1);
    EXPECT_NEAR(y0, c.y0, 1e-15 * std::max(1.0, std::fabs(c.y0))) << "Y0(" << c.x << ")";
    EXPECT_NEAR(y1, c.y1, 1e-15 * std::max(1.0, std::fabs(c.y1))) << "Y1(" << c.x << ")";
  }
  for (double x = 1e-3; x < 1e4; x *= 1.7) {
    double y0, y1;
    tf::bessel_y01(x, y0, y1);
    const double wronskian = tf::bessel_j1(x) * y0 - tf::bessel_j0(x) * y1, exact = 2.0 / (geobem::kPi * x);
    EXPECT_NEAR(wronskian, exact, 1e-14 * exact + 2e-16 * std::fabs(tf::bessel_j0(x) * y1)) << x;
  }
  EXPECT_EQ(tf::bessel_jn(-3, 2.0), -tf::bessel_jn(3, 2.0));
  EXPECT_EQ(tf::bessel_jn(3, -2.0), -tf::bessel_jn(3, 2.0));
  EXPECT_EQ(tf::bessel_jn(2, -2.0), tf::bessel_jn(2, 2.0));
  EXPECT_TRUE(std::isnan(tf::bessel_jn(tf::kMaxBesselOrder + 1, 1.0)));
}

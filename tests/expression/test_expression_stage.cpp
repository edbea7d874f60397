// geobem-integrate with --integrand-expression, run as a user would: the
// three subcommands' output against closed forms, and bad expressions,
// options and rows refused with the message and exit status the stage
// contract asks for, writing nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "mesh/io/csv_table.hpp"
#include "tests/support/test_files.hpp"

namespace {

using geobem::test::run_command;
using geobem::test::scratch;
using geobem::test::StageRun;
using geobem::test::write_text;

std::string integrate(const std::string& arguments) {
  return std::string(GEOBEM_INTEGRATE_EXE) + " " + arguments + " --device cpu --quiet";
}

}  // namespace

TEST(ExpressionStage, LongmanWithOscillationAndDecayRate) {
  const auto input = write_text("expr_in.csv", "a,w,id\n1,2,7\n0.5,3,8\n");
  const auto output = scratch("expr_out.csv");
  const StageRun run = run_command(integrate("longman --input " + input.string() +
                                             " --integrand-expression 'exp(-a*x)' --oscillation cos:w --decay-rate a"
                                             " --rel-tol 1e-11 --output " + output.string()));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const auto table = geobem::read_csv_table(output.string(), false, {"status"});
  ASSERT_EQ(table.rows.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    const double a = table.rows[i][table.column("a")], w = table.rows[i][table.column("w")];
    EXPECT_NEAR(table.rows[i][table.column("value")], a / (a * a + w * w), 1e-11 * a / (a * a + w * w));
    EXPECT_EQ(table.text[i][0], "converged");
  }
  EXPECT_EQ(table.rows[1][table.column("id")], 8);
}

TEST(ExpressionStage, AdaptiveBatchAndCubatureSingle) {
  const auto input = write_text("adaptive_in.csv", "lower,upper,k\n0,1,2\n-1,2,3\n");
  const auto output = scratch("adaptive_out.csv");
  StageRun run = run_command(integrate("adaptive --input " + input.string() +
                                       " --integrand-expression 'x^k' --output " + output.string()));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  auto table = geobem::read_csv_table(output.string(), false, {"status"});
  EXPECT_NEAR(table.rows[0][table.column("estimate")], 1.0 / 3.0, 1e-12);
  EXPECT_NEAR(table.rows[1][table.column("estimate")], (16.0 - 1.0) / 4.0, 1e-12);
  const auto cubature_out = scratch("cubature_out.csv");
  run = run_command(integrate("cubature --dim 2 --integrand-expression 'x1*exp(x2)' --min-regions 64 --rel-tol 1e-9 --output " +
                              cubature_out.string()));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  table = geobem::read_csv_table(cubature_out.string(), false, {"status"});
  EXPECT_NEAR(table.rows[0][table.column("estimate")], 0.5 * (std::exp(1.0) - 1.0), 1e-9);
  EXPECT_EQ(table.text[0][0], "converged");
}

TEST(ExpressionStage, BadInputIsRefusedAndWritesNothing) {
  const auto good = write_text("expr_good.csv", "a,w\n1,2\n").string();
  const auto output = scratch("expr_never.csv");
  struct Case {
    std::string arguments, message;
    int exit_code;
  };
  const Case cases[] = {
      {"longman --input " + good + " --integrand-expression 'exp(-a*x)*foo' --oscillation cos:w",
       "column 11: unknown name 'foo': not a variable (x), not pi, not a column of " + good + " (a, w)", 2},
      {"longman --input " + good + " --integrand-expression 'exp(-a*x' --oscillation cos:w", "column 9", 2},
      {"longman --input " + good + " --integrand-expression 'exp(-a*x)'", "needs --oscillation", 2},
      {"longman --input " + good + " --integrand-expression 'exp(-a*x)' --oscillation tan:w", "unknown kind 'tan'", 2},
      {"longman --input " + good + " --integrand-expression 'exp(-a*x)' --oscillation cos:q", "missing column 'q'", 1},
      {"longman --input " + good + " --family exp-cos --integrand-expression 'x' --oscillation cos:w", "either --family", 2},
      {"longman --input " + write_text("expr_zero.csv", "a,w\n1,2\n1,0\n").string() +
           " --integrand-expression 'exp(-a*x)' --oscillation cos:w",
       "expr_zero.csv:3: omega = 0", 1},
      {"adaptive --input " + write_text("expr_limits.csv", "lower,upper\n0,1\n2,1\n").string() +
           " --integrand-expression 'x'",
       "expr_limits.csv:3: limits [2, 1]", 1},
      {"adaptive --lower 0 --upper 1 --integrand-expression 'x*c'", "this command takes no parameters", 2},
      {"cubature --dim 2 --integrand-expression 'x1*x3'", "unknown name 'x3': not a variable (x1, x2)", 2},
  };
  for (const auto& c : cases) {
    const StageRun run = run_command(integrate(c.arguments + " --output " + output.string()));
    EXPECT_EQ(run.exit_code, c.exit_code) << c.arguments << "\n" << run.errors;
    EXPECT_NE(run.errors.find(c.message), std::string::npos) << c.arguments << "\n" << run.errors;
    EXPECT_FALSE(std::filesystem::exists(output)) << c.arguments;
  }
}

TEST(ExpressionStage, NonFiniteIntegrandIsAStatusNotACrash) {
  const auto output = scratch("expr_nan.csv");
  const StageRun run = run_command(integrate("adaptive --lower -1 --upper 1 --integrand-expression 'sqrt(x)' --output " +
                                             output.string()));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const auto table = geobem::read_csv_table(output.string(), true, {"status"});
  EXPECT_EQ(table.text[0][0], "non_finite");
}

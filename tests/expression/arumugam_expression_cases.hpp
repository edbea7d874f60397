#pragma once
// Arumugam et al.'s f3 (4D) and f4 (7D) on [0, 1]^n spelled as user
// expressions, with the relative tolerance each is run at and mpmath's
// references (bench/quadrature/reference_values.py; docs/references.md,
// [Arumugam2013]). Shared by test_expression_gpu and bench_expression, which
// both set each against the built-in family it spells.
#include "gpu/quadrature/cubature_integrands.hpp"

namespace geobem::test {

struct ArumugamExpressionCase {
  quadrature::CubatureFamily family;  ///< the built-in family the expression spells
  int dim;
  double rel_tol;
  double reference;  ///< the integral over [0, 1]^dim
  const char* expression;  ///< in the variables x1 .. x<dim>
};

inline constexpr ArumugamExpressionCase kArumugamExpressionCases[] = {
    {quadrature::cubature_family<quadrature::ArumugamF3>, 4, 1e-5, 0.090415164700330145624,
     "sin((1*asin(x1))*(2*asin(x2^2))*(3*asin(x3^3))*(4*asin(x4^4)))"},
    {quadrature::cubature_family<quadrature::ArumugamF4>, 7, 1e-4, 0.019196994669629073495,
     "sin(asin(x1)*asin(x2)*asin(x3)*asin(x4)*asin(x5)*asin(x6)*asin(x7))"},
};

}  // namespace geobem::test

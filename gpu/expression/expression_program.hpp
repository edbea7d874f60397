#pragma once
// The CPU evaluation of a checked Expression: the tree flattened once into a
// postfix program (one instruction per node, operands before their
// operator) run on a small fixed stack, so an evaluation allocates nothing
// and walks no pointers. The operations are those of the generated CUDA
// source (expression_cuda_source.hpp), in the same order.
#include <vector>

#include "gpu/expression/expression.hpp"

namespace geobem::expression {

enum class Opcode {
  Constant, Variable, Parameter, Negate, Add, Subtract, Multiply, Divide, Power, IntegerPower, Call,
};

struct Instruction {
  Opcode opcode;
  double value;       ///< Constant
  int index;          ///< Variable, Parameter: its index; IntegerPower: the exponent; Call: argument count
  Function function;  ///< Call
};

/// Integer literal exponents (also negated ones) up to this magnitude become
/// IntegerPower (repeated squaring) instead of pow.
constexpr int kMaxIntegerPower = 64;
/// Deepest operand stack a program may need.
constexpr int kMaxStackDepth = 64;

/// True when `node` (the right operand of '^') is an integer literal, possibly
/// negated, of magnitude <= kMaxIntegerPower; *exponent receives it. The CPU
/// program and the CUDA source make the same choice through this.
bool integer_exponent(const Expression& expression, int node, int* exponent);

class ExpressionProgram {
 public:
  /// Flattens `expression`; throws ExpressionError when it nests deeper than
  /// kMaxStackDepth operands.
  explicit ExpressionProgram(const Expression& expression);

  /// The expression at `variables` (one per Expression::variables) with
  /// `parameters` (one per Expression::parameters, in that order).
  double evaluate(const double* variables, const double* parameters) const;

  int variable_count() const { return variables_; }
  int parameter_count() const { return parameters_; }

 private:
  std::vector<Instruction> code_;
  int variables_ = 0, parameters_ = 0;
};

/// Integrand functors over a program for the CPU drivers: one parameter row.
struct ProgramIntegrand1D {
  const ExpressionProgram* program;
  const double* parameters;
  double operator()(double x) const { return program->evaluate(&x, parameters); }
};

struct ProgramIntegrandND {
  const ExpressionProgram* program;
  const double* parameters;
  double operator()(const double* x, int) const { return program->evaluate(x, parameters); }
};

}  // namespace geobem::expression

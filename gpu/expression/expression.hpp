#pragma once
// A user's integrand as text, parsed once on the host into a checked tree
// (Expression) that the CPU evaluates (expression_program.hpp) and the GPU
// compiles (expression_cuda_source.hpp, NVRTC). The parser is our own, a
// small recursive descent: muParser and ExprTk, the well-kept libraries,
// evaluate but expose no tree to generate CUDA source from, and the CPU and
// the GPU must evaluate one checked tree so that they agree to rounding.
//
// Grammar (docs/expressions.md), lowest precedence first:
//   sum     := product { ('+' | '-') product }
//   product := unary { ('*' | '/') unary }
//   unary   := ('-' | '+') unary | power          (-x^2 is -(x^2))
//   power   := primary [ '^' unary ]              (right-associative: 2^3^2 = 2^9)
//   primary := number | name | name '(' sum { ',' sum } ')' | '(' sum ')'
// Names: the integration variables (x, or x1..xn), the constant pi, the
// functions below, and parameters (columns of the input table).
#include <string>
#include <vector>

#include "gpu/core/input_error.hpp"

namespace geobem::expression {

/// A syntax error or an unknown name: the message names the problem and the
/// column (1-based) of the bad token and shows the text with a caret under it.
class ExpressionError : public InputError {
 public:
  ExpressionError(const std::string& message, int column) : InputError(message, InputKind::usage), column_(column) {}
  int column() const { return column_; }

 private:
  int column_;
};

enum class Function {
  Exp, Log, Sqrt, Sin, Cos, Tan, Sinh, Cosh, Tanh, Asin, Acos, Atan, Atan2, Abs, Min, Max,
  J0, J1, Jn, Y0, Y1,
};

/// The function's name in the grammar ("exp", ..., "J0", "Jn") and its argument count.
const char* function_name(Function function);
int function_arity(Function function);
/// The function as the generated CUDA source calls it ("exp", "fabs",
/// "geobem::expression::nan_min", ...; expression_functions.hpp).
const char* device_function(Function function);
/// The function's value on the host at arguments[0 .. arity).
double evaluate_function(Function function, const double* arguments);

enum class NodeKind { Constant, Variable, Parameter, Negate, Add, Subtract, Multiply, Divide, Power, Call };

/// One node of the tree; children are indices into Expression::nodes.
struct ExpressionNode {
  NodeKind kind = NodeKind::Constant;
  double value = 0.0;             ///< Constant
  int index = 0;                  ///< Variable: 0-based variable; Parameter: index into Expression::parameters
  Function function = Function::Exp;  ///< Call
  std::vector<int> children;      ///< operands / arguments, left to right
  int column = 0;                 ///< 1-based column of the token, for messages
};

/// A checked expression: every name resolved, every call of the right arity.
struct Expression {
  std::string text;
  std::vector<ExpressionNode> nodes;
  int root = 0;
  std::vector<std::string> variables;   ///< integration variables, in index order
  std::vector<std::string> parameters;  ///< the parameter names it uses, in order of first use
};

/// Where the parameter names come from, for messages ("input.csv").
struct ParameterSource {
  std::vector<std::string> names;  ///< the names a parameter may take (the table's columns)
  std::string description;         ///< e.g. "a column of input.csv"; empty: no parameters are available
};

/// Bounds on an expression's size, checked while it is read so that no text
/// can exhaust the parser's stack or the memory of the tree: characters,
/// terms (numbers and names) and nesting (parentheses, function calls, signs
/// and exponents inside one another). The CPU program and the CUDA source
/// walk the tree recursively too, as deep as it has terms at most.
constexpr int kMaxExpressionCharacters = 4096;
constexpr int kMaxExpressionTerms = 1000;
constexpr int kMaxExpressionNesting = 100;

/// Parses and checks `text` with the integration `variables` (e.g. {"x"}) and
/// the parameter names of `parameters`. Throws ExpressionError (a usage InputError:
/// exit status 2 in a stage) for a syntax error, a number out of range or not
/// in decimal (hexadecimal `0x10` is refused), an unknown function, a call
/// with the wrong argument count, a name that is neither a variable, pi, nor
/// one of the parameter names (the message lists the names it could have
/// been), or a text beyond one of the bounds above (the message names it).
Expression parse_expression(const std::string& text, const std::vector<std::string>& variables,
                            const ParameterSource& parameters);

/// The variables x1..xn of an n-dimensional integrand.
std::vector<std::string> numbered_variables(int n);

}  // namespace geobem::expression

#include "gpu/expression/expression_cuda_source.hpp"

#include <cstdio>

#include "gpu/expression/expression_program.hpp"

namespace geobem::expression {

namespace {

std::string literal(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  std::string s = text;
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

const char* device_function(Function function) {
  switch (function) {
    case Function::Exp: return "exp";
    case Function::Log: return "log";
    case Function::Sqrt: return "sqrt";
    case Function::Sin: return "sin";
    case Function::Cos: return "cos";
    case Function::Tan: return "tan";
    case Function::Sinh: return "sinh";
    case Function::Cosh: return "cosh";
    case Function::Tanh: return "tanh";
    case Function::Asin: return "asin";
    case Function::Acos: return "acos";
    case Function::Atan: return "atan";
    case Function::Atan2: return "atan2";
    case Function::Abs: return "fabs";
    case Function::Min: return "geobem::expression::nan_min";
    case Function::Max: return "geobem::expression::nan_max";
    case Function::J0: return "geobem::transform::bessel_j0";
    case Function::J1: return "geobem::transform::bessel_j1";
    case Function::Jn: return "geobem::expression::bessel_jn_of_real";
    case Function::Y0: return "geobem::expression::bessel_y0";
    case Function::Y1: return "geobem::expression::bessel_y1";
  }
  return "";
}

struct Printer {
  const Expression& expression;
  const std::vector<std::string>& variables;
  const std::vector<std::string>& parameters;

  std::string print(int node) const {
    const ExpressionNode& n = expression.nodes[node];
    auto child = [&](int k) { return print(n.children[k]); };
    switch (n.kind) {
      case NodeKind::Constant: return literal(n.value);
      case NodeKind::Variable: return variables[n.index];
      case NodeKind::Parameter: return parameters[n.index];
      case NodeKind::Negate: return "(-" + child(0) + ")";
      case NodeKind::Add: return "(" + child(0) + " + " + child(1) + ")";
      case NodeKind::Subtract: return "(" + child(0) + " - " + child(1) + ")";
      case NodeKind::Multiply: return "(" + child(0) + " * " + child(1) + ")";
      case NodeKind::Divide: return "(" + child(0) + " / " + child(1) + ")";
      case NodeKind::Power: {
        int exponent = 0;
        if (integer_exponent(expression, n.children[1], &exponent))
          return "geobem::expression::integer_power(" + child(0) + ", " + std::to_string(exponent) + ")";
        return "pow(" + child(0) + ", " + child(1) + ")";
      }
      case NodeKind::Call: {
        std::string text = std::string(device_function(n.function)) + "(";
        for (std::size_t k = 0; k < n.children.size(); ++k) text += (k ? ", " : "") + child(static_cast<int>(k));
        return text + ")";
      }
    }
    return "";
  }
};

}  // namespace

std::string cuda_expression_source(const Expression& expression, const std::vector<std::string>& variables,
                                   const std::vector<std::string>& parameters) {
  return Printer{expression, variables, parameters}.print(expression.root);
}

}  // namespace geobem::expression

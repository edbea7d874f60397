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

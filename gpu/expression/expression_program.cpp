#include "gpu/expression/expression_program.hpp"

#include <algorithm>
#include <cmath>

#include "gpu/expression/expression_functions.hpp"

namespace geobem::expression {

bool integer_exponent(const Expression& expression, int node, int* exponent) {
  const ExpressionNode* n = &expression.nodes[node];
  double sign = 1.0;
  if (n->kind == NodeKind::Negate) {
    sign = -1.0;
    n = &expression.nodes[n->children[0]];
  }
  if (n->kind != NodeKind::Constant || n->value != std::floor(n->value) || n->value > kMaxIntegerPower) return false;
  *exponent = static_cast<int>(sign * n->value);
  return true;
}

namespace {

/// Appends the postfix code of `node`; returns the stack depth it needs.
int flatten(const Expression& expression, int node, std::vector<Instruction>& code) {
  const ExpressionNode& n = expression.nodes[node];
  Instruction instruction{Opcode::Constant, n.value, n.index, n.function};
  int depth = 1;
  switch (n.kind) {
    case NodeKind::Constant: break;
    case NodeKind::Variable: instruction.opcode = Opcode::Variable; break;
    case NodeKind::Parameter: instruction.opcode = Opcode::Parameter; break;
    case NodeKind::Negate:
      depth = flatten(expression, n.children[0], code);
      instruction.opcode = Opcode::Negate;
      break;
    case NodeKind::Power: {
      int exponent = 0;
      if (integer_exponent(expression, n.children[1], &exponent)) {
        depth = flatten(expression, n.children[0], code);
        instruction.opcode = Opcode::IntegerPower;
        instruction.index = exponent;
        break;
      }
      instruction.opcode = Opcode::Power;
      const int base_depth = flatten(expression, n.children[0], code);  // operands in order: base first
      depth = std::max(base_depth, 1 + flatten(expression, n.children[1], code));
      break;
    }
    case NodeKind::Add:
    case NodeKind::Subtract:
    case NodeKind::Multiply:
    case NodeKind::Divide:
    case NodeKind::Call: {
      const NodeKind kind = n.kind;
      instruction.opcode = kind == NodeKind::Add        ? Opcode::Add
                           : kind == NodeKind::Subtract ? Opcode::Subtract
                           : kind == NodeKind::Multiply ? Opcode::Multiply
                           : kind == NodeKind::Divide   ? Opcode::Divide
                                                        : Opcode::Call;
      if (kind == NodeKind::Call) instruction.index = static_cast<int>(n.children.size());
      depth = 0;
      for (std::size_t k = 0; k < n.children.size(); ++k)
        depth = std::max(depth, static_cast<int>(k) + flatten(expression, n.children[k], code));
      break;
    }
  }
  if (depth > kMaxStackDepth)
    throw ExpressionError("expression error at column " + std::to_string(n.column) + ": nested deeper than " +
                              std::to_string(kMaxStackDepth) + " operands",
                          n.column);
  code.push_back(instruction);
  return depth;
}

}  // namespace

ExpressionProgram::ExpressionProgram(const Expression& expression)
    : variables_(static_cast<int>(expression.variables.size())),
      parameters_(static_cast<int>(expression.parameters.size())) {
  flatten(expression, expression.root, code_);
}

double ExpressionProgram::evaluate(const double* variables, const double* parameters) const {
  double stack[kMaxStackDepth];
  int top = 0;  // stack[top - 1] is the top
  for (const Instruction& instruction : code_) {
    switch (instruction.opcode) {
      case Opcode::Constant: stack[top++] = instruction.value; break;
      case Opcode::Variable: stack[top++] = variables[instruction.index]; break;
      case Opcode::Parameter: stack[top++] = parameters[instruction.index]; break;
      case Opcode::Negate: stack[top - 1] = -stack[top - 1]; break;
      case Opcode::Add: --top, stack[top - 1] = stack[top - 1] + stack[top]; break;
      case Opcode::Subtract: --top, stack[top - 1] = stack[top - 1] - stack[top]; break;
      case Opcode::Multiply: --top, stack[top - 1] = stack[top - 1] * stack[top]; break;
      case Opcode::Divide: --top, stack[top - 1] = stack[top - 1] / stack[top]; break;
      case Opcode::Power: --top, stack[top - 1] = pow(stack[top - 1], stack[top]); break;
      case Opcode::IntegerPower: stack[top - 1] = integer_power(stack[top - 1], instruction.index); break;
      case Opcode::Call: {
        top -= instruction.index;  // the arguments
        stack[top] = evaluate_function(instruction.function, stack + top);
        ++top;
        break;
      }
    }
  }
  return stack[0];
}

}  // namespace geobem::expression

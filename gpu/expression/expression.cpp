#include "gpu/expression/expression.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <iterator>
#include <utility>

#include "gpu/core/math_constants.hpp"
#include "gpu/expression/expression_functions.hpp"

namespace geobem::expression {

namespace {

/// A function of the grammar: its name there, the CUDA spelling the generated
/// kernels call, and the host function of one argument or of two.
struct FunctionEntry {
  Function function;
  const char* name;
  const char* device;
  double (*unary)(double);
  double (*binary)(double, double);

  constexpr int arity() const { return binary ? 2 : 1; }
};

/// Every function, in the order of enum Function (checked below), so that the
/// evaluator finds an entry by its value.
constexpr FunctionEntry kFunctions[] = {
    {Function::Exp, "exp", "exp", exp, nullptr},     {Function::Log, "log", "log", log, nullptr},
    {Function::Sqrt, "sqrt", "sqrt", sqrt, nullptr}, {Function::Sin, "sin", "sin", sin, nullptr},
    {Function::Cos, "cos", "cos", cos, nullptr},     {Function::Tan, "tan", "tan", tan, nullptr},
    {Function::Sinh, "sinh", "sinh", sinh, nullptr}, {Function::Cosh, "cosh", "cosh", cosh, nullptr},
    {Function::Tanh, "tanh", "tanh", tanh, nullptr}, {Function::Asin, "asin", "asin", asin, nullptr},
    {Function::Acos, "acos", "acos", acos, nullptr}, {Function::Atan, "atan", "atan", atan, nullptr},
    {Function::Atan2, "atan2", "atan2", nullptr, atan2},
    {Function::Abs, "abs", "fabs", fabs, nullptr},
    {Function::Min, "min", "geobem::expression::nan_min", nullptr, nan_min},
    {Function::Max, "max", "geobem::expression::nan_max", nullptr, nan_max},
    {Function::J0, "J0", "geobem::transform::bessel_j0", transform::bessel_j0, nullptr},
    {Function::J1, "J1", "geobem::transform::bessel_j1", transform::bessel_j1, nullptr},
    {Function::Jn, "Jn", "geobem::expression::bessel_jn_of_real", nullptr, bessel_jn_of_real},
    {Function::Y0, "Y0", "geobem::expression::bessel_y0", bessel_y0, nullptr},
    {Function::Y1, "Y1", "geobem::expression::bessel_y1", bessel_y1, nullptr},
};

constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < std::size(kFunctions); ++i)
    if (static_cast<std::size_t>(kFunctions[i].function) != i) return false;
  return std::size(kFunctions) == static_cast<std::size_t>(Function::Y1) + 1;
}
static_assert(in_enum_order(), "kFunctions lists every Function once, in the enum's order");

const FunctionEntry& entry_of(Function function) { return kFunctions[static_cast<std::size_t>(function)]; }

std::string known_functions() {
  std::string list;
  for (const auto& entry : kFunctions) list += (list.empty() ? "" : " ") + std::string(entry.name);
  return list;
}

enum class TokenKind { Number, Name, Operator, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;
  double value = 0.0;
  int column = 0;  // 1-based
};

class Parser {
 public:
  Parser(const std::string& text, const std::vector<std::string>& variables, const ParameterSource& parameters)
      : text_(text), parameters_(parameters) {
    if (text.size() > static_cast<std::size_t>(kMaxExpressionCharacters))
      fail("longer than " + std::to_string(kMaxExpressionCharacters) + " characters (" + std::to_string(text.size()) +
               ")",
           kMaxExpressionCharacters + 1);
    expression_.text = text;
    expression_.variables = variables;
    advance();
  }

  Expression parse() {
    if (token_.kind == TokenKind::End) fail("empty expression", token_.column);
    expression_.root = sum();
    if (token_.kind != TokenKind::End) fail("unexpected '" + token_.text + "' after a complete expression", token_.column);
    return std::move(expression_);
  }

 private:
  /// Throws the error with the text shown under it, a caret at `column`; a
  /// long text is shown as the 60 characters either side of the column.
  [[noreturn]] void fail(const std::string& message, int column) const {
    constexpr std::size_t kShown = 60;
    const std::size_t at = static_cast<std::size_t>(column > 0 ? column - 1 : 0);
    const std::size_t first = at > kShown ? at - kShown : 0;
    const std::string head = first > 0 ? "..." : "", tail = at + kShown < text_.size() ? "..." : "";
    const std::string shown = head + text_.substr(first, std::min(text_.size(), at + kShown) - first) + tail;
    const std::string caret(head.size() + at - first, ' ');
    throw ExpressionError("expression error at column " + std::to_string(column) + ": " + message + "\n  " + shown +
                              "\n  " + caret + "^",
                          column);
  }

  /// Reads the next token, after white space, into token_.
  void advance() {
    while (position_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[position_]))) ++position_;
    token_ = Token{};
    token_.column = static_cast<int>(position_) + 1;
    if (position_ >= text_.size()) return;
    const char c = text_[position_];
    if (std::isdigit(static_cast<unsigned char>(c)) || c == '.') {
      scan_number();
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      token_.kind = TokenKind::Name;
      const std::size_t end = name_end(position_);
      token_.text = text_.substr(position_, end - position_);
      position_ = end;
    } else if (std::string("+-*/^(),").find(c) != std::string::npos) {
      token_.kind = TokenKind::Operator;
      token_.text = std::string(1, c);
      ++position_;
    } else {
      fail(std::string("unexpected character '") + c + "'", token_.column);
    }
  }

  /// The end of the run of decimal digits from `from`.
  std::size_t digits_end(std::size_t from) const {
    while (from < text_.size() && std::isdigit(static_cast<unsigned char>(text_[from]))) ++from;
    return from;
  }

  /// The end of the name (letters, digits, '_') from `from`.
  std::size_t name_end(std::size_t from) const {
    while (from < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[from])) || text_[from] == '_'))
      ++from;
    return from;
  }

  /// The end of digits [. digits] [e [+-] digits] from position_: scanned
  /// here so that "2x" or "1e" is an error at its column.
  std::size_t number_end() const {
    std::size_t end = digits_end(position_);
    if (end < text_.size() && text_[end] == '.') end = digits_end(end + 1);
    if (end < text_.size() && (text_[end] == 'e' || text_[end] == 'E')) {
      std::size_t exponent = end + 1;
      if (exponent < text_.size() && (text_[exponent] == '+' || text_[exponent] == '-')) ++exponent;
      if (exponent < text_.size() && std::isdigit(static_cast<unsigned char>(text_[exponent])))
        end = digits_end(exponent);
    }
    return end;
  }

  /// Reads a decimal number at position_ into token_.
  void scan_number() {
    const std::size_t end = number_end();
    const bool hexadecimal_prefix = end == position_ + 1 && text_[position_] == '0' && end < text_.size() &&
                                    (text_[end] == 'x' || text_[end] == 'X');
    if (hexadecimal_prefix) fail("hexadecimal numbers are not accepted: write numbers in decimal", token_.column);
    token_.kind = TokenKind::Number;
    token_.text = text_.substr(position_, end - position_);
    const auto parsed = std::from_chars(text_.data() + position_, text_.data() + end, token_.value);
    if (parsed.ec != std::errc() || parsed.ptr != text_.data() + end || !std::isfinite(token_.value))
      fail("'" + token_.text + "' is not a number within double range", token_.column);
    position_ = end;
    if (position_ < text_.size() &&
        (std::isalpha(static_cast<unsigned char>(text_[position_])) || text_[position_] == '_'))
      fail("a number directly followed by a name (write '*' for a product)", static_cast<int>(position_) + 1);
  }

  bool at(const char* op) const { return token_.kind == TokenKind::Operator && token_.text == op; }

  int add(ExpressionNode node) {
    expression_.nodes.push_back(std::move(node));
    return static_cast<int>(expression_.nodes.size()) - 1;
  }

  int binary(NodeKind kind, int left, int right, int column) {
    ExpressionNode node;
    node.kind = kind;
    node.children = {left, right};
    node.column = column;
    return add(std::move(node));
  }

  /// A left-associative chain `operand (op operand)*` of the two operators
  /// of one precedence level.
  int chain(int (Parser::*operand)(), const char* first, NodeKind first_kind, const char* second,
            NodeKind second_kind) {
    int left = (this->*operand)();
    while (at(first) || at(second)) {
      const NodeKind kind = at(first) ? first_kind : second_kind;
      const int column = token_.column;
      advance();
      left = binary(kind, left, (this->*operand)(), column);
    }
    return left;
  }

  int sum() { return chain(&Parser::product, "+", NodeKind::Add, "-", NodeKind::Subtract); }

  int product() { return chain(&Parser::unary, "*", NodeKind::Multiply, "/", NodeKind::Divide); }

  /// Every level of nesting (a parenthesis, a call's argument, a sign, an
  /// exponent) passes through here: the one place that bounds recursion.
  int unary() {
    const NestingLevel level(*this);
    if (at("-") || at("+")) {
      const bool negate = at("-");
      const int column = token_.column;
      advance();
      const int operand = unary();
      if (!negate) return operand;
      ExpressionNode node;
      node.kind = NodeKind::Negate;
      node.children = {operand};
      node.column = column;
      return add(std::move(node));
    }
    return power();
  }

  int power() {
    const int base = primary();
    if (!at("^")) return base;
    const int column = token_.column;
    advance();
    return binary(NodeKind::Power, base, unary(), column);
  }

  int primary() {
    const Token token = token_;
    if (token.kind == TokenKind::End) fail("the expression ends where an operand is expected", token.column);
    if ((token.kind == TokenKind::Number || token.kind == TokenKind::Name) && ++terms_ > kMaxExpressionTerms)
      fail("more than " + std::to_string(kMaxExpressionTerms) + " terms (numbers and names)", token.column);
    if (token.kind == TokenKind::Number) {
      advance();
      ExpressionNode node;
      node.kind = NodeKind::Constant;
      node.value = token.value;
      node.column = token.column;
      return add(std::move(node));
    }
    if (at("(")) {
      advance();
      const int inner = sum();
      if (!at(")")) fail("expected ')' to close the '(' at column " + std::to_string(token.column), token_.column);
      advance();
      return inner;
    }
    if (token.kind == TokenKind::Operator) fail("unexpected '" + token.text + "' where an operand is expected", token.column);
    advance();
    if (at("(")) return call(token);
    return name(token);
  }

  int call(const Token& name_token) {
    const FunctionEntry* entry = nullptr;
    for (const auto& candidate : kFunctions)
      if (name_token.text == candidate.name) entry = &candidate;
    if (!entry) fail("unknown function '" + name_token.text + "' (known: " + known_functions() + ")", name_token.column);
    advance();  // '('
    ExpressionNode node;
    node.kind = NodeKind::Call;
    node.function = entry->function;
    node.column = name_token.column;
    if (!at(")")) {
      node.children.push_back(sum());
      while (at(",")) {
        advance();
        node.children.push_back(sum());
      }
    }
    if (!at(")")) fail("expected ',' or ')' in the arguments of '" + name_token.text + "'", token_.column);
    advance();
    if (static_cast<int>(node.children.size()) != entry->arity())
      fail("'" + name_token.text + "' takes " + std::to_string(entry->arity()) + " argument" +
               (entry->arity() > 1 ? "s" : "") + ", got " + std::to_string(node.children.size()),
           name_token.column);
    return add(std::move(node));
  }

  int name(const Token& token) {
    ExpressionNode node;
    node.column = token.column;
    const auto& variables = expression_.variables;
    for (std::size_t i = 0; i < variables.size(); ++i)
      if (variables[i] == token.text) {
        node.kind = NodeKind::Variable;
        node.index = static_cast<int>(i);
        return add(std::move(node));
      }
    if (token.text == "pi") {
      node.kind = NodeKind::Constant;
      node.value = kPi;
      return add(std::move(node));
    }
    for (const auto& entry : kFunctions)
      if (token.text == entry.name) fail("'" + token.text + "' is a function: write " + token.text + "(...)", token.column);
    bool available = false;
    for (const auto& candidate : parameters_.names) available = available || candidate == token.text;
    if (!available) {
      std::string variable_list;
      for (const auto& v : variables) variable_list += (variable_list.empty() ? "" : ", ") + v;
      std::string message = "unknown name '" + token.text + "': not a variable (" + variable_list + "), not pi";
      if (parameters_.description.empty()) {
        message += ", and this command takes no parameters";
      } else {
        std::string columns;
        for (const auto& c : parameters_.names) columns += (columns.empty() ? "" : ", ") + c;
        message += ", not " + parameters_.description + " (" + (columns.empty() ? "none" : columns) + ")";
      }
      fail(message, token.column);
    }
    auto& used = expression_.parameters;
    std::size_t index = 0;
    while (index < used.size() && used[index] != token.text) ++index;
    if (index == used.size()) used.push_back(token.text);
    node.kind = NodeKind::Parameter;
    node.index = static_cast<int>(index);
    return add(std::move(node));
  }

  /// One level deeper for as long as it lives; refuses a level beyond
  /// kMaxExpressionNesting at the current token.
  class NestingLevel {
   public:
    explicit NestingLevel(Parser& parser) : parser_(parser) {
      if (++parser_.nesting_ > kMaxExpressionNesting)
        parser_.fail("nested deeper than " + std::to_string(kMaxExpressionNesting) +
                         " levels (parentheses, function calls, signs and exponents)",
                     parser_.token_.column);
    }
    ~NestingLevel() { --parser_.nesting_; }
    NestingLevel(const NestingLevel&) = delete;
    NestingLevel& operator=(const NestingLevel&) = delete;

   private:
    Parser& parser_;
  };

  const std::string& text_;
  const ParameterSource& parameters_;
  Expression expression_;
  std::size_t position_ = 0;
  Token token_;
  int terms_ = 0, nesting_ = 0;
};

}  // namespace

const char* function_name(Function function) { return entry_of(function).name; }

int function_arity(Function function) { return entry_of(function).arity(); }

const char* device_function(Function function) { return entry_of(function).device; }

double evaluate_function(Function function, const double* arguments) {
  const FunctionEntry& entry = entry_of(function);
  return entry.binary ? entry.binary(arguments[0], arguments[1]) : entry.unary(arguments[0]);
}

Expression parse_expression(const std::string& text, const std::vector<std::string>& variables,
                            const ParameterSource& parameters) {
  return Parser(text, variables, parameters).parse();
}

std::vector<std::string> numbered_variables(int n) {
  std::vector<std::string> names;
  for (int i = 1; i <= n; ++i) names.push_back("x" + std::to_string(i));
  return names;
}

}  // namespace geobem::expression

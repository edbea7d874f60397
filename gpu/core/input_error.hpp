#pragma once
// The library's errors for bad input (docs/design.md, "Errors"): InputError
// says which value, option or file:line is wrong and what is expected of it.
// Its kind tells who must change what: a usage error is a choice the caller
// makes by name (an option's value out of its domain, options that
// contradict each other, a word that names nothing); a data error is a value
// the method cannot take (a model, a mesh, a table row, a file's content).
// A stage maps the first to exit status 2 and the second to 1, in one place
// (stages/cli run_stage). It is a std::invalid_argument, so the Python
// module and callers that catch that keep working.
#include <stdexcept>
#include <string>
#include <utility>

namespace geobem {

/// Who must change what (see the file's comment).
enum class InputKind { data, usage };

class InputError : public std::invalid_argument {
 public:
  /// `message`: what is wrong and what is expected; `origin`: the input's
  /// name when the thrower knows it (an option, "FILE:LINE"), else empty.
  explicit InputError(const std::string& message, InputKind kind = InputKind::data, std::string origin = {})
      : std::invalid_argument(message), message_(message), kind_(kind) {
    name_origin(std::move(origin), kind);
  }

  /// A usage error: `message` names the option or value the caller chose.
  static InputError usage(const std::string& message) { return InputError(message, InputKind::usage); }

  /// "ORIGIN: MESSAGE", or MESSAGE without an origin.
  const char* what() const noexcept override { return text_.c_str(); }
  const std::string& message() const noexcept { return message_; }
  const std::string& origin() const noexcept { return origin_; }
  InputKind kind() const noexcept { return kind_; }

  /// Names the input as the caller knows it (an empty `origin` keeps the
  /// one there): a caller's name for an input replaces the library's own
  /// description of it ("--pressure 'a=x'" for "pressure 'a=x'"). `kind`
  /// becomes the error's kind.
  void name_origin(std::string origin, InputKind kind) {
    if (!origin.empty()) origin_ = std::move(origin);
    kind_ = kind;
    text_ = origin_.empty() ? message_ : origin_ + ": " + message_;
  }

 private:
  std::string message_;
  std::string origin_;
  std::string text_;
  InputKind kind_;
};

/// Calls `body()` and returns what it returns; an InputError leaving it
/// leaves with `origin` (see InputError::name_origin) and `kind`. The one way
/// a caller names where an input came from: the same error goes on, no new
/// one is made, so its message is never wrapped twice.
template <class Body>
decltype(auto) with_origin(InputKind kind, const std::string& origin, Body&& body) {
  try {
    return std::forward<Body>(body)();
  } catch (InputError& error) {
    error.name_origin(origin, kind);
    throw;
  }
}

}  // namespace geobem

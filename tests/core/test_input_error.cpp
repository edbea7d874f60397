// InputError (gpu/core/input_error.hpp): the message, the origin a caller
// names (replacing the library's own description, never wrapping twice) and
// the kind; with_origin passes results through and other errors untouched.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "gpu/core/input_error.hpp"

namespace geobem {
namespace {

TEST(InputError, MessageOriginAndKind) {
  const InputError plain("lower > upper");
  EXPECT_STREQ(plain.what(), "lower > upper");
  EXPECT_EQ(plain.origin(), "");
  EXPECT_EQ(plain.kind(), InputKind::data);
  const InputError named("'x' is not a number", InputKind::data, "pressure 'a=x'");
  EXPECT_STREQ(named.what(), "pressure 'a=x': 'x' is not a number");
  EXPECT_EQ(named.message(), "'x' is not a number");
  EXPECT_EQ(InputError::usage("unknown field 'gq'").kind(), InputKind::usage);
  // A std::invalid_argument for callers that catch that (the Python module: ValueError).
  EXPECT_THROW(throw InputError::usage("bad"), std::invalid_argument);
}

TEST(InputError, WithOriginReplacesTheLibrarysDescriptionAndSetsTheKind) {
  try {
    with_origin(InputKind::usage, "--pressure 'a=x'",
                [] { throw InputError("'x' is not a finite number", InputKind::data, "pressure 'a=x'"); });
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "--pressure 'a=x': 'x' is not a finite number");
    EXPECT_EQ(error.kind(), InputKind::usage);
  }
  // An empty origin keeps the one there and changes only the kind; nesting never wraps twice.
  try {
    with_origin(InputKind::data, "", [] {
      with_origin(InputKind::usage, "--shape", [] { throw InputError("radius must be > 0"); });
    });
    FAIL() << "no error";
  } catch (const InputError& error) {
    EXPECT_STREQ(error.what(), "--shape: radius must be > 0");
    EXPECT_EQ(error.kind(), InputKind::data);
  }
}

TEST(InputError, WithOriginPassesResultsAndOtherErrorsThrough) {
  EXPECT_EQ(with_origin(InputKind::usage, "--n", [] { return 7; }), 7);
  int value = 1;
  int& same = with_origin(InputKind::usage, "--n", [&]() -> int& { return value; });
  EXPECT_EQ(&same, &value);
  try {
    with_origin(InputKind::usage, "--n", [] { throw std::runtime_error("disk full"); });
    FAIL() << "no error";
  } catch (const InputError&) {
    FAIL() << "a failure became bad input";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "disk full");
  }
}

}  // namespace
}  // namespace geobem

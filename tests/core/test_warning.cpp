// geobem::warn: a capture on the calling thread collects the library's
// warnings (innermost capture first, none left after it ends); without one
// they go to stderr as "warning: MESSAGE".
#include <gtest/gtest.h>

#include <thread>

#include "gpu/core/warning.hpp"

namespace geobem {
namespace {

TEST(Warning, CaptureCollectsInOrderAndNests) {
  WarningCapture outer;
  warn("first");
  {
    WarningCapture inner;
    warn("second");
    EXPECT_EQ(inner.messages(), std::vector<std::string>{"second"});
  }
  warn("third");
  EXPECT_EQ(outer.messages(), (std::vector<std::string>{"first", "third"}));
}

TEST(Warning, CaptureIsPerThreadAndStderrOtherwise) {
  WarningCapture capture;
  testing::internal::CaptureStderr();
  std::thread([] { warn("from another thread"); }).join();
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "warning: from another thread\n");
  EXPECT_TRUE(capture.messages().empty());
}

}  // namespace
}  // namespace geobem

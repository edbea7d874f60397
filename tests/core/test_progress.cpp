// Progress lines: one line rewritten in place on a terminal and cleared at
// the end, plain lines at most every interval elsewhere, nothing when quiet.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "gpu/core/progress.hpp"

namespace {

using geobem::ProgressReporter;
using geobem::ProgressSink;

/// What was written to a temporary stream.
std::string contents(std::FILE* stream) {
  std::fflush(stream);
  std::string text;
  std::rewind(stream);
  for (int c; (c = std::fgetc(stream)) != EOF;) text += static_cast<char>(c);
  return text;
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

void pause(double seconds) { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }

TEST(Progress, OnATerminalOneLineIsRewrittenAndClearedAtTheEnd) {
  std::FILE* stream = std::tmpfile();
  ASSERT_NE(stream, nullptr);
  {
    ProgressReporter progress("stage: work", 100, "items", false, ProgressSink{stream, true, 0.01});
    for (int k = 0; k < 4; ++k) {
      pause(0.02);
      progress.advance(25);
    }
    progress.finish();
  }
  const std::string text = contents(stream);
  std::fclose(stream);
  // Each report starts with a carriage return and ends without a line feed;
  // the only line feed ends the closing line.
  EXPECT_GE(count(text, "\rstage: work: "), 3u) << text;
  EXPECT_EQ(count(text, "\n"), 1u) << text;
  EXPECT_NE(text.find("stage: work:  50.0% (50/100 items)"), std::string::npos) << text;
  EXPECT_NE(text.find("left"), std::string::npos) << text;
  // Cleared before the closing line: blanks over the last report, then a return.
  const auto closing = text.rfind("stage: work: done, 100 items in ");
  ASSERT_NE(closing, std::string::npos) << text;
  ASSERT_GE(closing, 2u);
  EXPECT_EQ(text[closing - 1], '\r');
  EXPECT_EQ(text[closing - 2], ' ');
  EXPECT_EQ(text.back(), '\n');
}

TEST(Progress, EachReportCoversTheOneBeforeAndTheDestructorClearsTheLast) {
  std::FILE* stream = std::tmpfile();
  ASSERT_NE(stream, nullptr);
  {
    // The estimate of time left shrinks from hours to a fraction of a second.
    ProgressReporter progress("x", 1000000, "items", false, ProgressSink{stream, true, 0.0});
    pause(0.02);
    progress.advance(1);
    progress.advance(999990);
    progress.advance(9);
  }  // unfinished: a run that ended by an exception
  const std::string text = contents(stream);
  std::fclose(stream);
  EXPECT_EQ(count(text, "\n"), 0u) << text;
  ASSERT_EQ(text.front(), '\r');
  ASSERT_EQ(text.back(), '\r');
  // Segments between carriage returns: each at least as wide as the text
  // (blanks trimmed) of the one before, the last all blanks.
  std::vector<std::string> segments;
  for (std::size_t at = 1, next; at < text.size(); at = next + 1) {
    next = text.find('\r', at);
    segments.push_back(text.substr(at, next - at));
  }
  ASSERT_GE(segments.size(), 4u) << text;
  for (std::size_t k = 1; k < segments.size(); ++k) {
    const std::string before = segments[k - 1].substr(0, segments[k - 1].find_last_not_of(' ') + 1);
    EXPECT_GE(segments[k].size(), before.size()) << text;
  }
  EXPECT_EQ(segments.back().find_first_not_of(' '), std::string::npos) << text;
}

TEST(Progress, ElsewherePlainLinesAtMostEveryInterval) {
  std::FILE* stream = std::tmpfile();
  ASSERT_NE(stream, nullptr);
  ProgressReporter progress("log", 10, "steps", false, ProgressSink{stream, false, 0.3});
  for (int k = 0; k < 10; ++k) {
    pause(0.05);
    progress.advance(1);
  }
  progress.finish();
  const std::string text = contents(stream);
  std::fclose(stream);
  EXPECT_EQ(text.find('\r'), std::string::npos) << text;
  // 0.5 s of work at most every 0.3 s: one or two report lines, then the closing one.
  const std::size_t reports = count(text, "log: ") - 1;
  EXPECT_GE(reports, 1u) << text;
  EXPECT_LE(reports, 2u) << text;
  EXPECT_NE(text.find("log: done, 10 steps in "), std::string::npos) << text;
}

TEST(Progress, QuietPrintsNothing) {
  std::FILE* stream = std::tmpfile();
  ASSERT_NE(stream, nullptr);
  {
    ProgressReporter progress("q", 2, "steps", true, ProgressSink{stream, true, 0.0});
    progress.advance(1);
    progress.advance(1);
    progress.finish();
  }
  EXPECT_EQ(contents(stream), "");
  std::fclose(stream);
}

TEST(Progress, StandardErrorIsALogUnlessATerminal) {
  const ProgressSink sink = ProgressSink::standard_error();
  EXPECT_EQ(sink.stream, stderr);
  // Under ctest stderr is a pipe or a file: plain lines every 10 s.
  EXPECT_EQ(sink.interval_seconds, sink.terminal ? 0.5 : 10.0);
}

TEST(Progress, DurationsForPeople) {
  EXPECT_EQ(geobem::duration_text(12.34), "12.3 s");
  EXPECT_EQ(geobem::duration_text(59.9), "59.9 s");
  EXPECT_EQ(geobem::duration_text(59.96), "1 min 00 s");
  EXPECT_EQ(geobem::duration_text(245.4), "4 min 05 s");
  EXPECT_EQ(geobem::duration_text(7620), "2 h 07 min");
}

}  // namespace

// mesh/io/output_set: a stage's output folder replaced as a unit, the lock
// that refuses a second run, and the clean-up of what dead runs left.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <vector>

#include "gpu/core/usage_error.hpp"
#include "mesh/io/output_set.hpp"
#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

/// A pid that names no running process (above the kernel's pid_max).
const std::string dead_pid = "4194305";

void write_set(const fs::path& folder, const std::map<std::string, std::string>& files) {
  geobem::OutputSet set(folder, "geobem-test");
  for (const auto& [name, text] : files) std::ofstream(set.path(name)) << text;
  set.write_record("a = 1\n");
  set.commit();
}

TEST(OutputSet, ANewRunReplacesTheWholeSet) {
  const auto out = scratch("set_replace");
  write_set(out, {{"old.csv", "1\n"}, {"both.csv", "old\n"}});
  write_set(out, {{"both.csv", "new\n"}});
  const std::map<std::string, std::string> expected{{"both.csv", "new\n"}, {"geobem-test.ini", "a = 1\n"}};
  EXPECT_EQ(snapshot(out), expected);  // old.csv, not written by the new run, is gone
  EXPECT_TRUE(leftovers(out.parent_path()).empty());
}

TEST(OutputSet, AnUncommittedRunLeavesTheEarlierSetAndNoTemporaries) {
  const auto out = scratch("set_failed");
  write_set(out, {{"a.csv", "earlier\n"}});
  const auto before = snapshot(out);
  {
    geobem::OutputSet set(out, "geobem-test");
    std::ofstream(set.path("a.csv")) << "half";
  }  // an exception between the first write and commit() ends here
  EXPECT_EQ(snapshot(out), before);
  EXPECT_TRUE(leftovers(out.parent_path()).empty());
}

TEST(OutputSet, RefusesAFolderThatIsNotItsSet) {
  const auto out = scratch("set_foreign");
  fs::create_directories(out);
  std::ofstream(out / "thesis.tex") << "years of work\n";
  EXPECT_THROW(geobem::OutputSet(out, "geobem-test"), geobem::UsageError);
  write_set(scratch("set_other_stage"), {{"x", "1"}});
  EXPECT_THROW(geobem::OutputSet(scratch("set_other_stage"), "geobem-other"), geobem::UsageError);
  EXPECT_TRUE(fs::exists(out / "thesis.tex"));
  EXPECT_THROW(geobem::OutputSet(".", "geobem-test"), geobem::UsageError);
}

TEST(OutputSet, ASecondRunIntoTheSameFolderIsRefused) {
  const auto out = scratch("set_locked");
  geobem::OutputSet first(out, "geobem-test");
  const std::string message = error_of([&] { geobem::OutputSet second(out, "geobem-test"); });
  EXPECT_NE(message.find("is being written by another run (pid " + std::to_string(::getpid()) + ")"),
            std::string::npos)
      << message;
}

TEST(OutputSet, CleansWhatDeadRunsLeft) {
  const auto out = scratch("set_dead");
  write_set(out, {{"a.csv", "1\n"}});
  const auto parent = out.parent_path();
  fs::create_directories(parent / (".set_dead.staging-" + dead_pid + "-0"));
  std::ofstream(parent / (".gravity.partial-" + dead_pid + "-3.csv")) << "half";
  const fs::path live = parent / (".gravity.partial-" + std::to_string(::getpid()) + "-9.csv");
  std::ofstream(live) << "being written";
  write_set(out, {{"a.csv", "2\n"}});
  const auto left = leftovers(parent);
  ASSERT_EQ(left.size(), 1u);  // only the temporary of a live process stays
  EXPECT_EQ(left[0], live.filename().string());
  fs::remove(live);
}

TEST(OutputSet, PutsBackASetMovedAsideByARunKilledMidCommit) {
  const auto out = scratch("set_aside");
  write_set(out, {{"a.csv", "earlier\n"}});
  const auto before = snapshot(out);
  const auto aside = out.parent_path() / (".set_aside.previous-" + dead_pid);
  fs::rename(out, aside);
  { geobem::OutputSet next(out, "geobem-test"); }  // opened, then failed
  EXPECT_EQ(snapshot(out), before);
  EXPECT_FALSE(fs::exists(aside));
}

// Four processes take and release one lock as fast as they can for 0.4 s.
// Every refusal must name a pid, and not the refused process's own (a lock
// file filled in after it was locked named no one, or its previous holder);
// a marker file created exclusively while the lock is held shows that no two
// hold it at once.
TEST(OutputLock, ARefusalAlwaysNamesTheHolderAndOneHoldsAtATime) {
  const fs::path lock = scratch(".contended.lock"), marker = scratch("holder");
  std::vector<pid_t> children;
  for (int c = 0; c < 4; ++c) {
    const pid_t child = ::fork();
    if (child == 0) {
      // Exit status: bit 0 a refusal without the holder's pid, bit 1 two
      // holders at once, bit 2 never refused.
      int status = 4;
      const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(400);
      while (std::chrono::steady_clock::now() < end) {
        try {
          const geobem::OutputLock held(lock, "the test output");
          const int only = ::open(marker.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0644);
          if (only < 0) status |= 2;
          ::close(only);
          ::unlink(marker.c_str());
        } catch (const std::runtime_error& error) {
          status &= ~4;
          const std::string message = error.what();
          const auto at = message.find("(pid ");
          if (at == std::string::npos || std::stol(message.substr(at + 5)) == ::getpid()) status |= 1;
        }
      }
      ::_exit(status);
    }
    children.push_back(child);
  }
  int refused = 0;
  for (const pid_t child : children) {
    int status = 0;
    ::waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status) & 1, 0) << "a refusal that did not name the holder";
    EXPECT_EQ(WEXITSTATUS(status) & 2, 0) << "two holders at once";
    refused += (WEXITSTATUS(status) & 4) == 0;
  }
  EXPECT_GT(refused, 0) << "the runs never overlapped: the lock was not exercised";
  EXPECT_TRUE(leftovers(lock.parent_path()).empty());
}

TEST(OutputFile, WritesTheResultAndItsOptionsRecordOrNothing) {
  const auto path = scratch("file_set/sub/result.csv");
  {
    geobem::OutputFile output(path);  // creates the folders
    output.write_result([](std::ostream& out) { out << "x\n1\n"; });
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(leftovers(path.parent_path()).empty());
  geobem::OutputFile output(path);
  output.write_result([](std::ostream& out) { out << "x\n1\n"; });
  output.write_record("b = 2\n");
  output.commit();
  EXPECT_EQ(read_text(path), "x\n1\n");
  EXPECT_EQ(read_text(path.string() + ".ini"), "b = 2\n");
}

}  // namespace

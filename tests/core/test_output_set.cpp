// mesh/io/output_set: a stage's output folder replaced as a unit, recognised
// by its file list; the lock that refuses a second run and leaves no file;
// private staging folders; what a planted link, FIFO or foreign file can and
// cannot do; the clean-up of what dead runs left and of what a signal
// interrupts.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>
#include <vector>

#include "gpu/core/atomic_file.hpp"
#include "gpu/core/input_error.hpp"
#include "mesh/io/output_set.hpp"
#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;
using Files = std::map<std::string, std::string>;

namespace {

/// A pid that names no running process (above the kernel's pid_max).
const std::string dead_pid = "4194305";

void write_set(const fs::path& folder, const Files& files, const std::string& stage = "geobem-test") {
  geobem::OutputSet set(folder, stage);
  for (const auto& [name, text] : files) {
    fs::create_directories(set.path(name).parent_path());
    std::ofstream(set.path(name)) << text;
  }
  set.write_record("a = 1\n");
  set.commit();
}

/// `files` with the record and the file list a geobem-test set adds.
Files with_record(Files files) {
  files["geobem-test.ini"] = "a = 1\n";
  return files;
}

/// The set's files without its file list (whose text the list test checks).
Files contents(const fs::path& folder) {
  Files files = snapshot(folder);
  files.erase(geobem::OutputSet::file_list_name);
  return files;
}

/// The InputError message of opening a set on `folder`, "" when it opens.
std::string refusal(const fs::path& folder, const std::string& stage = "geobem-test") {
  try {
    geobem::OutputSet set(folder, stage);
  } catch (const geobem::InputError& error) {
    return error.what();
  }
  return "";
}

/// Runs `body` in a child process; its exit status, or -signal when a signal
/// ended it, or -1000 when it did not end within `seconds` (then killed).
int in_child(const std::function<int()>& body, double seconds = 10) {
  const pid_t child = ::fork();
  if (child == 0) {
    int status = 100;
    try {
      status = body();
    } catch (...) {
      status = 101;
    }
    ::_exit(status);
  }
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  int status = 0;
  while (::waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > end) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      return -1000;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status);
}

TEST(OutputSet, ANewRunReplacesTheWholeSetAndListsIt) {
  const auto out = scratch("set_replace");
  write_set(out, {{"old.csv", "1\n"}, {"both.csv", "old\n"}});
  write_set(out, {{"both.csv", "new\n"}, {"sub/x.vtu", "12345"}});
  EXPECT_EQ(contents(out), with_record({{"both.csv", "new\n"}, {"sub/x.vtu", "12345"}}));  // old.csv is gone
  EXPECT_EQ(read_text(out / geobem::OutputSet::file_list_name),
            "# what a geobem run wrote into this folder; a later run replaces the folder only while it holds "
            "nothing else\nstage geobem-test\nfile 4 both.csv\nfile 6 geobem-test.ini\nfolder sub\nfile 5 "
            "sub/x.vtu\n");
  EXPECT_TRUE(leftovers(out.parent_path()).empty()) << leftovers(out.parent_path()).front();
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
  EXPECT_TRUE(leftovers(out.parent_path()).empty()) << leftovers(out.parent_path()).front();
}

// A folder is replaced only when everything in it is on its file list: a
// user's file beside a STAGE.ini (the name alone once made a folder a set),
// a file added to a set, a file of a set changed or swapped for a link, a set
// of another stage, a file list that geobem did not write.
TEST(OutputSet, NothingTheToolDidNotWriteIsDeleted) {
  const auto out = scratch("set_foreign");
  fs::create_directories(out);
  std::ofstream(out / "thesis.tex") << "years of work\n";
  std::ofstream(out / "geobem-test.ini") << "a = 1\n";
  EXPECT_NE(refusal(out).find("holds files that are not a geobem-test output set"), std::string::npos)
      << refusal(out);

  const auto set = scratch("set_added");
  write_set(set, {{"a.csv", "1\n"}, {"sub/b.csv", "2\n"}});
  std::ofstream(set / "sub" / "notes.txt") << "mine\n";
  EXPECT_NE(refusal(set).find("holds 'sub/notes.txt', which no geobem-test run wrote there"), std::string::npos)
      << refusal(set);
  fs::remove(set / "sub" / "notes.txt");
  std::ofstream(set / "a.csv") << "edited by hand\n";
  EXPECT_NE(refusal(set).find("holds 'a.csv', which was changed after a geobem-test run wrote it (2 bytes then, 15 "
                              "now)"),
            std::string::npos)
      << refusal(set);
  fs::remove(set / "a.csv");
  fs::create_symlink(out / "thesis.tex", set / "a.csv");
  EXPECT_NE(refusal(set).find("holds 'a.csv', which no geobem-test run wrote there"), std::string::npos)
      << refusal(set);
  fs::remove(set / "a.csv");
  EXPECT_EQ(refusal(set), "");  // a listed file deleted by hand: still the set

  EXPECT_NE(refusal(set, "geobem-other").find("is an output set of geobem-test, not of geobem-other"),
            std::string::npos);
  std::ofstream(set / geobem::OutputSet::file_list_name) << "stage geobem-test\nrm -rf /\n";
  EXPECT_NE(refusal(set).find("that geobem did not write (line 2)"), std::string::npos) << refusal(set);

  EXPECT_EQ(read_text(out / "thesis.tex"), "years of work\n");
  EXPECT_TRUE(leftovers(out.parent_path()).empty()) << leftovers(out.parent_path()).front();
}

// `/`, `//`, `.`, `..` and a mount point are refused before anything is
// created; a symbolic link is followed (the link stays), one to nothing is
// refused; a file where the folder goes is refused.
TEST(OutputSet, OutputsThatCannotBeReplacedAreRefusedBeforeAnyWork) {
  for (const char* path : {"/", "//", "///", ".", "..", "./", "a/.."}) {
    SCOPED_TRACE(path);
    const std::string message = refusal(path);
    EXPECT_NE(message.find(std::string(path).find('.') == std::string::npos ? "the root folder" : "not '.' or '..'"),
              std::string::npos)
        << message;
  }
  struct stat root, proc;
  if (::stat("/", &root) == 0 && ::stat("/proc", &proc) == 0 && root.st_dev != proc.st_dev) {
    EXPECT_NE(refusal("/proc").find("is a mount point"), std::string::npos) << refusal("/proc");
  }

  const auto target = scratch("link_target"), link = scratch("link");
  fs::create_directories(target);
  fs::create_directory_symlink(target, link);
  write_set(link, {{"a.csv", "1\n"}});
  write_set(link, {{"a.csv", "2\n"}});
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(contents(target), with_record({{"a.csv", "2\n"}}));
  EXPECT_TRUE(leftovers(target.parent_path()).empty()) << leftovers(target.parent_path()).front();

  fs::create_directory_symlink(scratch("nowhere"), scratch("dangling"));
  EXPECT_NE(refusal(scratch("dangling")).find("is a symbolic link to nothing that exists"), std::string::npos);
  std::ofstream(scratch("a_file")) << "x";
  EXPECT_NE(refusal(scratch("a_file")).find("exists and is not a folder"), std::string::npos);
  EXPECT_FALSE(fs::exists(scratch("nowhere")));
}

// The staging folder is private while the run writes (mode 0700, an
// unpredictable name); the committed set gets the earlier set's mode.
TEST(OutputSet, StagingIsPrivateAndTheSetKeepsItsMode) {
  const auto out = scratch("set_mode");
  write_set(out, {{"a.csv", "1\n"}});
  fs::permissions(out, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
  geobem::OutputSet set(out, "geobem-test");
  EXPECT_EQ(fs::status(set.staging_folder()).permissions() & fs::perms::all, fs::perms::owner_all);
  set.write_record("a = 2\n");
  set.commit();
  EXPECT_EQ(fs::status(out).permissions() & fs::perms::all,
            fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec);
}

TEST(OutputSet, ASecondRunIntoTheSameFolderIsRefusedAndTheLockFileGoesWithTheRun) {
  const auto out = scratch("set_locked");
  const fs::path lock = out.parent_path() / ".set_locked.lock";
  {
    geobem::OutputSet first(out, "geobem-test");
    EXPECT_EQ(read_text(lock), std::to_string(::getpid()));
    const std::string message = error_of([&] { geobem::OutputSet second(out, "geobem-test"); });
    EXPECT_NE(message.find("is being written by another run (pid " + std::to_string(::getpid()) + ")"),
              std::string::npos)
        << message;
  }
  EXPECT_FALSE(fs::exists(fs::symlink_status(lock)));
}

// A lock file that a killed run left (its pid, nobody holding it) is taken
// over; anything else at the lock's name (a link, a FIFO, a file that holds
// no pid) is refused and left as it is, and a FIFO never blocks.
TEST(OutputLock, ADeadRunsLockIsTakenOverAndForeignFilesAreRefused) {
  const auto out = scratch("lock_dead");
  const fs::path lock = out.parent_path() / ".lock_dead.lock";
  std::ofstream(lock) << dead_pid;
  write_set(out, {{"a.csv", "1\n"}});
  EXPECT_FALSE(fs::exists(lock));

  const auto victim = scratch("victim.txt");
  std::ofstream(victim) << "another user's file\n";
  fs::create_symlink(victim, lock);
  EXPECT_NE(error_of([&] { write_set(out, {}); }).find("a symbolic link stands there"), std::string::npos);
  fs::remove(lock);
  std::ofstream(lock) << "not a pid\n";
  EXPECT_NE(error_of([&] { write_set(out, {}); }).find("is not one (a lock file is a regular file that holds a pid)"),
            std::string::npos);
  fs::remove(lock);
  ASSERT_EQ(::mkfifo(lock.c_str(), 0600), 0);
  EXPECT_EQ(in_child([&] {
              const std::string message = error_of([&] { write_set(out, {}); });
              return message.find("is not one") != std::string::npos ? 0 : 1;
            }),
            0);
  EXPECT_EQ(read_text(victim), "another user's file\n");
  EXPECT_EQ(contents(out), with_record({{"a.csv", "1\n"}}));
  fs::remove(lock);
}

// Links planted at every name an earlier version's temporaries took
// (`.NAME.partial-PID-N.ext`, `.NAME.lock.partial-PID-N`, `.NAME.staging-PID-N`)
// are never followed: the victim is untouched and the run succeeds.
TEST(OutputSet, PlantedLinksAreNeverFollowed) {
  const auto out = scratch("planted");
  const auto victim = scratch("victim.txt");
  std::ofstream(victim) << "precious\n";
  const std::string pid = std::to_string(::getpid());
  for (int n = 0; n < 8; ++n)
    for (const std::string& name : {".planted.lock.partial-" + pid + "-" + std::to_string(n),
                                    ".planted.staging-" + pid + "-" + std::to_string(n),
                                    ".a.partial-" + pid + "-" + std::to_string(n) + ".csv"})
      fs::create_symlink(victim, out.parent_path() / name);
  fs::create_directories(out.parent_path() / "victim_folder");
  fs::create_directory_symlink(out.parent_path() / "victim_folder", out.parent_path() / ".planted.staging-1-dead");
  write_set(out, {{"a.csv", "1\n"}});
  write_set(out, {{"a.csv", "2\n"}});
  EXPECT_EQ(read_text(victim), "precious\n");
  EXPECT_TRUE(fs::is_directory(out.parent_path() / "victim_folder"));
  EXPECT_TRUE(fs::is_symlink(out.parent_path() / ".planted.staging-1-dead"));  // not ours: left alone
  EXPECT_EQ(contents(out), with_record({{"a.csv", "2\n"}}));
}

TEST(OutputSet, CleansWhatDeadRunsLeft) {
  const auto out = scratch("set_dead");
  write_set(out, {{"a.csv", "1\n"}});
  const auto parent = out.parent_path();
  fs::create_directories(parent / (".set_dead.staging-" + dead_pid + "-0") / "solution");
  std::ofstream(parent / (".set_dead.staging-" + dead_pid + "-0") / "solution" / "step.vtu") << "half";
  std::ofstream(parent / (".set_dead.lock.partial-" + dead_pid + "-1f")) << dead_pid;
  const fs::path live = parent / (".set_dead.lock.partial-" + std::to_string(::getppid()) + "-9");
  std::ofstream(live) << "a run taking the lock";
  std::ofstream(parent / ".set_dead.lock") << dead_pid;
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

// SIGINT, SIGTERM, SIGHUP and SIGABRT end a run as they would, after its
// staging folder, temporaries and lock file are removed; the earlier set stays.
TEST(OutputSet, ASignalLeavesTheEarlierSetAndNothingElse) {
  const auto out = scratch("set_signal");
  write_set(out, {{"a.csv", "earlier\n"}});
  const auto before = snapshot(out);
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP, SIGABRT}) {
    SCOPED_TRACE(signal_number);
    EXPECT_EQ(in_child([&] {
                const rlimit no_core{0, 0};
                ::setrlimit(RLIMIT_CORE, &no_core);
                geobem::OutputSet set(out, "geobem-test");
                fs::create_directories(set.path("solution"));
                std::ofstream(set.path("solution/step.vtu")) << "half";
                geobem::write_text_file_atomically(set.path("a.csv"), [&](std::ostream& stream) {
                  stream << "half";
                  stream.flush();
                  ::raise(signal_number);
                });
                return 0;
              }),
              -signal_number);
    EXPECT_EQ(snapshot(out), before);
    EXPECT_TRUE(leftovers(out.parent_path()).empty()) << leftovers(out.parent_path()).front();
  }
}

// A child forked without exec (as Gmsh's is) that a signal ends removes
// nothing of its parent's: the staging folder and lock stay until the
// parent's run ends.
TEST(OutputSet, AForkedChildsSignalLeavesTheParentsRunAlone) {
  const auto out = scratch("set_forked");
  const fs::path lock = out.parent_path() / ".set_forked.lock";
  {
    geobem::OutputSet set(out, "geobem-test");
    for (const int signal_number : {SIGTERM, SIGABRT}) {
      EXPECT_EQ(in_child([&] {
                  const rlimit no_core{0, 0};
                  ::setrlimit(RLIMIT_CORE, &no_core);
                  ::raise(signal_number);
                  return 0;
                }),
                -signal_number);
      EXPECT_TRUE(fs::is_directory(set.staging_folder()));
      EXPECT_EQ(read_text(lock), std::to_string(::getpid()));
    }
    set.write_record("a = 1\n");
    set.commit();
  }
  EXPECT_EQ(contents(out), with_record({}));
  EXPECT_TRUE(leftovers(out.parent_path()).empty()) << leftovers(out.parent_path()).front();
}

// Four processes take and release one lock as fast as they can for 0.4 s.
// Every refusal must name a pid, and not the refused process's own (a lock
// file filled in after it was locked named no one, or its previous holder);
// a marker file created exclusively while the lock is held shows that no two
// hold it at once. The lock file is gone when they are.
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
  EXPECT_TRUE(leftovers(lock.parent_path()).empty()) << leftovers(lock.parent_path()).front();
}

TEST(OutputFile, WritesTheResultAndItsOptionsRecordOrNothing) {
  const auto path = scratch("file_set/sub/result.csv");
  {
    geobem::OutputFile output(path);  // creates the folders
    output.write_result([](std::ostream& out) { out << "x\n1\n"; });
  }
  EXPECT_FALSE(fs::exists(path));
  EXPECT_TRUE(leftovers(path.parent_path()).empty()) << leftovers(path.parent_path()).front();
  geobem::OutputFile output(path);
  output.write_result([](std::ostream& out) { out << "x\n1\n"; });
  output.write_record("b = 2\n");
  output.commit();
  EXPECT_EQ(read_text(path), "x\n1\n");
  EXPECT_EQ(read_text(path.string() + ".ini"), "b = 2\n");
}

// A link at the result's name is followed (the file is written where it
// points, the link stays); a FIFO or a folder there is refused at once.
TEST(OutputFile, FollowsALinkAndRefusesWhatIsNotAFile) {
  const auto target = scratch("real.csv"), link = scratch("link.csv");
  std::ofstream(target) << "old\n";
  fs::create_symlink(target, link);
  {
    geobem::OutputFile output(link);
    output.write_result([](std::ostream& out) { out << "new\n"; });
    output.write_record("c = 3\n");
    output.commit();
  }
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_text(target), "new\n");
  EXPECT_EQ(read_text(target.string() + ".ini"), "c = 3\n");
  const auto fifo = scratch("fifo.csv");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_EQ(in_child([&] {
              const std::string message = error_of([&] { geobem::OutputFile output(fifo); });
              return message.find("is not a regular file") != std::string::npos ? 0 : 1;
            }),
            0);
  fs::create_directories(scratch("a_folder.csv"));
  EXPECT_NE(error_of([&] { geobem::OutputFile output(scratch("a_folder.csv")); }).find("is a folder, not a file"),
            std::string::npos);
  EXPECT_TRUE(leftovers(target.parent_path()).empty()) << leftovers(target.parent_path()).front();
}

// Temporaries get names nobody can guess, and a link at the final name is
// replaced, not written through.
TEST(AtomicFile, NamesAreUnpredictableAndLinksAreReplacedNotFollowed) {
  const fs::path path = scratch("atomic.txt");
  EXPECT_NE(geobem::exclusive_temporary_name(path), geobem::exclusive_temporary_name(path));
  const auto victim = scratch("victim.txt");
  std::ofstream(victim) << "precious\n";
  fs::create_symlink(victim, path);
  geobem::write_text_file_atomically(path, [](std::ostream& out) { out << "mine\n"; });
  EXPECT_FALSE(fs::is_symlink(path));
  EXPECT_EQ(read_text(path), "mine\n");
  EXPECT_EQ(read_text(victim), "precious\n");
}

}  // namespace

// README command (a), scripts/run-default.sh, runs every workflow of
// workflows/ with its defaults, and every workflow's last stage is `plot`,
// which leaves a PNG named in the workflow's README: so the command ends
// with a picture of each. With GEOBEM_FULL_WORKFLOWS=1 every workflow's
// run.sh runs with its defaults (what command (a) does after building:
// about 4 minutes on 2 idle cores, 8 on the shared build machine) and each
// PNG is checked.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/support/png_check.hpp"
#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;

namespace geobem::test {
namespace {

const fs::path source = GEOBEM_SOURCE_DIR;

/// The workflow folders: those of workflows/ with a run.sh.
std::set<std::string> workflow_folders() {
  std::set<std::string> names;
  for (const auto& entry : fs::directory_iterator(source / "workflows"))
    if (fs::exists(entry.path() / "run.sh")) names.insert(entry.path().filename().string());
  return names;
}

/// The words of the first match of `pattern`'s group 1 in `text`.
std::vector<std::string> words_of(const std::string& text, const std::regex& pattern) {
  std::smatch match;
  if (!std::regex_search(text, match, pattern)) return {};
  std::istringstream words(match[1].str());
  std::vector<std::string> result;
  for (std::string word; words >> word;) result.push_back(word);
  return result;
}

/// The PNG a workflow's plot stage writes: NAME of "$out/NAME.png" in its run_plot.
std::string plot_file(const std::string& run_sh) {
  std::smatch match;
  static const std::regex pattern(R"re(run_plot\(\) \{[^}]*"\$out/([A-Za-z0-9_-]+\.png)")re");
  return std::regex_search(run_sh, match, pattern) ? match[1].str() : "";
}

TEST(DefaultWorkflows, CommandAEndsWithEveryWorkflowsPlot) {
  const auto folders = workflow_folders();
  ASSERT_GE(folders.size(), 5u);
  const auto in_default_run =
      words_of(read_text(source / "scripts" / "run-default.sh"), std::regex(R"(for workflow in ([^;]*);)"));
  EXPECT_EQ(std::set<std::string>(in_default_run.begin(), in_default_run.end()), folders);
  for (const auto& name : folders) {
    SCOPED_TRACE(name);
    const std::string run_sh = read_text(source / "workflows" / name / "run.sh");
    const auto stages = words_of(run_sh, std::regex(R"(\nstages=\(([^)]*)\))"));
    ASSERT_FALSE(stages.empty());
    EXPECT_EQ(stages.back(), "plot");
    const std::string png = plot_file(run_sh);
    ASSERT_FALSE(png.empty()) << "run_plot writes no \"$out/NAME.png\"";
    EXPECT_NE(read_text(source / "workflows" / name / "README.md").find(png), std::string::npos)
        << "the README does not name " << png;
    // --help names the plot stage and its PNG.
    const StageRun help = run_command("{ " + (source / "workflows" / name / "run.sh").string() + " --help 1>&2; }");
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_NE(help.errors.find(", plot"), std::string::npos) << help.errors;
    EXPECT_NE(help.errors.find(png), std::string::npos) << help.errors;
  }
}

TEST(DefaultWorkflows, EveryWorkflowsDefaultRunEndsWithItsPng) {
  if (!std::getenv("GEOBEM_FULL_WORKFLOWS"))
    GTEST_SKIP() << "the default runs take minutes: set GEOBEM_FULL_WORKFLOWS=1 to run them";
  if (!plots_can_run()) GTEST_SKIP() << "no matplotlib in /usr/bin/python3 for the plot stages";
  for (const auto& name : workflow_folders()) {
    SCOPED_TRACE(name);
    const fs::path out = scratch(name);
    const StageRun run = run_command("GEOBEM_BIN=" + std::string(GEOBEM_BIN_DIR) + " " +
                                     (source / "workflows" / name / "run.sh").string() + " --out " + out.string());
    ASSERT_EQ(run.exit_code, 0) << run.errors;
    expect_plot_png(out / plot_file(read_text(source / "workflows" / name / "run.sh")));
  }
}

}  // namespace
}  // namespace geobem::test

// The command line and INI files of every stage (stages/cli): the INI syntax
// and its escapes, which of the command line and the --config file wins, and
// the options record that reads back from wherever the run was moved to.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gpu/core/input_error.hpp"
#include "stages/cli/ini_file.hpp"
#include "stages/cli/stage_options.hpp"
#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
namespace po = boost::program_options;
using geobem::cli::escape_ini_value;
using geobem::cli::parse_ini_text;
using geobem::test::error_of;
using geobem::test::scratch;
using geobem::test::write_text;

namespace {

TEST(IniFile, CommentsBlankLinesAndTrimming) {
  const auto entries = parse_ini_text("# a comment\n\n  cells =  70,70,20  # trailing comment\r\nname=a=b\n", "x.ini");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].key, "cells");
  EXPECT_EQ(entries[0].value, "70,70,20");
  EXPECT_EQ(entries[0].line, 3);
  EXPECT_EQ(entries[1].key, "name");
  EXPECT_EQ(entries[1].value, "a=b");  // the first '=' separates
  EXPECT_EQ(entries[1].line, 4);
}

TEST(IniFile, EscapesReadBackEveryValue) {
  const std::vector<std::string> values = {"runs/a#1/model.vtr", "C:\\data\\x", " leading and trailing\t",
                                           "two\nlines\r", "#", "\\#", "", "a \\ b", "tab\tinside"};
  for (const auto& value : values) {
    const std::string text = "key = " + escape_ini_value(value) + "   # comment\n";
    const auto entries = parse_ini_text(text, "x.ini");
    ASSERT_EQ(entries.size(), 1u) << text;
    EXPECT_EQ(entries[0].value, value) << text;
  }
  EXPECT_EQ(escape_ini_value("runs/a#1"), "runs/a\\#1");
  EXPECT_EQ(escape_ini_value(" x "), "\\ x\\ ");
}

TEST(IniFile, BadLinesAreNamed) {
  EXPECT_EQ(error_of([] { parse_ini_text("a = 1\njust words\n", "x.ini"); }),
            "x.ini:2: expected KEY = VALUE, found 'just words'");
  EXPECT_EQ(error_of([] { parse_ini_text("[gravity]\n", "x.ini"); }),
            "x.ini:1: sections ('[gravity]') are not part of the syntax: write KEY = VALUE");
  EXPECT_EQ(error_of([] { parse_ini_text(" = 1\n", "x.ini"); }), "x.ini:1: no key before '='");
  EXPECT_NE(error_of([] { parse_ini_text("a = x\\q\n", "x.ini"); }).find("x.ini:1: unknown escape '\\q'"),
            std::string::npos);
  EXPECT_NE(error_of([] { parse_ini_text("a = x\\", "x.ini"); }).find("x.ini:1: a backslash ends the line"),
            std::string::npos);
}

TEST(IniFile, FilesThatAreNotOptionsFilesAreRefused) {
  EXPECT_EQ(error_of([] { geobem::cli::read_ini_file(scratch("missing.ini")); }),
            "cannot open '" + scratch("missing.ini").string() + "'");
  fs::create_directories(scratch("folder.ini"));
  EXPECT_NE(error_of([] { geobem::cli::read_ini_file(scratch("folder.ini")); }).find("is not a file"),
            std::string::npos);
  const auto big = write_text("big.ini", std::string(geobem::cli::max_ini_file_bytes + 1, '#'));
  EXPECT_NE(error_of([&] { geobem::cli::read_ini_file(big); }).find("larger than an options file"), std::string::npos);
  // A UTF-8 byte-order mark (Windows editors) is not part of the first key.
  const auto bom = write_text("bom.ini", "\xEF\xBB\xBF" "cells = 1,2,3\n");
  EXPECT_EQ(geobem::cli::read_ini_file(bom).at(0).key, "cells");
}

/// A stage's options as the stages declare them: single values, a
/// repeatable one, paths, and a value that holds a path after "csv:".
struct Options {
  std::string cells = "700,700,50", device = "auto", out;
  std::vector<std::string> history;
  std::optional<std::string> prisms;
  double beta = 0.2;
};

struct Parsed {
  Options values;
  geobem::cli::StageOptions command{"geobem-test", "options of a test"};
};

/// Parses `arguments` (after the program name) into a fresh Parsed.
void parse(Parsed& p, std::vector<std::string> arguments) {
  Options& o = p.values;
  p.command.add()
    ("cells", po::value(&o.cells)->default_value(o.cells), "cells")
    ("device", po::value(&o.device)->default_value(o.device), "device")
    ("history", po::value(&o.history)->composing(), "repeatable, [GROUP=]csv:FILE or a word")
    ("prisms", geobem::cli::optional_value(&o.prisms), "a file")
    ("beta", po::value(&o.beta)->default_value(o.beta), "a number");
  p.command.add_out_folder(&o.out, "files");
  p.command.mark_path("prisms");
  p.command.mark_path("history", [](const std::string& value) {
    const auto at = value.find("csv:");
    return at == std::string::npos ? at : at + 4;
  });
  std::vector<const char*> argv{"geobem-test"};
  for (const auto& argument : arguments) argv.push_back(argument.c_str());
  p.command.parse(static_cast<int>(argv.size()), argv.data());
}

TEST(StageOptions, TheCommandLineReplacesTheFilesValuesRepeatableOnesToo) {
  const auto ini =
      write_text("stage.ini", "cells = 10,10,10\nhistory = heaviside\nhistory = wall=ramp:1\nbeta = 0.3\n");
  Parsed p;
  parse(p, {"--config", ini.string(), "--history", "ricker:2000", "--cells", "5,5,5", "--out", "o"});
  EXPECT_EQ(p.values.cells, "5,5,5");
  EXPECT_EQ(p.values.history, std::vector<std::string>{"ricker:2000"});  // not merged with the file's
  EXPECT_EQ(p.values.beta, 0.3);                                         // the file's, not the default
  EXPECT_EQ(p.command.origin("cells"), "the command line");
  EXPECT_EQ(p.command.origin("beta"), ini.string() + ":4");
  EXPECT_EQ(p.command.origin("device"), "the default");
  // Without the command line's, the file's repeated values all count.
  Parsed q;
  parse(q, {"--config", ini.string(), "--out", "o"});
  EXPECT_EQ(q.values.history, (std::vector<std::string>{"heaviside", "wall=ramp:1"}));
}

TEST(StageOptions, TheLastValueOnTheCommandLineWins) {
  Parsed p;
  parse(p, {"--cells", "1,1,1", "--beta", "0.1", "--out", "o", "--cells=2,2,2", "--history", "a", "--history", "b"});
  EXPECT_EQ(p.values.cells, "2,2,2");
  EXPECT_EQ(p.values.history, (std::vector<std::string>{"a", "b"}));  // a repeatable option keeps every value
}

TEST(StageOptions, FileErrorsNameTheFileAndLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"cells = 1,1,1\ncolour = red\n", ":2: 'colour' is not an option of geobem-test"},
      {"beta = 0.1\n\nbeta = 0.2\n", ":3: 'beta' again (first on line 1); only repeatable options take several lines"},
      {"beta = fast\n", ":1: the argument ('fast') for option 'beta' is invalid"},
      {"config = other.ini\n", ":1: 'config' is not an option of geobem-test"},
  };
  for (const auto& [text, expected] : cases) {
    const auto ini = write_text("bad.ini", text);
    Parsed p;
    const std::string message = error_of([&] { parse(p, {"--config", ini.string(), "--out", "o"}); });
    EXPECT_EQ(message, ini.string() + expected) << text;
  }
  Parsed p;
  EXPECT_EQ(error_of([&] { parse(p, {"--config", scratch("none.ini").string(), "--out", "o"}); }),
            "--config: cannot open '" + scratch("none.ini").string() + "'");
}

TEST(StageOptions, PathsInAFileAreRelativeToItsFolder) {
  fs::create_directories(scratch("runs/b/gravity"));
  const auto ini = write_text("runs/b/gravity/stage.ini",
                              "prisms = ../model/prisms.csv\nout = ../gravity\nhistory = wall=csv:../h.csv\n"
                              "history = heaviside\n");
  const fs::path folder = ini.parent_path();
  Parsed p;
  parse(p, {"--config", ini.string()});
  EXPECT_EQ(*p.values.prisms, (scratch("runs/b/model/prisms.csv")).string());
  EXPECT_EQ(p.values.out, scratch("runs/b/gravity").string());
  EXPECT_EQ(p.values.history, (std::vector<std::string>{"wall=csv:" + scratch("runs/b/h.csv").string(), "heaviside"}));
  // Absolute paths stay; on the command line, paths are the working folder's.
  const auto absolute = write_text("absolute.ini", "prisms = /data/prisms.csv\n");
  Parsed q;
  parse(q, {"--config", absolute.string(), "--out", "relative/out"});
  EXPECT_EQ(*q.values.prisms, "/data/prisms.csv");
  EXPECT_EQ(q.values.out, "relative/out");
}

TEST(StageOptions, TheRecordHoldsPathsRelativeToItsFolderAndReadsBack) {
  const fs::path run = scratch("runs/a#1"), moved = scratch("runs/copy of a#1");
  fs::create_directories(run / "gravity");
  Parsed p;
  parse(p, {"--prisms", (run / "model" / "prisms.csv").string(), "--out", (run / "gravity").string(), "--history",
            "wall=csv:" + (run / "histories" / "h#2.csv").string(), "--history", "heaviside", "--beta", "0.25"});
  const std::string record = p.command.record(run / "gravity");
  EXPECT_NE(record.find("\nprisms = ../model/prisms.csv\n"), std::string::npos) << record;
  EXPECT_NE(record.find("\nout = ../gravity\n"), std::string::npos) << record;  // the set's own folder
  EXPECT_NE(record.find("\nhistory = wall=csv:../histories/h\\#2.csv\nhistory = heaviside\n"), std::string::npos)
      << record;
  EXPECT_NE(record.find("\nbeta = 0.25\n"), std::string::npos) << record;
  // Copied elsewhere, the record names the copy's files.
  fs::create_directories(moved / "gravity");
  const auto ini = write_text("runs/copy of a#1/gravity/stage.ini", record);
  Parsed q;
  parse(q, {"--config", ini.string()});
  EXPECT_EQ(*q.values.prisms, (moved / "model" / "prisms.csv").string());
  EXPECT_EQ(q.values.out, (moved / "gravity").string());
  EXPECT_EQ(q.values.history,
            (std::vector<std::string>{"wall=csv:" + (moved / "histories" / "h#2.csv").string(), "heaviside"}));
  EXPECT_EQ(q.values.beta, 0.25);
  EXPECT_EQ(q.command.record(moved / "gravity"), record);
}

TEST(StageOptions, RelativePathsOnTheCommandLineAreRecordedFromTheWorkingFolder) {
  Parsed p;
  parse(p, {"--prisms", "model/prisms.csv", "--out", "gravity"});
  const std::string record = p.command.record("gravity");
  EXPECT_NE(record.find("\nprisms = ../model/prisms.csv\n"), std::string::npos) << record;
  EXPECT_NE(record.find("\nout = ../gravity\n"), std::string::npos) << record;
  // A record beside a result file (FILE.ini) in the working folder.
  EXPECT_NE(p.command.record("").find("\nprisms = model/prisms.csv\n"), std::string::npos);
}

}  // namespace

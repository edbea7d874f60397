#pragma once
// The command line of a workflow's run.sh, for the tests of a target compiled
// with GEOBEM_SOURCE_DIR (the repository) and GEOBEM_BIN_DIR (the stage
// executables of this build).
#include <cstdlib>
#include <filesystem>
#include <string>

namespace geobem::test {

/// workflows/NAME/run.sh as a command line.
struct WorkflowCommand {
  std::string name;  ///< the workflow's folder under workflows/

  /// run.sh into `out` with `arguments` (run.sh's options, then stage
  /// options after `--`); the stages come from $GEOBEM_BIN when it is set
  /// (another build, an installed tree), else from this build.
  std::string operator()(const std::filesystem::path& out, const std::string& arguments) const {
    const char* bin = std::getenv("GEOBEM_BIN");
    return "GEOBEM_BIN=" + std::string(bin ? bin : GEOBEM_BIN_DIR) + " " + GEOBEM_SOURCE_DIR + "/workflows/" + name +
           "/run.sh --out " + out.string() + " " + arguments;
  }
};

}  // namespace geobem::test

#pragma once
// The tunnel-blast workflow's coarse run (run.sh --coarse: the tunnel meshed
// at 3 m, 370 triangles, and beta = 0.5 over 7 ms) as its tests run it, with
// time.ini's probes, receivers and Friedlander pulse as they are.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/support/test_files.hpp"

namespace geobem::test {

/// The window of the coarse run (s): run.sh's `coarse` laplace:duration.
constexpr double coarse_tunnel_duration = 7e-3;

/// The command line of the workflow's run.sh --coarse with `arguments`, results in `out`.
inline std::string tunnel_workflow(const std::filesystem::path& out, const std::string& arguments) {
  const char* bin = std::getenv("GEOBEM_BIN");
  return "GEOBEM_BIN=" + std::string(bin ? bin : GEOBEM_BIN_DIR) + " " + GEOBEM_SOURCE_DIR +
         "/workflows/tunnel-blast/run.sh --coarse --out " + out.string() + " " + arguments;
}

/// Runs the mesh, laplace and time stages of the coarse run into `out`, the
/// last two on `device` (cpu or cuda); a failed stage fails the test.
inline void run_coarse_tunnel(const std::filesystem::path& out, const std::string& device) {
  for (const std::string stage : {"mesh", "laplace", "time"}) {
    const auto run =
        run_command(tunnel_workflow(out, "--only " + stage + (stage == "mesh" ? "" : " -- --device " + device)));
    ASSERT_EQ(run.exit_code, 0) << stage << ": " << run.errors;
  }
}

}  // namespace geobem::test

#pragma once
// The tunnel-blast workflow's run.sh on a coarse case, as its tests run it:
// the tunnel meshed at 3 m (370 triangles) and β = 0.5 over 7 ms (options
// after `--`), instead of the default's 2 m (624 triangles) and β = 0.3
// over 14 ms; time.ini's probes, receivers and Friedlander pulse as they are.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "tests/support/test_files.hpp"

namespace geobem::test {

/// The window of the coarse run (s).
constexpr double coarse_tunnel_duration = 7e-3;

/// The command line of the workflow's run.sh with `arguments`, results in `out`.
inline std::string tunnel_workflow(const std::filesystem::path& out, const std::string& arguments) {
  const char* bin = std::getenv("GEOBEM_BIN");
  return "GEOBEM_BIN=" + std::string(bin ? bin : GEOBEM_BIN_DIR) + " " + GEOBEM_SOURCE_DIR +
         "/workflows/tunnel-blast/run.sh --out " + out.string() + " " + arguments;
}

/// Runs the mesh, laplace and time stages of the coarse case into `out`,
/// the last two on `device` (cpu or cuda); a failed stage fails the test.
inline void run_coarse_tunnel(const std::filesystem::path& out, const std::string& device) {
  auto run = run_command(tunnel_workflow(out, "--only mesh -- --element-size 3"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  char options[160];
  std::snprintf(options, sizeof options, "--only laplace -- --device %s --beta 0.5 --duration %.17g", device.c_str(),
                coarse_tunnel_duration);
  run = run_command(tunnel_workflow(out, options));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  run = run_command(tunnel_workflow(out, "--only time -- --device " + device));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
}

}  // namespace geobem::test

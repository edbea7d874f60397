// The one place where an error becomes an exit status (stages/cli
// run_stage): bad input by its kind (usage 2, data 1), a command-line error
// of Boost's 2, every other exception 1; one line "PROGRAM: error: ..." on
// stderr, and the origin a caller names in front of the library's message.
#include <gtest/gtest.h>

#include <boost/program_options/errors.hpp>
#include <stdexcept>
#include <string>

#include "gpu/core/device_error.hpp"
#include "gpu/core/input_error.hpp"
#include "stages/cli/run_stage.hpp"

namespace geobem {
namespace {

struct Outcome {
  int status;
  std::string stderr_text;
};

template <class Body>
Outcome run(Body body) {
  testing::internal::CaptureStderr();
  const int status = cli::run_stage("geobem-x", [&] {
    body();
    return 0;
  });
  return {status, testing::internal::GetCapturedStderr()};
}

TEST(RunStage, UsageErrorsExitTwoAndPointToHelp) {
  const Outcome outcome = run([] { throw InputError::usage("--tolerance must be > 0"); });
  EXPECT_EQ(outcome.status, 2);
  EXPECT_EQ(outcome.stderr_text, "geobem-x: error: --tolerance must be > 0 (see geobem-x --help)\n");
  const Outcome boost_error = run([] { throw boost::program_options::unknown_option("--tolerence"); });
  EXPECT_EQ(boost_error.status, 2);
  EXPECT_EQ(boost_error.stderr_text, "geobem-x: error: unrecognised option '--tolerence' (see geobem-x --help)\n");
}

TEST(RunStage, DataErrorsAndFailuresExitOne) {
  const Outcome data = run([] { throw InputError("row 3: lower > upper"); });
  EXPECT_EQ(data.status, 1);
  EXPECT_EQ(data.stderr_text, "geobem-x: error: row 3: lower > upper\n");
  const Outcome device = run([] { throw DeviceError("CUDA error cudaErrorMemoryAllocation (2) in `f` at a.cu:1"); });
  EXPECT_EQ(device.status, 1);
  EXPECT_EQ(device.stderr_text, "geobem-x: error: CUDA error cudaErrorMemoryAllocation (2) in `f` at a.cu:1\n");
  const Outcome failure = run([] { throw std::runtime_error("cannot write 'out.csv'"); });
  EXPECT_EQ(failure.status, 1);
  EXPECT_EQ(failure.stderr_text, "geobem-x: error: cannot write 'out.csv'\n");
}

TEST(RunStage, TheOriginACallerNamesDecidesKindAndPrefix) {
  const Outcome option = run([] {
    with_origin(InputKind::usage, "--nodata", [] { throw InputError("'x' is not a number"); });
  });
  EXPECT_EQ(option.status, 2);
  EXPECT_EQ(option.stderr_text, "geobem-x: error: --nodata: 'x' is not a number (see geobem-x --help)\n");
  const Outcome file = run([] {
    with_origin(InputKind::data, "model.csv", [] { throw InputError::usage("density must be finite"); });
  });
  EXPECT_EQ(file.status, 1);
  EXPECT_EQ(file.stderr_text, "geobem-x: error: model.csv: density must be finite\n");
}

}  // namespace
}  // namespace geobem

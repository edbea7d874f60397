#pragma once
// The one place where an exception becomes an exit status, and the one
// dispatcher of stages with subcommands (geobem-integrate, geobem-halfspace).
#include <functional>
#include <map>
#include <string>

namespace geobem::cli {

/// Runs a stage's body: prints "PROGRAM: error: MESSAGE" on stderr and
/// returns 2 for a usage error (a geobem::InputError of kind usage, or a
/// boost::program_options error), 1 for every other exception (an
/// InputError of kind data, a DeviceError, a failed write); the body's
/// return value otherwise.
int run_stage(const std::string& program, const std::function<int()>& body);

/// One subcommand: a line for the list, and its body, called with
/// argv[0] = "PROGRAM NAME" and the arguments after NAME.
struct Subcommand {
  std::string summary;
  std::function<int(int argc, const char* const argv[])> run;
};

/// `PROGRAM NAME [options]`: runs subcommand NAME through run_stage. Without
/// a name or with an unknown one: the list of subcommands on stderr, exit 2;
/// `--help`: the list on stdout, exit 0.
int run_subcommand(const std::string& program, const std::map<std::string, Subcommand>& commands, int argc,
                   const char* const argv[]);

}  // namespace geobem::cli

#pragma once
#include <functional>
#include <optional>
#include <string>

#include <boost/program_options.hpp>

namespace geobem::cli {

namespace po = boost::program_options;

/// Adds the options every stage shares: --help, --config FILE.ini, --quiet.
/// (--device is added by stages that compute: add_device_option.)
void add_common_options(po::options_description& options);

/// Adds --device auto|cpu|cuda (default auto).
void add_device_option(po::options_description& options);

/// Parses the command line, then the INI file named by --config (flat
/// `key = value` lines, keys are the long option names; values given on the
/// command line win). Prints usage and returns std::nullopt for --help.
/// Throws po::error (unknown option, bad value, missing --config file) with a
/// message naming the option or file.
std::optional<po::variables_map> parse_stage_options(int argc, const char* const argv[], const std::string& stage,
                                                     const std::string& summary,
                                                     const po::options_description& options,
                                                     const po::positional_options_description* positional = nullptr);

/// Runs a stage's body: prints "STAGE: error: MESSAGE" on stderr and returns
/// 2 for usage errors (po::error) and 1 for every other exception; the body's
/// return value otherwise.
int run_stage(const std::string& stage, const std::function<int()>& body);

}  // namespace geobem::cli

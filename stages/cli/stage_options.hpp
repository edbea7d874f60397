#pragma once
// A stage's command line (docs/stage_contract.md): options bound to the
// fields of the stage's own options struct, `--config FILE.ini` below the
// command line, and the record of the effective options that the stage
// writes into its output set.
#include <optional>
#include <string>

#include <boost/program_options.hpp>

#include "stages/cli/run_stage.hpp"

namespace geobem::cli {

namespace po = boost::program_options;

/// An option without a default bound to an optional field: set when given.
template <class T>
po::typed_value<T>* optional_value(std::optional<T>* field) {
  return po::value<T>()->notifier([field](const T& value) { *field = value; });
}

/// Options and their parse for one stage (or one subcommand). Every stage
/// has --help, --config FILE.ini (flat `key = value` lines named like the
/// long options; the command line wins) and --quiet (no progress lines on
/// stderr; warnings always print).
class StageOptions {
 public:
  StageOptions(std::string program, std::string summary);

  /// Declares the stage's own options; bind each with po::value(&field)
  /// (a default: ->default_value(field)) or optional_value(&field).
  po::options_description_easy_init add() { return options_.add_options(); }
  /// The shared spellings: --device auto|cpu|cuda (default auto) ...
  void add_device(std::string* device);
  /// ... --rel-tol and --abs-tol (>= 0, not both 0; checked by the method) ...
  void add_tolerances(double* rel_tol, double* abs_tol);
  /// ... and the output: --out DIR (the stage's output set, replaced whole)
  /// or --output FILE (one result file).
  void add_out_folder(std::string* out, const std::string& what);
  void add_output_file(std::string* output, const std::string& what);

  /// Parses the command line, then the --config file. Returns false after
  /// printing the usage on stdout for --help. Throws geobem::UsageError for
  /// an unknown option, a bad value, a missing required option or an
  /// unreadable --config file, naming the option (and the file).
  bool parse(int argc, const char* const argv[], const po::positional_options_description* positional = nullptr);
  /// Was the option given (command line or --config)?
  bool given(const std::string& name) const;
  bool quiet() const { return quiet_; }
  const std::string& program() const { return program_; }

  /// The effective options (INI file plus command-line overrides plus
  /// defaults) as an INI file that --config reads back: a comment line, then
  /// `name = value` per option with a value, in declaration order (numbers
  /// in the shortest text that reads back exactly).
  std::string record() const;

 private:
  std::string program_, summary_;
  po::options_description options_{"Options"};
  po::variables_map variables_;
  bool quiet_ = false;
};

}  // namespace geobem::cli

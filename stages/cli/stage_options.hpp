#pragma once
// A stage's command line (docs/stage_contract.md): options bound to the
// fields of the stage's own options struct, `--config FILE.ini` below the
// command line, and the record of the effective options that the stage
// writes into its output set.
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>

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
/// long options, stages/cli/ini_file.hpp; an option given on the command line
/// replaces the file's values of it, a repeatable one included) and --quiet
/// (no progress lines on stderr; warnings always print). On the command line
/// the last of several values of an option that does not repeat wins.
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
  /// or --output FILE (one result file); both are paths (mark_path).
  void add_out_folder(std::string* out, const std::string& what);
  void add_output_file(std::string* output, const std::string& what);

  /// Where a path starts inside an option's value (std::string::npos: the
  /// value holds none), e.g. after "csv:" in --load-history wall=csv:FILE.
  using PathStart = std::function<std::size_t(const std::string& value)>;
  /// Marks the option `name` as a file or folder path (or, with
  /// `path_start`, as a value holding one): a relative path in a --config
  /// file is relative to that file's folder, and record() writes it relative
  /// to the record's folder, so that a copied run replays where it now is.
  void mark_path(const std::string& name, PathStart path_start = nullptr);

  /// Parses the command line, then the --config file. Returns false after
  /// printing the usage on stdout for --help. Throws InputError::usage for
  /// an unknown option, a bad value, a missing required option or an
  /// unreadable --config file, naming the option (and the file and line).
  bool parse(int argc, const char* const argv[], const po::positional_options_description* positional = nullptr);
  /// Was the option given (command line or --config)?
  bool given(const std::string& name) const;
  /// Where the option's value came from, for messages: "the command line",
  /// "FILE.ini:LINE" or "the default".
  std::string origin(const std::string& name) const;
  /// When the option was given (command line or --config), warns on stderr,
  /// quiet or not: "PROGRAM: warning: --NAME is ignored: WHY".
  void warn_ignored(const std::string& name, const std::string& why) const;
  bool quiet() const { return quiet_; }
  const std::string& program() const { return program_; }

  /// The effective options (INI file plus command-line overrides plus
  /// defaults) as an INI file in `record_folder` that --config reads back: a
  /// comment line, then `name = value` per option with a value, in
  /// declaration order (numbers in the shortest text that reads back exactly,
  /// paths relative to `record_folder`, values escaped by escape_ini_value).
  std::string record(const std::filesystem::path& record_folder) const;

 private:
  /// Stores the --config file's values below the command line's (see parse).
  void read_config(const std::string& path);

  std::string program_, summary_;
  po::options_description options_{"Options"};
  po::variables_map variables_;
  std::map<std::string, PathStart> paths_;
  std::map<std::string, std::string> origins_;
  bool quiet_ = false;
};

/// How every stage and subcommand opens: a StageOptions(program, summary)
/// to which `declare(command, options)` binds the fields of a new Options
/// (the stage's own struct), the command line and --config parsed into it
/// (StageOptions::parse), then `body(options, command)` (both const), whose
/// value it returns; 0 after --help printed the usage. Parse errors throw as
/// StageOptions::parse's.
template <class Options, class Body>
int run_with_options(const std::string& program, const std::string& summary,
                     void (*declare)(StageOptions& command, Options& options), int argc, const char* const argv[],
                     Body&& body) {
  Options options;
  StageOptions command(program, summary);
  declare(command, options);
  if (!command.parse(argc, argv)) return 0;
  return body(static_cast<const Options&>(options), static_cast<const StageOptions&>(command));
}

/// A subcommand (run_subcommand) that opens as a stage does: `line` in the
/// list of subcommands, then run_with_options with the subcommand's name
/// ("PROGRAM NAME"), `description` (the head of its --help), `declare` and
/// `body`.
template <class Options, class Body>
Subcommand options_subcommand(std::string line, std::string description,
                              void (*declare)(StageOptions& command, Options& options), Body body) {
  return {std::move(line), [description = std::move(description), declare, body](int argc, const char* const argv[]) {
            return run_with_options(argv[0], description, declare, argc, argv, body);
          }};
}

/// A stage's main(): run_with_options under run_stage, the one place that
/// turns an exception into an exit status.
template <class Options, class Body>
int run_stage(const std::string& program, const std::string& summary,
              void (*declare)(StageOptions& command, Options& options), int argc, const char* const argv[],
              Body&& body) {
  return run_stage(program, [&] { return run_with_options(program, summary, declare, argc, argv, body); });
}

}  // namespace geobem::cli

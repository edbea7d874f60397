#include "stages/cli/stage_options.hpp"

#include <charconv>
#include <fstream>
#include <iostream>
#include <sstream>
#include <vector>

#include "gpu/core/usage_error.hpp"
#include "mesh/io/byte_order_mark.hpp"

namespace geobem::cli {

namespace {

/// The shortest text that reads back as exactly `value` (22000, 1e-06).
std::string shortest_text(double value) {
  char text[32];
  const auto end = std::to_chars(text, text + sizeof text, value).ptr;
  return std::string(text, end);
}

/// The values of one option as INI text (several for a repeated option).
std::vector<std::string> value_texts(const std::string& name, const boost::any& value) {
  if (const auto* text = boost::any_cast<std::string>(&value)) return {*text};
  if (const auto* texts = boost::any_cast<std::vector<std::string>>(&value)) return *texts;
  if (const auto* number = boost::any_cast<double>(&value)) return {shortest_text(*number)};
  if (const auto* flag = boost::any_cast<bool>(&value)) return {*flag ? "true" : "false"};
  if (const auto* count = boost::any_cast<int>(&value)) return {std::to_string(*count)};
  if (const auto* count = boost::any_cast<long>(&value)) return {std::to_string(*count)};
  if (const auto* count = boost::any_cast<long long>(&value)) return {std::to_string(*count)};
  if (const auto* count = boost::any_cast<unsigned>(&value)) return {std::to_string(*count)};
  if (const auto* count = boost::any_cast<unsigned long>(&value)) return {std::to_string(*count)};
  if (const auto* count = boost::any_cast<unsigned long long>(&value)) return {std::to_string(*count)};
  throw std::logic_error("--" + name + ": no INI form for this option's type");
}

/// Parses the command line into `variables`, then the --config file, then
/// notifies the bound fields. Prints the usage on stdout and returns false
/// for --help. Throws UsageError naming the option (and the file).
bool parse_into(po::variables_map& variables, const po::options_description& options, int argc,
                const char* const argv[], const po::positional_options_description* positional,
                const std::string& program, const std::string& summary) {
  try {
    auto parser = po::command_line_parser(argc, argv).options(options);
    if (positional) parser.positional(*positional);
    po::store(parser.run(), variables);
  } catch (const po::error& error) {
    throw UsageError(error.what());
  }
  if (variables.count("help")) {
    std::cout << "Usage: " << program << " [options]\n" << summary << "\n\n" << options << "\n";
    return false;
  }
  if (variables.count("config")) {
    const std::string path = variables["config"].as<std::string>();
    std::ifstream config(path);
    if (!config) throw UsageError("--config: cannot open '" + path + "'");
    skip_utf8_bom(config);  // Windows editors start UTF-8 files with one
    try {
      po::store(po::parse_config_file(config, options, false), variables);
    } catch (const po::error& error) {
      throw UsageError(path + ": " + error.what());
    }
  }
  try {
    po::notify(variables);
  } catch (const po::error& error) {
    throw UsageError(error.what());
  }
  return true;
}

}  // namespace

StageOptions::StageOptions(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {
  options_.add_options()("help,h", "show this help and exit")(
      "config", po::value<std::string>(), "read options from an INI file (key = value; command line wins)")(
      "quiet,q", po::bool_switch(&quiet_), "no progress lines on stderr (warnings still print)");
}

void StageOptions::add_device(std::string* device) {
  add()("device", po::value(device)->default_value(*device), "where to compute: auto (GPU when present), cpu, cuda");
}

void StageOptions::add_tolerances(double* rel_tol, double* abs_tol) {
  add()("rel-tol", po::value(rel_tol)->default_value(*rel_tol, shortest_text(*rel_tol)), "relative tolerance (>= 0)")(
      "abs-tol", po::value(abs_tol)->default_value(*abs_tol, shortest_text(*abs_tol)),
      "absolute tolerance (>= 0; not both 0)");
}

void StageOptions::add_out_folder(std::string* out, const std::string& what) {
  add()("out", po::value(out)->required(),
        ("output folder, created if missing and replaced whole by each run: " + what).c_str());
}

void StageOptions::add_output_file(std::string* output, const std::string& what) {
  add()("output", po::value(output)->required(),
        ("result file (its folder is created; OUTPUT.ini records the options): " + what).c_str());
}

bool StageOptions::parse(int argc, const char* const argv[], const po::positional_options_description* positional) {
  return parse_into(variables_, options_, argc, argv, positional, program_, summary_);
}

bool StageOptions::given(const std::string& name) const {
  const auto found = variables_.find(name);
  return found != variables_.end() && !found->second.defaulted();
}

std::string StageOptions::record() const {
  std::ostringstream text;
  text << "# " << program_ << ": the effective options of the run that wrote this set (read back by --config)\n";
  for (const auto& option : options_.options()) {
    const std::string& name = option->long_name();
    if (name == "help" || name == "config" || name == "quiet") continue;
    const auto found = variables_.find(name);
    if (found == variables_.end() || found->second.empty()) continue;
    for (const auto& value : value_texts(name, found->second.value())) text << name << " = " << value << "\n";
  }
  return text.str();
}

}  // namespace geobem::cli

#include "stages/cli/stage_options.hpp"

#include <charconv>
#include <iostream>
#include <sstream>
#include <vector>

#include "gpu/core/input_error.hpp"
#include "stages/cli/ini_file.hpp"

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

namespace fs = std::filesystem;

const std::string from_command_line = "the command line";

/// `path` without a trailing separator ("a/b/" -> "a/b"), so that it names the folder.
fs::path without_trailing_separator(fs::path path) {
  while (!path.has_filename() && path.has_parent_path() && path != path.root_path()) path = path.parent_path();
  return path;
}

/// A path given in a file in `folder`: relative to that folder, made
/// relative to the working folder (lexically, as record_path wrote it).
std::string resolve_in(const fs::path& folder, const std::string& path) {
  if (path.empty() || folder.empty() || fs::path(path).is_absolute()) return path;
  return without_trailing_separator((folder / path).lexically_normal()).string();
}

/// `path` (relative to the working folder, or absolute) relative to
/// `folder`; "../NAME" for the folder itself, so that it still names it (an
/// output folder in its own record).
std::string record_path(const fs::path& folder, const std::string& path) {
  if (path.empty()) return path;
  const fs::path base = without_trailing_separator(fs::absolute(folder.empty() ? "." : folder).lexically_normal());
  const fs::path target = without_trailing_separator(fs::absolute(path).lexically_normal());
  const fs::path relative = target.lexically_relative(base);
  if (relative.empty()) return target.string();
  if (relative == ".") return (fs::path("..") / base.filename()).string();
  return relative.string();
}

/// Applies `convert` to the path inside `value` (all of it without `start`).
std::string convert_path(const std::string& value, const StageOptions::PathStart& start,
                         const std::function<std::string(const std::string&)>& convert) {
  const std::size_t at = start ? start(value) : 0;
  if (at == std::string::npos || at > value.size()) return value;
  return value.substr(0, at) + convert(value.substr(at));
}

/// Drops all but the last value of each option that does not repeat, so
/// that a later value on the command line replaces an earlier one.
void keep_last_single_values(po::parsed_options& parsed, const po::options_description& options) {
  auto& list = parsed.options;
  for (std::size_t k = 0; k < list.size();) {
    const po::option_description* description = options.find_nothrow(list[k].string_key, false);
    bool later = false;
    for (std::size_t j = k + 1; j < list.size() && !later; ++j) later = list[j].string_key == list[k].string_key;
    if (later && description && !description->semantic()->is_composing())
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(k));
    else
      ++k;
  }
}

}  // namespace

StageOptions::StageOptions(std::string program, std::string summary)
    : program_(std::move(program)), summary_(std::move(summary)) {
  options_.add_options()("help,h", "show this help and exit")(
      "config", po::value<std::string>(),
      "read options from an INI file (key = value; an option on the command line replaces its values there)")(
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
  mark_path("out");
}

void StageOptions::add_output_file(std::string* output, const std::string& what) {
  add()("output", po::value(output)->required(),
        ("result file (its folder is created; OUTPUT.ini records the options): " + what).c_str());
  mark_path("output");
}

void StageOptions::mark_path(const std::string& name, PathStart path_start) {
  paths_[name] = std::move(path_start);
}

bool StageOptions::parse(int argc, const char* const argv[], const po::positional_options_description* positional) {
  try {
    auto parser = po::command_line_parser(argc, argv).options(options_);
    if (positional) parser.positional(*positional);
    po::parsed_options command_line = parser.run();
    keep_last_single_values(command_line, options_);
    po::store(command_line, variables_);
    for (const auto& option : command_line.options) origins_[option.string_key] = from_command_line;
  } catch (const po::error& error) {
    throw InputError::usage(error.what());
  }
  if (variables_.count("help")) {
    std::cout << "Usage: " << program_ << " [options]\n" << summary_ << "\n\n" << options_ << "\n";
    return false;
  }
  if (variables_.count("config")) read_config(variables_["config"].as<std::string>());
  try {
    po::notify(variables_);
  } catch (const po::error& error) {
    throw InputError::usage(error.what());
  }
  return true;
}

void StageOptions::read_config(const std::string& path) {
  std::vector<IniEntry> entries;
  try {
    entries = read_ini_file(path);
  } catch (const std::runtime_error& error) {
    throw InputError::usage(std::string("--config: ") + error.what());
  }
  const fs::path folder = fs::path(path).parent_path();
  std::map<std::string, int> first_line;  // of each option that does not repeat
  for (const IniEntry& entry : entries) {
    const std::string where = path + ":" + std::to_string(entry.line);
    const po::option_description* description = options_.find_nothrow(entry.key, false);
    if (!description || entry.key == "help" || entry.key == "config")
      throw InputError::usage(where + ": '" + entry.key + "' is not an option of " + program_);
    const std::string& name = description->long_name();
    const auto origin = origins_.find(name);
    if (origin != origins_.end() && origin->second == from_command_line) continue;  // replaced by the command line
    if (!description->semantic()->is_composing()) {
      const auto [first, inserted] = first_line.emplace(name, entry.line);
      if (!inserted)
        throw InputError::usage(where + ": '" + name + "' again (first on line " + std::to_string(first->second) +
                                "); only repeatable options take several lines");
    }
    const auto path_option = paths_.find(name);
    const std::string value = path_option == paths_.end()
                                  ? entry.value
                                  : convert_path(entry.value, path_option->second,
                                                 [&](const std::string& p) { return resolve_in(folder, p); });
    po::parsed_options one(&options_);
    one.options.emplace_back(name, std::vector<std::string>{value});
    try {
      po::store(one, variables_);
    } catch (const po::error& error) {
      throw InputError::usage(where + ": " + error.what());
    }
    origins_[name] = where;
  }
}

bool StageOptions::given(const std::string& name) const {
  const auto found = variables_.find(name);
  return found != variables_.end() && !found->second.defaulted();
}

void StageOptions::warn_ignored(const std::string& name, const std::string& why) const {
  if (given(name)) std::cerr << program_ << ": warning: --" << name << " is ignored: " << why << "\n";
}

std::string StageOptions::origin(const std::string& name) const {
  const auto found = origins_.find(name);
  if (found != origins_.end()) return found->second;
  return variables_.count(name) ? "the default" : "not given";
}

std::string StageOptions::record(const fs::path& record_folder) const {
  std::ostringstream text;
  text << "# " << program_ << ": the effective options of the run that wrote this set (read back by --config; "
       << "paths relative to this file's folder)\n";
  for (const auto& option : options_.options()) {
    const std::string& name = option->long_name();
    if (name == "help" || name == "config" || name == "quiet") continue;
    const auto found = variables_.find(name);
    if (found == variables_.end() || found->second.empty()) continue;
    const auto path_option = paths_.find(name);
    for (std::string value : value_texts(name, found->second.value())) {
      if (path_option != paths_.end())
        value = convert_path(value, path_option->second,
                             [&](const std::string& p) { return record_path(record_folder, p); });
      text << name << " = " << escape_ini_value(value) << "\n";
    }
  }
  return text.str();
}

}  // namespace geobem::cli

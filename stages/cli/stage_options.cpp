#include "stages/cli/stage_options.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>

namespace geobem::cli {

void add_common_options(po::options_description& options) {
  options.add_options()("help,h", "show this help and exit")(
      "config", po::value<std::string>(), "read options from an INI file (key = value; command line wins)")(
      "quiet,q", po::bool_switch(), "no progress output on stderr");
}

void add_device_option(po::options_description& options) {
  options.add_options()("device", po::value<std::string>()->default_value("auto"),
                        "where to compute: auto (GPU when present), cpu, cuda");
}

std::optional<po::variables_map> parse_stage_options(int argc, const char* const argv[], const std::string& stage,
                                                     const std::string& summary,
                                                     const po::options_description& options,
                                                     const po::positional_options_description* positional) {
  po::variables_map variables;
  auto parser = po::command_line_parser(argc, argv).options(options);
  if (positional) parser.positional(*positional);
  po::store(parser.run(), variables);
  if (variables.count("help")) {
    std::cout << "Usage: " << stage << " [options]\n" << summary << "\n\n" << options << "\n";
    return std::nullopt;
  }
  if (variables.count("config")) {
    const std::string path = variables["config"].as<std::string>();
    std::ifstream config(path);
    if (!config) throw po::error("--config: cannot open '" + path + "'");
    try {
      po::store(po::parse_config_file(config, options, false), variables);
    } catch (const po::error& error) {
      throw po::error(path + ": " + error.what());
    }
  }
  po::notify(variables);
  return variables;
}

int run_stage(const std::string& stage, const std::function<int()>& body) {
  try {
    return body();
  } catch (const po::error& error) {
    std::cerr << stage << ": error: " << error.what() << " (see " << stage << " --help)\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << stage << ": error: " << error.what() << "\n";
    return 1;
  }
}

}  // namespace geobem::cli

#include "stages/cli/run_stage.hpp"

#include <boost/program_options/errors.hpp>
#include <iostream>
#include <vector>

#include "gpu/core/input_error.hpp"

namespace geobem::cli {

int run_stage(const std::string& program, const std::function<int()>& body) {
  try {
    return body();
  } catch (const InputError& error) {
    if (error.kind() == InputKind::data) {
      std::cerr << program << ": error: " << error.what() << "\n";
      return 1;
    }
    std::cerr << program << ": error: " << error.what() << " (see " << program << " --help)\n";
    return 2;
  } catch (const boost::program_options::error& error) {
    std::cerr << program << ": error: " << error.what() << " (see " << program << " --help)\n";
    return 2;
  } catch (const std::exception& error) {
    std::cerr << program << ": error: " << error.what() << "\n";
    return 1;
  }
}

int run_subcommand(const std::string& program, const std::map<std::string, Subcommand>& commands, int argc,
                   const char* const argv[]) {
  const std::string name = argc > 1 ? argv[1] : "";
  const auto found = commands.find(name);
  if (found == commands.end()) {
    const bool help = name == "--help" || name == "-h";
    std::ostream& out = help ? std::cout : std::cerr;
    if (!help) out << program << ": error: " << (name.empty() ? "no subcommand" : "unknown subcommand '" + name + "'") << "\n";
    out << "Usage: " << program << " SUBCOMMAND [options]   (SUBCOMMAND --help for its options)\n";
    for (const auto& [command, entry] : commands) out << "  " << command << "  " << entry.summary << "\n";
    return help ? 0 : 2;
  }
  const std::string full_name = program + " " + name;
  std::vector<const char*> arguments{full_name.c_str()};
  for (int i = 2; i < argc; ++i) arguments.push_back(argv[i]);
  return run_stage(full_name, [&] { return found->second.run(static_cast<int>(arguments.size()), arguments.data()); });
}

}  // namespace geobem::cli

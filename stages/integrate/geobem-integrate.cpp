// geobem-integrate SUBCOMMAND [options]: batched integrators (see --help).
#include <iostream>
#include <string>
#include <vector>

#include "stages/integrate/integrate_command.hpp"

namespace geobem::cli {
std::map<std::string, IntegrateCommand>& integrate_commands() {
  static std::map<std::string, IntegrateCommand> commands;
  return commands;
}
}  // namespace geobem::cli

int main(int argc, char** argv) {
  auto& commands = geobem::cli::integrate_commands();
  const std::string name = argc > 1 ? argv[1] : "";
  const auto found = commands.find(name);
  if (found == commands.end()) {
    std::ostream& out = (name == "--help" || name == "-h") ? std::cout : std::cerr;
    if (!name.empty() && name != "--help" && name != "-h") out << "geobem-integrate: error: unknown subcommand '" << name << "'\n";
    out << "Usage: geobem-integrate SUBCOMMAND [options]   (SUBCOMMAND --help for its options)\n";
    for (const auto& [command, entry] : commands) out << "  " << command << "  " << entry.summary << "\n";
    return (name == "--help" || name == "-h") ? 0 : 2;
  }
  const std::string program = "geobem-integrate " + name;
  std::vector<const char*> arguments{program.c_str()};
  for (int i = 2; i < argc; ++i) arguments.push_back(argv[i]);
  return found->second.run(static_cast<int>(arguments.size()), arguments.data());
}

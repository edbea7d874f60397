// geobem-integrate SUBCOMMAND [options]: batched integrators (see --help).
#include "stages/integrate/integrate_command.hpp"

namespace geobem::cli {
std::map<std::string, Subcommand>& integrate_commands() {
  static std::map<std::string, Subcommand> commands;
  return commands;
}
}  // namespace geobem::cli

int main(int argc, char** argv) {
  return geobem::cli::run_subcommand("geobem-integrate", geobem::cli::integrate_commands(), argc, argv);
}

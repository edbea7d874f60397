#pragma once
// geobem-integrate runs one of several subcommands (longman, adaptive,
// cubature). Each subcommand lives in its own *_command.cpp in this folder
// and registers itself at start-up with a static IntegrateCommandRegistrar,
// so adding one touches no other file.
#include <functional>
#include <map>
#include <string>

namespace geobem::cli {

struct IntegrateCommand {
  std::string summary;                                  ///< one line for `geobem-integrate --help`
  std::function<int(int argc, const char* const argv[])> run;  ///< argv[0] is "geobem-integrate NAME"
};

/// The subcommands by name.
std::map<std::string, IntegrateCommand>& integrate_commands();

struct IntegrateCommandRegistrar {
  IntegrateCommandRegistrar(const std::string& name, IntegrateCommand command) {
    integrate_commands().emplace(name, std::move(command));
  }
};

}  // namespace geobem::cli

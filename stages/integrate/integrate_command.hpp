#pragma once
// geobem-integrate runs one of several subcommands (longman, adaptive,
// cubature). Each subcommand lives in its own *_command.cpp in this folder
// and registers itself at start-up with a static IntegrateCommandRegistrar,
// so adding one touches no other file; geobem-integrate.cpp hands the list to
// the shared dispatcher (cli::run_subcommand).
#include <map>
#include <string>

#include "gpu/core/device.hpp"
#include "stages/cli/run_stage.hpp"

namespace geobem::cli {

/// Where an --integrand-expression runs: the CPU for auto, as asked
/// otherwise (the adaptive and cubature expressions have no CUDA path yet, so
/// their integrators refuse cuda with a message).
inline ComputeDevice expression_device(DeviceChoice choice) {
  return choice == DeviceChoice::Auto ? ComputeDevice::Cpu : resolve_device(choice);
}

/// The subcommands by name.
std::map<std::string, Subcommand>& integrate_commands();

struct IntegrateCommandRegistrar {
  IntegrateCommandRegistrar(const std::string& name, Subcommand command) {
    integrate_commands().emplace(name, std::move(command));
  }
};

}  // namespace geobem::cli

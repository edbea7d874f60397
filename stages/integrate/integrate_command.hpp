#pragma once
// geobem-integrate runs one of several subcommands (longman, adaptive,
// cubature). Each subcommand lives in its own *_command.cpp in this folder
// and registers itself at start-up with a static IntegrateCommandRegistrar,
// so adding one touches no other file; geobem-integrate.cpp hands the list to
// the shared dispatcher (cli::run_subcommand).
#include <iostream>
#include <map>
#include <string>

#include "gpu/core/device.hpp"
#include "gpu/expression/expression_integrate.hpp"
#include "stages/cli/run_stage.hpp"

namespace geobem::cli {

/// After an --integrand-expression ran on `device`: on the GPU, NVRTC's
/// warnings (always) and how its kernel was obtained (unless `quiet`).
inline void report_expression_kernel(const char* program, ComputeDevice device,
                                     const expression::KernelCompileReport& compile, bool quiet) {
  if (device != ComputeDevice::Cuda) return;
  if (!compile.log.empty()) std::cerr << program << ": NVRTC: " << compile.log << "\n";
  if (quiet) return;
  std::cerr << program << ": expression kernel for " << compile.architecture << " "
            << (compile.from_cache ? "read from the cache" : "compiled in " + std::to_string(compile.seconds) + " s")
            << (compile.cache_file.empty() ? "" : " (" + compile.cache_file + ")") << "\n";
}

/// The subcommands by name.
std::map<std::string, Subcommand>& integrate_commands();

struct IntegrateCommandRegistrar {
  IntegrateCommandRegistrar(const std::string& name, Subcommand command) {
    integrate_commands().emplace(name, std::move(command));
  }
};

}  // namespace geobem::cli

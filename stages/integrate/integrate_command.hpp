#pragma once
// geobem-integrate runs one of several subcommands (longman, adaptive,
// cubature). Each subcommand lives in its own *_command.cpp in this folder
// and registers itself at start-up with a static IntegrateCommandRegistrar,
// so adding one touches no other file; geobem-integrate.cpp hands the list to
// the shared dispatcher (cli::run_subcommand). What the subcommands share
// lives here: the kernel report of an expression, the parameter table, the
// result CSV, and the record, commit and warning that end a run.
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/integration_status.hpp"
#include "gpu/expression/expression_integrate.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/number_text.hpp"
#include "mesh/io/output_set.hpp"
#include "stages/cli/run_stage.hpp"
#include "stages/cli/stage_options.hpp"

namespace geobem::cli {

/// After an --integrand-expression ran on `device`: on the GPU, NVRTC's
/// warnings and the kernel cache's (always) and how its kernel was obtained
/// (unless `quiet`).
inline void report_expression_kernel(const std::string& program, ComputeDevice device,
                                     const expression::KernelCompileReport& compile, bool quiet) {
  if (device != ComputeDevice::Cuda) return;
  if (!compile.log.empty()) std::cerr << program << ": NVRTC: " << compile.log << "\n";
  if (!compile.cache_warning.empty()) std::cerr << program << ": warning: " << compile.cache_warning << "\n";
  if (quiet) return;
  std::cerr << program << ": expression kernel for " << compile.architecture << " "
            << (compile.from_cache ? "read from the cache" : "compiled in " + std::to_string(compile.seconds) + " s")
            << (compile.cache_file.empty() ? "" : " (" + compile.cache_file + ")") << "\n";
}

/// The values of the columns `names` of every row of `table`, row after row
/// (rows x names.size()), as the expression integrators take their
/// parameters. Throws CsvTable::column's error when a column is missing.
inline std::vector<double> gather_columns(const CsvTable& table, const std::vector<std::string>& names) {
  std::vector<std::size_t> column;
  for (const auto& name : names) column.push_back(table.column(name));
  std::vector<double> values;
  values.reserve(table.rows.size() * names.size());
  for (const auto& row : table.rows)
    for (const std::size_t c : column) values.push_back(row[c]);
  return values;
}

/// The result CSV of a batch: the columns of `table` then `result_columns`
/// (a comma-separated header), and for each row its input values then what
/// `write_result(out, i)` writes for row i; the input values as
/// shortest_text (a 0.1 stays 0.1).
template <class WriteResult>
void write_rows_with_results(std::ostream& out, const CsvTable& table, const char* result_columns,
                             WriteResult write_result) {
  for (const auto& name : table.columns) out << name << ",";
  out << result_columns << "\n";
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    for (const double value : table.rows[i]) out << shortest(value) << ",";
    write_result(out, i);
    out << "\n";
  }
}

/// An integral's result columns "VALUE,error,evaluations,PIECES,status": its
/// value (Longman's value, the quadratures' estimate), error estimate,
/// evaluations, the pieces it used (half-cycle areas, blocks or regions) and
/// its status word.
template <class Evaluations, class Pieces>
void write_result_columns(std::ostream& row, double value, double error, Evaluations evaluations, Pieces pieces,
                          IntegrationStatus status) {
  row << shortest(value) << "," << shortest(error) << "," << evaluations << "," << pieces << "," << to_string(status);
}

/// Writes the result CSV of a batch into `output`: the columns of `table`,
/// then each row's result columns (write_result_columns) with the value and
/// pieces of `results[i]` named by `value` and `pieces`.
template <class Result, class Pieces>
void write_integral_rows(OutputFile& output, const CsvTable& table, const char* result_columns,
                         const std::vector<Result>& results, double Result::*value, Pieces Result::*pieces) {
  output.write_result([&](std::ostream& out) {
    write_rows_with_results(out, table, result_columns, [&](std::ostream& row, std::size_t i) {
      const Result& r = results[i];
      write_result_columns(row, r.*value, r.error, r.evaluations, r.*pieces, r.status);
    });
  });
}

/// How many of `results` (an integrator's, each with a `status`) did not converge.
template <class Result>
std::size_t unconverged_count(const std::vector<Result>& results) {
  std::size_t count = 0;
  for (const auto& r : results) count += r.status != IntegrationStatus::Converged;
  return count;
}

/// Writes the run's record (the options, then "# computed on DEVICE") beside
/// the result, commits both (docs/stage_contract.md), and warns on stderr
/// when `unconverged` of the `count` integrals missed their tolerance, with
/// `where_to_look` in the warning's parentheses.
inline void commit_integrals(OutputFile& output, const StageOptions& command, ComputeDevice device,
                             const std::string& program, std::size_t unconverged, std::size_t count,
                             const std::string& where_to_look = "status column") {
  output.write_record(command.record(output.final_path().parent_path()) + "# computed on " + to_string(device) +
                      "\n");
  output.commit();
  if (unconverged > 0)
    std::cerr << program << ": warning: " << unconverged << " of " << count
              << " integrals did not meet the tolerance (" << where_to_look << ")\n";
}

/// The subcommands by name.
std::map<std::string, Subcommand>& integrate_commands();

struct IntegrateCommandRegistrar {
  IntegrateCommandRegistrar(const std::string& name, Subcommand command) {
    integrate_commands().emplace(name, std::move(command));
  }
};

}  // namespace geobem::cli

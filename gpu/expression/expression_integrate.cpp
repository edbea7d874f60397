#include "gpu/expression/expression_integrate.hpp"

#include <cmath>
#include <sstream>

#include "gpu/core/input_error.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/expression/expression_kernels.hpp"
#include "gpu/expression/expression_program.hpp"
#include "gpu/quadrature/adaptive_1d_cpu.hpp"
#include "gpu/quadrature/cubature_cpu.hpp"
#include "gpu/transform/longman_cpu.hpp"
#include "gpu/transform/transform.hpp"

namespace geobem::expression {

namespace {

std::string describe(const std::string& name, double value, const char* requirement) {
  std::ostringstream text;
  text << name << " = " << value << " " << requirement;
  return text.str();
}


/// Throws a usage InputError naming the first row (counted from 1) of the `count`
/// rows of `stride` values that `check` refuses (a non-empty reason).
template <class Check>
void check_rows(const double* rows, std::size_t count, std::size_t stride, Check check) {
  for (std::size_t i = 0; i < count; ++i) {
    const std::string problem = check(rows + i * stride);
    if (!problem.empty()) throw InputError::usage("row " + std::to_string(i + 1) + ": " + problem);
  }
}

template <OscillationKind Kind>
void longman_cpu(const ExpressionProgram& program, const std::vector<double>& rows, std::size_t count,
                 const transform::GaussRule& rule, const transform::LongmanOptions& options,
                 transform::LongmanResult* results, ProgressReporter* progress) {
  const std::size_t stride = 2 + program.parameter_count();
  std::vector<OscillatoryIntegrand<ProgramIntegrand1D, Kind>> items(count);
  for (std::size_t i = 0; i < count; ++i) {
    const double* row = &rows[i * stride];
    items[i] = {ProgramIntegrand1D{&program, row + 2}, row[0], row[1]};
  }
  transform::longman_integrate_cpu(items.data(), count, rule, options, results, progress);
}

/// The CPU path of integrate_longman_expression: rows count x (2 + P), checked.
void longman_expression_cpu(const Expression& rest, OscillationKind kind, const std::vector<double>& rows,
                            std::size_t count, const transform::GaussRule& rule,
                            const transform::LongmanOptions& options, transform::LongmanResult* results,
                            bool progress_quiet) {
  const ExpressionProgram program(rest);
  ProgressReporter progress("longman expression", count, "integrals", progress_quiet);
  switch (kind) {
    case OscillationKind::Cos: longman_cpu<OscillationKind::Cos>(program, rows, count, rule, options, results, &progress); break;
    case OscillationKind::Sin: longman_cpu<OscillationKind::Sin>(program, rows, count, rule, options, results, &progress); break;
    case OscillationKind::J0: longman_cpu<OscillationKind::J0>(program, rows, count, rule, options, results, &progress); break;
    case OscillationKind::J1: longman_cpu<OscillationKind::J1>(program, rows, count, rule, options, results, &progress); break;
  }
  progress.finish();
}

/// The CPU path of integrate_adaptive_expression: rows count x (2 + P),
/// checked; a spread sweep's one integral has each block's subintervals
/// spread over the threads, a batch one row per thread.
std::vector<quadrature::Adaptive1DResult> adaptive_expression_cpu(const Expression& f, const std::vector<double>& rows,
                                                                  std::size_t count,
                                                                  const quadrature::Adaptive1DOptions& options,
                                                                  AdaptiveSweep sweep) {
  std::vector<quadrature::Adaptive1DResult> results(count);
  const ExpressionProgram program(f);
  if (sweep == AdaptiveSweep::Spread) {
    const ProgramIntegrand1D integrand{&program, &rows[2]};
    results[0] = quadrature::cpu_integrate_adaptive_1d(integrand, rows[0], rows[1], options);
    return results;
  }
  const std::size_t stride = 2 + f.parameters.size();
  const long rows_count = static_cast<long>(count);
#pragma omp parallel for schedule(dynamic, 1)
  for (long i = 0; i < rows_count; ++i) {
    const double* row = &rows[i * stride];
    quadrature::BlockCuttingState state = quadrature::start_block_cutting(
        row[0], row[1], options.rel_tol, options.abs_tol, options.max_evaluations, options.expansion);
    quadrature::cpu_block_cutting_sweep(ProgramIntegrand1D{&program, row + 2}, state, options.beta, false);
    results[i] = quadrature::adaptive_1d_result(state);
  }
  return results;
}

/// The CPU path of integrate_cubature_expression: parameters count x P, checked; one row after another.
std::vector<quadrature::CubatureResult> cubature_expression_cpu(const Expression& f,
                                                                const std::vector<double>& parameters,
                                                                std::size_t count,
                                                                const quadrature::CubatureOptions& options) {
  const std::size_t stride = f.parameters.size();
  std::vector<quadrature::CubatureResult> results(count);
  const ExpressionProgram program(f);
  for (std::size_t i = 0; i < count; ++i)
    results[i] = quadrature::cpu_integrate_cubature(
        ProgramIntegrandND{&program, stride ? &parameters[i * stride] : nullptr}, options);
  return results;
}

}  // namespace

std::string check_parameter_row(const Expression& f, const double* parameters) {
  for (std::size_t k = 0; k < f.parameters.size(); ++k)
    if (!std::isfinite(parameters[k])) return describe(f.parameters[k], parameters[k], "is not finite");
  return "";
}

Oscillation parse_oscillation(const std::string& text) {
  const std::size_t colon = text.find(':');
  const std::string kind = text.substr(0, colon);
  Oscillation oscillation;
  if (colon == std::string::npos || colon + 1 == text.size())
    throw InputError::usage("--oscillation '" + text +
                            "': expected KIND:PARAM (KIND cos, sin, J0 or J1; PARAM the column of omega)");
  if (kind == "cos") oscillation.kind = OscillationKind::Cos;
  else if (kind == "sin") oscillation.kind = OscillationKind::Sin;
  else if (kind == "J0") oscillation.kind = OscillationKind::J0;
  else if (kind == "J1") oscillation.kind = OscillationKind::J1;
  else throw InputError::usage("--oscillation '" + text + "': unknown kind '" + kind + "' (known: cos, sin, J0, J1)");
  oscillation.parameter = text.substr(colon + 1);
  return oscillation;
}

std::string to_string(OscillationKind kind) {
  switch (kind) {
    case OscillationKind::Cos: return "cos";
    case OscillationKind::Sin: return "sin";
    case OscillationKind::J0: return "J0";
    case OscillationKind::J1: return "J1";
  }
  return "?";
}

std::string check_longman_row(const Expression& rest, const double* row) {
  if (!(std::isfinite(row[0]) && row[0] > 0.0)) return describe("omega", row[0], "must be finite and > 0");
  if (!(std::isfinite(row[1]) && row[1] >= 0.0)) return describe("the decay rate", row[1], "must be finite and >= 0");
  return check_parameter_row(rest, row + 2);
}

std::vector<transform::LongmanResult> integrate_longman_expression(const Expression& rest, OscillationKind kind,
                                                                   const std::vector<double>& rows, std::size_t count,
                                                                   const transform::LongmanOptions& options,
                                                                   int quadrature_order, ComputeDevice device,
                                                                   bool progress_quiet,
                                                                   transform::LongmanTimings* timings,
                                                                   KernelCompileReport* compile) {
  transform::validate_options(options);
  const std::size_t stride = 2 + rest.parameters.size();
  if (rows.size() < count * stride)
    throw InputError("integrate_longman_expression: fewer values than count x (2 + parameters)");
  const transform::GaussRule rule = transform::make_gauss_rule(quadrature_order);
  std::vector<transform::LongmanResult> results(count);
  if (timings) *timings = transform::LongmanTimings{};
  run_on(
      device, "Longman expressions",
      [&] {
        detail::longman_expression_cuda(rest, kind, rows, count, rule, options, results.data(), timings, compile);
      },
      [&] { longman_expression_cpu(rest, kind, rows, count, rule, options, results.data(), progress_quiet); });
  return results;
}

std::string check_adaptive_row(const Expression& f, const double* row) {
  if (!std::isfinite(row[0]) || !std::isfinite(row[1]) || !(row[0] < row[1])) {
    std::ostringstream text;
    text << "limits [" << row[0] << ", " << row[1] << "] are not finite with lower < upper";
    return text.str();
  }
  return check_parameter_row(f, row + 2);
}

std::vector<quadrature::Adaptive1DResult> integrate_adaptive_expression(const Expression& f,
                                                                        const std::vector<double>& rows,
                                                                        std::size_t count,
                                                                        const quadrature::Adaptive1DOptions& options,
                                                                        ComputeDevice device,
                                                                        KernelCompileReport* compile,
                                                                        AdaptiveSweep sweep) {
  quadrature::check_adaptive_1d_options(options);
  if (sweep == AdaptiveSweep::Spread && count != 1)
    throw InputError("integrate_adaptive_expression: a spread sweep takes one integral");
  const std::size_t stride = 2 + f.parameters.size();
  if (rows.size() < count * stride)
    throw InputError("integrate_adaptive_expression: fewer values than count x (2 + parameters)");
  check_rows(rows.data(), count, stride, [&](const double* row) { return check_adaptive_row(f, row); });
  return run_on(
      device, "adaptive 1D expressions",
      [&] { return detail::adaptive_expression_cuda(f, rows, count, options, sweep, compile); },
      [&] { return adaptive_expression_cpu(f, rows, count, options, sweep); });
}

std::vector<quadrature::CubatureResult> integrate_cubature_expression(const Expression& f,
                                                                      const std::vector<double>& parameters,
                                                                      std::size_t count,
                                                                      const quadrature::CubatureOptions& options,
                                                                      ComputeDevice device,
                                                                      KernelCompileReport* compile) {
  quadrature::check_cubature_options(options);
  if (static_cast<int>(f.variables.size()) != options.dim)
    throw InputError("integrate_cubature_expression: the expression's variables are not x1..x" +
                     std::to_string(options.dim));
  const std::size_t stride = f.parameters.size();
  if (parameters.size() < count * stride)
    throw InputError("integrate_cubature_expression: fewer values than count x parameters");
  check_rows(parameters.data(), count, stride, [&](const double* row) { return check_parameter_row(f, row); });
  return run_on(
      device, "cubature expressions",
      [&] { return detail::cubature_expression_cuda(f, parameters, count, options, compile); },
      [&] { return cubature_expression_cpu(f, parameters, count, options); });
}

}  // namespace geobem::expression

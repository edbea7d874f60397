#pragma once
// The expression battery (tests/expression/expression_battery.csv, written by
// expression_battery_reference.py with mpmath, no geobem code): integrands
// that defeat a rule assuming smoothness (poles at ±ib near the axis, kinks,
// integrable singularities at an end, products of Bessel functions), for
// Longman's method and the adaptive 1D quadrature, run one form (expression)
// at a time as a batch of its rows.
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/expression/expression_integrate.hpp"

namespace geobem::test {

struct BatteryRow {
  int form = 0;
  std::string method, expression, oscillation;
  double lower = 0, upper = 0, a = 0, b = 0, c = 0, w = 0, reference = 0;
};

/// One integrator's answer on a row.
struct BatteryOutcome {
  double value = 0, error = 0;
  IntegrationStatus status = IntegrationStatus::NotConverged;
};

/// The first `rows_per_form` rows of each form (each form's first two are its
/// parameters' low and high ends); all of them where GEOBEM_FULL_BATTERY is set.
inline std::vector<BatteryRow> load_expression_battery(int rows_per_form) {
  if (std::getenv("GEOBEM_FULL_BATTERY")) rows_per_form = 1 << 30;
  const std::string path = std::string(GEOBEM_SOURCE_DIR) + "/tests/expression/expression_battery.csv";
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::string line;
  std::getline(in, line);
  std::map<int, int> taken;
  std::vector<BatteryRow> rows;
  while (std::getline(in, line)) {
    std::vector<std::string> cell;
    std::stringstream fields(line);
    for (std::string field; std::getline(fields, field, ',');) cell.push_back(field);
    if (cell.size() != 11) throw std::runtime_error(path + ": a row without 11 fields: " + line);
    BatteryRow row;
    row.form = std::stoi(cell[0]);
    row.method = cell[1];
    row.expression = cell[2];
    row.oscillation = cell[3];
    double* numbers[] = {&row.lower, &row.upper, &row.a, &row.b, &row.c, &row.w, &row.reference};
    for (int k = 0; k < 7; ++k) *numbers[k] = cell[4 + k] == "inf" ? HUGE_VAL : std::stod(cell[4 + k]);
    if (taken[row.form]++ < rows_per_form) rows.push_back(row);
  }
  return rows;
}

inline double battery_parameter(const BatteryRow& row, const std::string& name) {
  if (name == "a") return row.a;
  if (name == "b") return row.b;
  if (name == "c") return row.c;
  if (name == "w") return row.w;
  throw std::runtime_error("battery: unknown parameter " + name);
}

/// Runs `rows` (one form, all of one method and expression) as one batch.
inline std::vector<BatteryOutcome> run_battery_form(const std::vector<BatteryRow>& rows, double rel_tol,
                                                    ComputeDevice device) {
  namespace ex = geobem::expression;
  const ex::Expression f = ex::parse_expression(rows[0].expression, {"x"}, {{"a", "b", "c", "w"}, "a column"});
  std::vector<double> table;
  std::vector<BatteryOutcome> outcomes(rows.size());
  if (rows[0].method == "longman") {
    for (const BatteryRow& row : rows) {
      table.insert(table.end(), {row.w, 0.0});
      for (const std::string& name : f.parameters) table.push_back(battery_parameter(row, name));
    }
    transform::LongmanOptions options;
    options.accelerator = transform::Accelerator::Epsilon;  // the stage's default
    options.relative_tolerance = rel_tol;
    const auto results = ex::integrate_longman_expression(f, ex::parse_oscillation(rows[0].oscillation + ":w").kind,
                                                          table, rows.size(), options, 16, device);
    for (std::size_t i = 0; i < rows.size(); ++i) outcomes[i] = {results[i].value, results[i].error, results[i].status};
  } else {
    for (const BatteryRow& row : rows) {
      table.insert(table.end(), {row.lower, row.upper});
      for (const std::string& name : f.parameters) table.push_back(battery_parameter(row, name));
    }
    quadrature::Adaptive1DOptions options;  // the stage's defaults but the tolerance
    options.rel_tol = rel_tol;
    const auto results = ex::integrate_adaptive_expression(f, table, rows.size(), options, device);
    for (std::size_t i = 0; i < rows.size(); ++i)
      outcomes[i] = {results[i].estimate, results[i].error, results[i].status};
  }
  return outcomes;
}

/// The battery's rows grouped by form, in table order.
inline std::vector<std::vector<BatteryRow>> battery_forms(const std::vector<BatteryRow>& rows) {
  std::vector<std::vector<BatteryRow>> forms;
  for (const BatteryRow& row : rows) {
    if (forms.empty() || forms.back()[0].form != row.form) forms.emplace_back();
    forms.back().push_back(row);
  }
  return forms;
}

}  // namespace geobem::test

// Longman's method, adaptive 1D quadrature and the two-phase cubature
// (gpu/transform, gpu/quadrature, gpu/expression) for the Python layer: a
// built-in family or an expression, one integral per row of a parameter
// table given as named columns, checked row by row with the stage's checks.
// Each function returns (rows, statuses): rows value, error, evaluations and
// the method's count (areas, blocks or regions), one column per integral.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <tuple>

#include "gpu/core/input_error.hpp"
#include "gpu/core/integration_status.hpp"
#include "gpu/expression/expression_integrate.hpp"
#include "gpu/quadrature/adaptive_1d.hpp"
#include "gpu/quadrature/cubature.hpp"
#include "gpu/quadrature/cubature_integrands.hpp"
#include "gpu/transform/transform.hpp"
#include "python/src/bindings.hpp"

namespace geobem::python {
namespace {

namespace ex = expression;
namespace q = quadrature;
namespace tf = transform;

/// The `parameters` mapping of the Python call: its keys and their values,
/// one row per integral.
struct Columns {
  std::vector<std::string> names;
  const double* values;  ///< rows × names.size(), C order
  std::size_t rows;

  /// rows × wanted.size() values of the named columns; InputError::usage naming a missing one.
  std::vector<double> gather(const std::vector<std::string>& wanted) const {
    std::vector<std::size_t> index;
    for (const auto& name : wanted) {
      const auto found = std::find(names.begin(), names.end(), name);
      if (found == names.end())
        throw InputError::usage("parameters has no '" + name + "' (needed: " + joined(wanted) + ")");
      index.push_back(static_cast<std::size_t>(found - names.begin()));
    }
    std::vector<double> gathered;
    gathered.reserve(rows * wanted.size());
    for (std::size_t i = 0; i < rows; ++i)
      for (const std::size_t c : index) gathered.push_back(values[i * names.size() + c]);
    return gathered;
  }
  ex::ParameterSource source() const { return {names, "a key of parameters"}; }
  static std::string joined(const std::vector<std::string>& list) {
    std::string text;
    for (const auto& item : list) text += (text.empty() ? "" : ", ") + item;
    return text.empty() ? "none" : text;
  }
};

Columns columns_of(const std::vector<std::string>& names, const HostMatrix& table) {
  if (table.shape(1) != names.size())
    throw InputError("parameters: " + std::to_string(names.size()) + " names for " +
                     std::to_string(table.shape(1)) + " columns");
  return {names, table.data(), table.shape(0)};
}

/// "row I: PROBLEM" for a failed row check; nothing when `problem` is empty.
void refuse_row(std::size_t row, const std::string& problem) {
  if (!problem.empty()) throw InputError::usage("row " + std::to_string(row) + ": " + problem);
}

using Integrals = std::tuple<NumpyRows, std::vector<std::string>>;

/// Rows value, error, evaluations, count of the results, and their status words.
template <typename Result, typename Value, typename Count>
Integrals integrals(const std::vector<Result>& results, Value value, Count count) {
  const std::size_t n = results.size();
  std::vector<double> rows(4 * n);
  std::vector<std::string> statuses;
  for (std::size_t i = 0; i < n; ++i) {
    rows[i] = value(results[i]);
    rows[n + i] = results[i].error;
    rows[2 * n + i] = static_cast<double>(results[i].evaluations);
    rows[3 * n + i] = static_cast<double>(count(results[i]));
    statuses.push_back(to_string(results[i].status));
  }
  return {numpy_rows(std::move(rows), 4, n), statuses};
}

Integrals longman(const std::optional<std::string>& family, const std::optional<std::string>& expression,
                  const std::optional<std::string>& oscillation, const std::optional<std::string>& decay_rate,
                  const std::vector<std::string>& names, const HostMatrix& table, double rel_tol, double abs_tol,
                  const std::string& accelerator, int min_areas, int max_areas, int quadrature_order,
                  const std::string& device, bool progress) {
  if (family.has_value() == expression.has_value())
    throw InputError::usage("give either family or expression (with oscillation)");
  if (expression && !oscillation)
    throw InputError::usage("expression needs oscillation='KIND:PARAMETER' (the oscillating factor)");
  if (!expression && (oscillation || decay_rate))
    throw InputError::usage("oscillation and decay_rate go with expression");
  tf::LongmanOptions settings;
  settings.accelerator = tf::parse_accelerator(accelerator);
  settings.relative_tolerance = rel_tol;
  settings.absolute_tolerance = abs_tol;
  settings.min_areas = std::min(min_areas, max_areas);
  settings.max_areas = max_areas;
  tf::validate_options(settings);
  tf::make_gauss_rule(quadrature_order);
  const Columns columns = columns_of(names, table);
  std::vector<tf::LongmanResult> results;
  if (family) {
    const tf::TransformFamily parsed = tf::parse_transform_family(*family);
    const auto& wanted = tf::describe(parsed).parameters;
    const std::vector<double> rows = columns.gather(wanted);
    for (std::size_t i = 0; i < columns.rows; ++i) refuse_row(i, tf::check_parameters(parsed, &rows[i * wanted.size()]));
    nb::gil_scoped_release release;
    results = tf::integrate_family(parsed, rows, columns.rows, settings, quadrature_order, compute_device(device),
                                   !progress);
  } else {
    const ex::Oscillation factor = ex::parse_oscillation(*oscillation);
    const ex::Expression rest = ex::parse_expression(*expression, {"x"}, columns.source());
    std::vector<std::string> wanted{factor.parameter};
    if (decay_rate) wanted.push_back(*decay_rate);
    wanted.insert(wanted.end(), rest.parameters.begin(), rest.parameters.end());
    std::vector<double> rows = columns.gather(wanted);
    if (!decay_rate) {  // the library's rows carry a decay rate column: 0, none
      std::vector<double> with_rate;
      const std::size_t width = wanted.size();
      for (std::size_t i = 0; i < columns.rows; ++i) {
        with_rate.push_back(rows[i * width]);
        with_rate.push_back(0.0);
        with_rate.insert(with_rate.end(), rows.begin() + i * width + 1, rows.begin() + (i + 1) * width);
      }
      rows.swap(with_rate);
    }
    const std::size_t stride = 2 + rest.parameters.size();
    for (std::size_t i = 0; i < columns.rows; ++i) refuse_row(i, ex::check_longman_row(rest, &rows[i * stride]));
    nb::gil_scoped_release release;
    results = ex::integrate_longman_expression(rest, factor.kind, rows, columns.rows, settings, quadrature_order,
                                               compute_device(device), !progress);
  }
  return integrals(
      results, [](const tf::LongmanResult& r) { return r.value; }, [](const tf::LongmanResult& r) { return r.areas; });
}

q::Adaptive1DOptions adaptive_options(double rel_tol, double abs_tol, double max_evals, int alpha, int beta,
                                      const std::string& expansion, bool progress) {
  q::Adaptive1DOptions settings;
  settings.rel_tol = rel_tol;
  settings.abs_tol = abs_tol;
  settings.alpha = alpha;
  settings.beta = beta;
  settings.expansion = q::parse_expansion_rule(expansion);
  if (!(max_evals >= 1.0 && max_evals < 1.8e19))
    throw InputError::usage("max_evals " + std::to_string(max_evals) + " out of range");
  settings.max_evaluations = static_cast<std::uint64_t>(max_evals);
  settings.quiet = !progress;
  q::check_adaptive_1d_options(settings);
  return settings;
}

/// Columns `lower`, `upper` and the parameters; a family's p0, p1, p2 where given (its defaults elsewhere).
Integrals adaptive(const std::optional<std::string>& integrand, const std::optional<std::string>& expression,
                   const std::vector<std::string>& names, const HostMatrix& table, bool single, double rel_tol,
                   double abs_tol, double max_evals, int alpha, int beta, const std::string& expansion,
                   const std::string& device, bool progress) {
  if (integrand.has_value() == expression.has_value()) throw InputError::usage("give either integrand or expression");
  const auto settings = adaptive_options(rel_tol, abs_tol, max_evals, alpha, beta, expansion, progress);
  const Columns columns = columns_of(names, table);
  const auto estimate = [](const q::Adaptive1DResult& r) { return r.estimate; };
  const auto blocks = [](const q::Adaptive1DResult& r) { return r.blocks; };
  if (expression) {
    const ex::Expression f = ex::parse_expression(*expression, {"x"}, columns.source());
    std::vector<std::string> wanted{"lower", "upper"};
    wanted.insert(wanted.end(), f.parameters.begin(), f.parameters.end());
    const std::vector<double> rows = columns.gather(wanted);
    for (std::size_t i = 0; i < columns.rows; ++i) refuse_row(i, ex::check_adaptive_row(f, &rows[i * wanted.size()]));
    std::vector<q::Adaptive1DResult> results;
    {
      nb::gil_scoped_release release;
      results = ex::integrate_adaptive_expression(f, rows, columns.rows, settings, compute_device(device));
    }
    return integrals(results, estimate, blocks);
  }
  const q::Integrand1D base = q::table2_integrand(q::parse_integrand_1d_family(*integrand));
  const std::vector<double> limits = columns.gather({"lower", "upper"});
  std::vector<q::Problem1D> problems;
  for (std::size_t i = 0; i < columns.rows; ++i) {
    q::Problem1D problem{base, limits[2 * i], limits[2 * i + 1]};
    for (int k = 0; k < 3; ++k) {
      const std::string name = "p" + std::to_string(k);
      const auto found = std::find(names.begin(), names.end(), name);
      if (found != names.end()) problem.integrand.p[k] = columns.values[i * names.size() + (found - names.begin())];
    }
    q::check_problem_1d(problem, "row " + std::to_string(i) + ": ");
    problems.push_back(problem);
  }
  std::vector<q::Adaptive1DResult> results;
  {
    nb::gil_scoped_release release;
    if (single && problems.size() == 1)
      results = {q::integrate_adaptive_1d(problems[0].integrand, problems[0].lower, problems[0].upper, settings,
                                          compute_device(device))};
    else
      results = q::integrate_adaptive_1d_batch(problems, settings, compute_device(device));
  }
  return integrals(results, estimate, blocks);
}

Integrals cubature(const std::optional<std::string>& integrand, const std::optional<std::string>& expression,
                   int dim, const std::vector<std::string>& names, const HostMatrix& table,
                   const std::optional<std::vector<double>>& lower, const std::optional<std::vector<double>>& upper,
                   double genz_a, double genz_u, double rel_tol, double abs_tol, double max_evals,
                   long long min_regions, const std::string& device, bool progress) {
  if (integrand.has_value() == expression.has_value()) throw InputError::usage("give either integrand or expression");
  if (integrand && table.shape(1) > 0) throw InputError::usage("parameters go with expression");
  q::CubatureOptions settings;
  settings.dim = dim;
  settings.rel_tol = rel_tol;
  settings.abs_tol = abs_tol;
  if (!(max_evals >= 1.0 && max_evals < 1.8e19))
    throw InputError::usage("max_evals " + std::to_string(max_evals) + " out of range");
  settings.max_evaluations = static_cast<std::uint64_t>(max_evals);
  if (min_regions < 1) throw InputError::usage("min_regions must be >= 1");
  settings.min_regions = static_cast<std::size_t>(min_regions);
  if (lower.has_value() != upper.has_value()) throw InputError::usage("give both lower and upper");
  if (lower) {
    if (lower->size() != static_cast<std::size_t>(dim) || upper->size() != static_cast<std::size_t>(dim))
      throw InputError::usage("lower and upper need dim = " + std::to_string(dim) + " values each");
    settings.lower = *lower;
    settings.upper = *upper;
  }
  settings.quiet = !progress;
  q::check_cubature_options(settings);
  const auto estimate = [](const q::CubatureResult& r) { return r.estimate; };
  const auto regions = [](const q::CubatureResult& r) { return r.regions; };
  if (expression) {
    const Columns columns = columns_of(names, table);
    const ex::Expression f = ex::parse_expression(*expression, ex::numbered_variables(dim), columns.source());
    const std::vector<double> parameters = columns.gather(f.parameters);
    for (std::size_t i = 0; i < columns.rows; ++i)
      refuse_row(i, ex::check_parameter_row(f, &parameters[i * f.parameters.size()]));
    std::vector<q::CubatureResult> results;
    {
      nb::gil_scoped_release release;
      results = ex::integrate_cubature_expression(f, parameters, columns.rows, settings, compute_device(device));
    }
    return integrals(results, estimate, regions);
  }
  const q::CubatureIntegrand f = q::make_cubature_integrand(q::parse_cubature_family(*integrand), dim, genz_a, genz_u);
  std::vector<q::CubatureResult> results;
  {
    nb::gil_scoped_release release;
    results = {q::integrate_cubature(f, settings, compute_device(device))};
  }
  return integrals(results, estimate, regions);
}

}  // namespace

void bind_integrators(nb::module_& m) {
  m.def("longman", &longman, nb::arg("family").none(), nb::arg("expression").none(), nb::arg("oscillation").none(),
        nb::arg("decay_rate").none(), nb::arg("names"), nb::arg("table"), nb::arg("rel_tol"), nb::arg("abs_tol"),
        nb::arg("accelerator"), nb::arg("min_areas"), nb::arg("max_areas"), nb::arg("quadrature_order"),
        nb::arg("device"), nb::arg("progress"));
  m.def("adaptive", &adaptive, nb::arg("integrand").none(), nb::arg("expression").none(), nb::arg("names"),
        nb::arg("table"), nb::arg("single"), nb::arg("rel_tol"), nb::arg("abs_tol"), nb::arg("max_evals"),
        nb::arg("alpha"), nb::arg("beta"), nb::arg("expansion"), nb::arg("device"), nb::arg("progress"));
  m.def("cubature", &cubature, nb::arg("integrand").none(), nb::arg("expression").none(), nb::arg("dim"),
        nb::arg("names"), nb::arg("table"), nb::arg("lower").none(), nb::arg("upper").none(), nb::arg("genz_a"),
        nb::arg("genz_u"), nb::arg("rel_tol"), nb::arg("abs_tol"), nb::arg("max_evals"), nb::arg("min_regions"),
        nb::arg("device"), nb::arg("progress"));
  m.def("longman_family_parameters",
        [](const std::string& family) { return tf::describe(tf::parse_transform_family(family)).parameters; },
        nb::arg("family"));
}

}  // namespace geobem::python

// OpenMP loop over receivers of the representation-formula point kernel
// (receiver_field.hpp); each thread owns its receivers' values.
#include <stdexcept>
#include <string>

#include "gpu/bem/receiver_field.hpp"
#include "gpu/core/input_error.hpp"

namespace geobem::bem {

namespace {

void check_boundary_solution(const BemModel& model, const LaplaceSolution& boundary) {
  if (boundary.unknowns != model.unknown_count() || boundary.load_cases != model.load_case_count() ||
      boundary.values.size() != static_cast<std::size_t>(boundary.load_cases) * boundary.frequencies.size() *
                                    static_cast<std::size_t>(boundary.unknowns))
    throw InputError("receivers: the boundary solution has " + std::to_string(boundary.unknowns) +
                     " unknowns and " + std::to_string(boundary.load_cases) + " load cases, the model " +
                     std::to_string(model.unknown_count()) + " and " +
                     std::to_string(model.load_case_count()));
}

/// The CPU path of receiver_laplace: receivers and frequencies over OpenMP threads.
template <class Solution>
LaplaceSolution receiver_laplace_cpu(const BemModel& model, const std::vector<Vec3>& receivers,
                                     const CqSettings& settings, const LaplaceSolution& boundary) {
  const ModelView mv = model.view();
  static const QuadratureTable table = make_quadrature_table();
  LaplaceSolution field = zero_receiver_field(receivers.size(), boundary);
  const int frequencies = static_cast<int>(boundary.frequencies.size());
  const int count = static_cast<int>(receivers.size());
#pragma omp parallel for schedule(dynamic, 1) collapse(2)
  for (int r = 0; r < count; ++r)
    for (int k = 0; k < frequencies; ++k) {
      const Complex s = cq_laplace_point(settings, boundary.frequencies[k]);
      for (int e = 0; e < mv.element_count; ++e) {
        DynamicIntegrand<Solution> integrand;
        if (!integrate_receiver_element(mv, receivers[r], e, s, table, integrand)) continue;
        for (int c = 0; c < field.load_cases; ++c)
          add_receiver_element(mv, e, c, &boundary.at(c, k, 0), integrand, &field.at(c, k, 3 * r));
      }
    }
  return field;
}

}  // namespace

template <class Solution>
LaplaceSolution receiver_laplace(const BemModel& model, const std::vector<Vec3>& receivers,
                                 const CqSettings& settings, const LaplaceSolution& boundary,
                                 const CqOptions& options) {
  check_cq_settings(settings);
  check_boundary_solution(model, boundary);
  return run_on(
      options.device, "receivers of the CQ-BEM",
      [&] { return receiver_laplace_cuda<Solution>(model, receivers, settings, boundary); },
      [&] { return receiver_laplace_cpu<Solution>(model, receivers, settings, boundary); });
}

template LaplaceSolution receiver_laplace<ElastodynamicFullSpace>(const BemModel&, const std::vector<Vec3>&,
                                                                  const CqSettings&, const LaplaceSolution&,
                                                                  const CqOptions&);

}  // namespace geobem::bem

// The hierarchical path's plan, choice and CPU driver (hierarchical_solver.hpp).
#include "gpu/bem/hierarchical/hierarchical_solver.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "gpu/bem/hierarchical/block_jacobi.hpp"
#include "gpu/bem/hierarchical/gmres.hpp"
#include "gpu/bem/hierarchical/hierarchical_assembly.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/core/resource_error.hpp"
#include "gpu/core/seconds_since.hpp"

/// OpenBLAS's thread count.
extern "C" void openblas_set_num_threads(int threads);
extern "C" int openblas_get_num_threads();

namespace geobem::bem {

using namespace hierarchical;

double estimated_rank(int rows, int columns, double tolerance) {
  const double dense_rank = double(rows) * columns / std::max(1, rows + columns);
  return std::min(3.0 * std::log10(1.0 / tolerance), dense_rank);
}

HierarchicalMemoryPlan plan_hierarchical_memory(const HierarchicalLayout& layout, int load_cases, double tolerance) {
  HierarchicalMemoryPlan plan;
  plan.near_field = layout.near_field_bytes();
  double low_rank = 0.0;
  for (int b : layout.admissible_blocks) {
    const LayoutBlock& block = layout.blocks[b];
    low_rank += 16.0 * (block.rows + block.columns) * std::ceil(estimated_rank(block.rows, block.columns, tolerance));
  }
  plan.low_rank = static_cast<std::uint64_t>(low_rank);
  const std::uint64_t n = 3 * layout.rows.order.size();
  // GMRES: restart + 1 basis vectors and four more; right-hand sides and x̂ per case.
  plan.workspace = BlockJacobi::planned_bytes(layout) + 16 * n * (gmres_restart + 5) + 32 * n * load_cases;
  return plan;
}

HierarchicalMemoryPlan plan_hierarchical_memory(const BemModel& model, const HierarchicalSettings& settings) {
  return plan_hierarchical_memory(make_hierarchical_layout(model, settings), model.load_case_count(),
                                  settings.tolerance);
}

void require_hierarchical_plan_fits(const HierarchicalMemoryPlan& plan, std::uint64_t available_bytes,
                                    const char* where) {
  if (plan.total() <= available_bytes) return;
  char text[512];
  std::snprintf(text, sizeof text,
                "the hierarchical BEM system needs %.4g GB per frequency (near field %.4g GB, low-rank blocks about "
                "%.4g GB, preconditioner and GMRES %.4g GB), but %s has %.4g GB available: use a coarser mesh or a "
                "larger --compression-tolerance",
                plan.total() / 1e9, plan.near_field / 1e9, plan.low_rank / 1e9, plan.workspace / 1e9, where,
                available_bytes / 1e9);
  throw ResourceError(text);
}

double little_damped_share(const BemModel& model, const CqSettings& settings, double tolerance) {
  if (model.nodes.empty()) return 0.0;
  Vec3 low = model.nodes.front(), high = low;
  for (const Vec3& x : model.nodes) {
    low = {std::min(low.x, x.x), std::min(low.y, x.y), std::min(low.z, x.z)};
    high = {std::max(high.x, x.x), std::max(high.y, x.y), std::max(high.z, x.z)};
  }
  const double diameter = norm(high - low), limit = std::log(1.0 / tolerance);
  const int frequencies = cq_frequency_count(settings);
  int little = 0;
  for (int l = 0; l < frequencies; ++l)
    if (cq_laplace_point(settings, l).re * diameter / model.material.p_wave_speed < limit) ++little;
  return double(little) / frequencies;
}

int hierarchical_from_unknowns(ComputeDevice device, double little_damped_share) {
  const int damped = device == ComputeDevice::Cuda ? hierarchical_from_unknowns_cuda : hierarchical_from_unknowns_cpu;
  return static_cast<int>(std::ceil(damped * std::pow(1.0 + little_damped_cost * little_damped_share, 1.0 / 1.14)));
}

BemSolver choose_bem_solver(BemSolver choice, ComputeDevice device, int unknowns, double little_damped_share) {
  if (choice != BemSolver::automatic) return choice;
  return unknowns >= hierarchical_from_unknowns(device, little_damped_share) ? BemSolver::hierarchical
                                                                             : BemSolver::dense;
}

BemSolver parse_bem_solver(const std::string& text) {
  if (text == "dense") return BemSolver::dense;
  if (text == "hierarchical") return BemSolver::hierarchical;
  if (text == "auto") return BemSolver::automatic;
  throw InputError::usage("--solver '" + text + "': expected dense, hierarchical or auto");
}

std::string to_string(BemSolver solver) {
  return solver == BemSolver::dense ? "dense" : solver == BemSolver::hierarchical ? "hierarchical" : "auto";
}

void check_compression_tolerance(double tolerance) {
  if (!(tolerance > 0.0 && tolerance <= 0.1)) {
    char text[96];
    std::snprintf(text, sizeof text, "--compression-tolerance %.6g: must lie in (0, 0.1]", tolerance);
    throw InputError::usage(text);
  }
}

template <class Solution>
void solve_laplace_hierarchical_cpu(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                    LaplaceSolution& solution, CqTimings& timings) {
  const std::vector<int>& frequencies = solution.frequencies;
  const int n = model.unknown_count(), cases = model.load_case_count();

  auto start = std::chrono::steady_clock::now();
  const HierarchicalLayout layout = make_hierarchical_layout(model, options.hierarchical);
  const FreeTerms free_terms = free_terms_in_tree_order(model, layout, rigid_body_sums_cpu<Solution>(model));
  timings.assembly_seconds += seconds_since(start);
  const double tolerance = options.hierarchical.tolerance, w = layout.traction_scale;
  ProgressReporter progress("geobem-bem: CQ frequencies (compress + GMRES)", static_cast<long>(frequencies.size()),
                            "frequencies", options.quiet);
  std::vector<std::vector<Complex>> rhs;
  std::vector<Complex> x(n);
  const int blas_threads = openblas_get_num_threads();
  for (std::size_t k = 0; k < frequencies.size(); ++k) {
    const int l = frequencies[k];
    start = std::chrono::steady_clock::now();
    const CompressedOperator op =
        assemble_compressed_cpu<Solution>(model, layout, free_terms, cq_laplace_point(settings, l), tolerance, rhs);
    const BlockJacobi preconditioner(op);
    timings.assembly_seconds += seconds_since(start);
    timings.note_compressed_system(
        {op.report.near_bytes, op.report.low_rank_bytes, op.report.dense_admissible_bytes, preconditioner.bytes()});
    start = std::chrono::steady_clock::now();
    FrequencySolve& solve = solution.solves[k];
    solve.compression_error = op.report.error_estimate;
    for (int c = 0; c < cases; ++c) {
      if (n < parallel_from_unknowns) openblas_set_num_threads(1);
      const GmresResult result = gmres(
          HostVectors(n), [&](const Complex* in, Complex* out) { op.apply(in, out); },
          [&](const Complex* in, Complex* out) { preconditioner.apply(in, out); }, rhs[c].data(), x.data(), tolerance,
          gmres_restart, gmres_max_iterations);
      openblas_set_num_threads(blas_threads);
      if (!result.converged) {
        char text[256];
        std::snprintf(text, sizeof text,
                      "CQ frequency %d: GMRES reached a relative residual of %.3g after %d steps, not the compression "
                      "tolerance %.3g: use --solver dense or a larger --compression-tolerance",
                      l, result.relative_residual, result.iterations, tolerance);
        throw std::runtime_error(text);
      }
      solve.iterations = std::max(solve.iterations, result.iterations);
      solve.residual = std::max(solve.residual, result.relative_residual);
      // Tree order and scaled tractions back to the model's unknowns.
      for (int position = 0; position < n / 3; ++position) {
        const int block = layout.rows.order[position];
        const double scale = block < static_cast<int>(model.free_nodes.size()) ? 1.0 : w;
        for (int i = 0; i < 3; ++i) solution.at(c, static_cast<int>(k), 3 * block + i) = scale * x[3 * position + i];
      }
    }
    timings.solve_seconds += seconds_since(start);
    progress.advance(1);
  }
  progress.finish();
}

template void solve_laplace_hierarchical_cpu<ElastodynamicFullSpace>(const BemModel&, const CqSettings&,
                                                                     const CqOptions&, LaplaceSolution&, CqTimings&);

}  // namespace geobem::bem

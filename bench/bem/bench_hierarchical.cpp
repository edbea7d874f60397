// The hierarchical CQ-BEM beside the dense one on the pressurized cavity
// (tests/bem/cavity_case.hpp) read from a .vtu of
// `geobem-mesh --config workflows/cavity-pressure/mesh.ini --element-size H`:
//   bench_hierarchical compare MESH.vtu DT STEPS EPS [l,l,...]
//       per CQ frequency (all, or those listed) of N = STEPS steps of DT
//       seconds: the compressed operator's estimated and measured relative
//       Frobenius error against the dense matrix, GMRES's steps, and x̂
//       against the dense solution (CPU; the dense system must fit)
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/hierarchical/block_jacobi.hpp"
#include "gpu/bem/hierarchical/error_budget.hpp"
#include "gpu/bem/hierarchical/gmres.hpp"
#include "gpu/bem/hierarchical/hierarchical_assembly.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"
#include "gpu/bem/hierarchical/hierarchical_solver.hpp"
#include "gpu/core/seconds_since.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "tests/bem/cavity_case.hpp"
#include "tests/bem/rod_case.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::bem::hierarchical;
using geobem::seconds_since;

std::vector<int> parse_list(const char* text) {
  std::vector<int> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) out.push_back(std::atoi(item.c_str()));
  return out;
}

int compare(const BemModel& model, const CqSettings& settings, double tolerance, std::vector<int> list) {
  if (list.empty())
    for (int l = 0; l < cq_frequency_count(settings); ++l) list.push_back(l);
  auto start = std::chrono::steady_clock::now();
  const HierarchicalLayout layout = make_hierarchical_layout(model, HierarchicalSettings{});
  const std::vector<double> sums = rigid_body_sums_cpu(model);
  const FreeTerms free_terms = free_terms_in_tree_order(model, layout, sums);
  const double setup = seconds_since(start);
  const int n = model.unknown_count(), blocks = n / 3, free = static_cast<int>(model.free_nodes.size());
  std::printf("# %zu triangles, %d unknowns, %zu leaves (%zu admissible), near field %.4g MB, setup %.3f s\n",
              model.areas.size(), n, layout.blocks.size(), layout.admissible_blocks.size(),
              layout.near_field_bytes() / 1e6, setup);
  std::printf("l,s_re_dt,s_im_dt,dropped,low_rank,dense_admissible,mean_rank,largest_rank,near_mb,low_rank_mb,"
              "dense_mb,error_estimate,error_measured,iterations,residual,xhat_difference,compress_s,gmres_s,"
              "dense_assembly_s,dense_solve_s\n");
  for (int l : list) {
    const Complex s = cq_laplace_point(settings, l);
    std::vector<std::vector<Complex>> rhs;
    start = std::chrono::steady_clock::now();
    const CompressedOperator op = assemble_compressed_cpu(model, layout, free_terms, s, tolerance, rhs);
    const BlockJacobi preconditioner(op);
    const double compress = seconds_since(start);
    std::vector<Complex> x(n);
    start = std::chrono::steady_clock::now();
    const GmresResult result = gmres(
        HostVectors(n), [&](const Complex* in, Complex* out) { op.apply(in, out); },
        [&](const Complex* in, Complex* out) { preconditioner.apply(in, out); }, rhs[0].data(), x.data(), tolerance,
        gmres_restart, gmres_max_iterations);
    const double gmres_seconds = seconds_since(start);
    // The dense system, permuted to tree order with the tractions scaled.
    start = std::chrono::steady_clock::now();
    std::vector<Complex> matrix, b;
    assemble_system_cpu(model, sums, s, matrix, b);
    const double dense_assembly = seconds_since(start);
    const std::vector<Complex> compressed = op.expand();
    double difference = 0.0, reference = 0.0;
    for (int j = 0; j < n; ++j) {
      const int block_j = layout.rows.order[j / 3];
      const double scale = block_j < free ? 1.0 : layout.traction_scale;
      for (int i = 0; i < n; ++i) {
        const Complex a = scale * matrix[3 * layout.rows.order[i / 3] + i % 3 + (3 * block_j + j % 3) * std::size_t(n)];
        const Complex d = a - compressed[i + std::size_t(j) * n];
        difference += d.re * d.re + d.im * d.im;
        reference += a.re * a.re + a.im * a.im;
      }
    }
    CqTimings timings;
    start = std::chrono::steady_clock::now();
    const LaplaceSolution dense = solve_laplace(model, settings, {l}, {geobem::ComputeDevice::Cpu, true}, timings);
    const double dense_solve = seconds_since(start) - timings.assembly_seconds;
    double x_difference = 0.0, x_norm = 0.0;
    for (int p = 0; p < blocks; ++p) {
      const int block = layout.rows.order[p];
      const double scale = block < free ? 1.0 : 1.0 / layout.traction_scale;
      for (int i = 0; i < 3; ++i) {
        const Complex reference_value = scale * dense.at(0, 0, 3 * block + i);
        const Complex d = x[3 * p + i] - reference_value;
        x_difference += d.re * d.re + d.im * d.im;
        x_norm += reference_value.re * reference_value.re + reference_value.im * reference_value.im;
      }
    }
    const CompressionReport& r = op.report;
    std::printf("%d,%.4f,%.4f,%d,%d,%d,%.1f,%d,%.4g,%.4g,%.4g,%.3g,%.3g,%d,%.3g,%.3g,%.3f,%.3f,%.3f,%.3f\n", l,
                s.re * settings.time_step, s.im * settings.time_step, r.dropped_blocks, r.low_rank_blocks,
                r.dense_admissible_blocks, r.mean_rank, r.largest_rank, r.near_bytes / 1e6, r.low_rank_bytes / 1e6,
                16.0 * n * n / 1e6, r.error_estimate, std::sqrt(difference / reference), result.iterations,
                result.relative_residual, std::sqrt(x_difference / x_norm), compress, gmres_seconds, dense_assembly,
                dense_solve);
    std::fflush(stdout);
  }
  return 0;
}

/// The layout of the mesh: leaves, the near field's bytes and pairs, the
/// plan; then per CQ frequency of DT, STEPS the leaves the damping drops and
/// the pairs of the dense leaves kept (the near field's work).
int layout_only(const BemModel& model, const CqSettings& settings) {
  auto start = std::chrono::steady_clock::now();
  const HierarchicalLayout layout = make_hierarchical_layout(model, HierarchicalSettings{});
  const double seconds = seconds_since(start);
  auto pairs_of = [&](const LayoutBlock& block) {
    return double(layout.rows.clusters[block.row_cluster].size()) * layout.elements.clusters[block.column_cluster].size();
  };
  double near_pairs = 0, admissible_pairs = 0;
  for (const LayoutBlock& block : layout.blocks) (block.admissible ? admissible_pairs : near_pairs) += pairs_of(block);
  const HierarchicalMemoryPlan plan = plan_hierarchical_memory(layout, 1, default_compression_tolerance);
  const double n = model.unknown_count();
  std::printf("# elements,unknowns,leaves,admissible,near_pairs,admissible_pairs,near_gb,planned_low_rank_gb,"
              "workspace_gb,dense_gb,layout_s\n# %zu,%d,%zu,%zu,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.3f\n",
              model.areas.size(), model.unknown_count(), layout.blocks.size(), layout.admissible_blocks.size(),
              near_pairs, admissible_pairs, plan.near_field / 1e9, plan.low_rank / 1e9, plan.workspace / 1e9,
              16 * n * n / 1e9, seconds);
  start = std::chrono::steady_clock::now();
  const FreeTerms free_terms = free_terms_in_tree_order(model, layout, rigid_body_sums_cpu(model));
  std::printf("# free terms %.3f s\nl,dropped_dense,dropped_admissible,kept_near_pairs,kept_admissible_pairs\n",
              seconds_since(start));
  for (int l = 0; l < cq_frequency_count(settings); ++l) {
    const DroppedLeaves drops =
        dropped_leaves<ElastodynamicFullSpace>(model, layout, cq_laplace_point(settings, l),
                                               default_compression_tolerance, free_terms.norm);
    int dropped_near = 0, dropped_admissible = 0;
    double kept_near = 0, kept_admissible = 0;
    for (std::size_t b = 0; b < layout.blocks.size(); ++b) {
      const LayoutBlock& block = layout.blocks[b];
      if (drops.dropped[b])
        ++(block.admissible ? dropped_admissible : dropped_near);
      else
        (block.admissible ? kept_admissible : kept_near) += pairs_of(block);
    }
    std::printf("%d,%d,%d,%.4g,%.4g\n", l, dropped_near, dropped_admissible, kept_near, kept_admissible);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "compare" && (argc == 6 || argc == 7)) {
    const BemModel model = geobem::test::cavity_model(geobem::surface::read_vtk_surface(argv[2]));
    const CqSettings settings{std::atoi(argv[4]), std::atof(argv[3])};
    return compare(model, settings, std::atof(argv[5]), argc == 7 ? parse_list(argv[6]) : std::vector<int>{});
  }
  if (mode == "layout" && argc == 5) {
    const BemModel model = geobem::test::cavity_model(geobem::surface::read_vtk_surface(argv[2]));
    return layout_only(model, CqSettings{std::atoi(argv[4]), std::atof(argv[3])});
  }
  if (mode == "compare-rod" && (argc == 6 || argc == 7)) {
    const BemModel model = geobem::test::rod_model(std::atof(argv[2]));
    const CqSettings settings = geobem::test::rod_settings(model, std::atof(argv[3]), std::atof(argv[4]));
    return compare(model, settings, std::atof(argv[5]), argc == 7 ? parse_list(argv[6]) : std::vector<int>{});
  }
  std::fprintf(stderr, "usage: bench_hierarchical compare MESH.vtu DT STEPS EPS [l,l,...] | "
                       "compare-rod H BETA PERIODS EPS [l,l,...]\n");
  return 2;
}

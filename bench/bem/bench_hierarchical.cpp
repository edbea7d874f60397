// The hierarchical CQ-BEM beside the dense one on the pressurized cavity
// (tests/bem/cavity_case.hpp) read from a .vtu of
// `geobem-mesh --config workflows/cavity-pressure/mesh.ini --element-size H`:
// DT, the CQ time step, is either seconds (the same on every mesh) or
// `beta=B`: per mesh Δt = B·h_min/c_P (cq_time_step_from_beta, h_min the
// smallest element, as bench_bem and geobem-laplace --beta), the refinement
// study's choice, which keeps the kernel's reach fixed in units of h.
//   bench_hierarchical compare MESH.vtu DT STEPS EPS [l,l,...]
//       per CQ frequency (all, or those listed) of N = STEPS steps of DT:
//       the compressed operator's estimated and measured relative Frobenius
//       error against the dense matrix, GMRES's steps, and x̂
//       against the dense solution, and the pair integrals the near field and
//       ACA evaluated (CPU; the dense system must fit)
//   bench_hierarchical compare-rod H BETA PERIODS EPS [l,l,...]
//       the same on the rod (tests/bem/rod_case.hpp) of element size H
//   bench_hierarchical layout MESH.vtu DT STEPS [drops]
//       the layout: leaves, near-field pairs and bytes, the memory plan; with
//       `drops`, per frequency the leaves the damping drops and the pairs kept
//       (the rigid-body sums on the CPU first: O(n²))
//   bench_hierarchical ranks MESH.vtu DT STEPS EPS l,l,... [ROW_LEAF ELEMENT_LEAF [ETA]]
//       per CQ frequency listed, the admissible leaves by size: ACA's ranks
//       against the memory plan's estimated_rank, the bytes of the factors
//       and of the leaves formed dense (ACA did not converge within
//       aca_rank_cap); then one `# total` line: the system by part (near
//       field kept, factors, admissible leaves formed dense), the seconds of
//       the compression and of one matvec (best of 5) (CPU; the tree's leaf
//       sizes and admissibility η as given, else HierarchicalSettings')
//   bench_hierarchical growth cpu|cuda DT STEPS dense|hierarchical|both[:ROW_LEAF,ELEMENT_LEAF[,ETA]] MESH.vtu...
//       per mesh and solver, through solve_laplace as geobem-laplace calls it
//       (the default settings, or the leaf sizes and η given): the time step
//       and its β, seconds of set-up, assembly (compression) and solve, per
//       frequency, GMRES's steps, the largest compressed system as stored
//       (and its parts: near field, low-rank factors, admissible leaves
//       formed dense, preconditioner), the device memory the run took
//       at its peak (CUDA; sampled every 5 ms), and with `both` the
//       hierarchical x̂ and wall series against the dense ones; one CSV line
//       each, for plot_growth.py
//   bench_hierarchical profile cpu|cuda MESH.vtu BETA DURATION EPS dense|hierarchical l,l,...
//       where one CQ frequency's time goes in the cavity's time-domain run
//       (Δt = BETA·h_min/c over DURATION a/c, as bench_bem cavity): per
//       frequency listed, one solve_laplace call: its Laplace point in c/a and
//       damping over the cavity's diameter Re(s)·2a/c, the seconds of the
//       assembly's phases (CUDA) and of the solve, ACA's leaves, those formed
//       dense, the mean and largest rank, GMRES's steps
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/hierarchical/block_jacobi.hpp"
#include "gpu/bem/hierarchical/error_budget.hpp"
#include "gpu/bem/hierarchical/gmres.hpp"
#include "gpu/bem/hierarchical/hierarchical_assembly.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"
#include "gpu/bem/hierarchical/hierarchical_solver.hpp"
#include "gpu/core/device.hpp"
#include "gpu/core/seconds_since.hpp"
#if GEOBEM_WITH_CUDA
#include <cuda_runtime_api.h>

#include "gpu/core/cuda_check.hpp"
#endif
#include "tests/bem/hierarchical_support.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "tests/bem/cavity_case.hpp"
#include "tests/bem/rod_case.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::bem::hierarchical;
using geobem::seconds_since;

/// The CQ time step as given on the command line: `DT` seconds, or `beta=B`
/// for Δt = B·h_min/c_P on each mesh (cq_time_step_from_beta).
class TimeStepChoice {
 public:
  explicit TimeStepChoice(const std::string& text) {
    const bool by_beta = text.rfind("beta=", 0) == 0;
    const std::string number = by_beta ? text.substr(5) : text;
    char* end = nullptr;
    const double value = std::strtod(number.c_str(), &end);
    if (number.empty() || *end != '\0' || !std::isfinite(value) || value <= 0.0)
      throw std::invalid_argument("time step '" + text +
                                  "' is neither seconds > 0 nor beta=B with B > 0");
    (by_beta ? beta_ : seconds_) = value;
  }
  /// Δt on `model` in seconds.
  double on(const BemModel& model) const {
    return beta_ > 0.0 ? cq_time_step_from_beta(beta_, model.smallest_element_size(), model.material.p_wave_speed)
                       : seconds_;
  }
  /// What the choice holds fixed across meshes, for a comment line.
  std::string describe() const {
    std::ostringstream out;
    if (beta_ > 0.0)
      out << "beta = " << beta_ << " on every mesh (dt = beta h_min / c_P per mesh)";
    else
      out << "dt = " << seconds_ << " s on every mesh";
    return out.str();
  }

 private:
  double seconds_ = 0.0, beta_ = 0.0;
};

/// β = c_P Δt / h_min of a time step on `model`.
double beta_of(const BemModel& model, double time_step) {
  return model.material.p_wave_speed * time_step / model.smallest_element_size();
}

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
              "dense_assembly_s,dense_solve_s,near_pairs,aca_pairs\n");
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
    std::printf("%d,%.4f,%.4f,%d,%d,%d,%.1f,%d,%.4g,%.4g,%.4g,%.3g,%.3g,%d,%.3g,%.3g,%.3f,%.3f,%.3f,%.3f,%llu,%llu\n", l,
                s.re * settings.time_step, s.im * settings.time_step, r.dropped_blocks, r.low_rank_blocks,
                r.dense_admissible_blocks, r.mean_rank, r.largest_rank, r.near_bytes / 1e6,
                (r.low_rank_bytes + r.dense_admissible_bytes) / 1e6,
                16.0 * n * n / 1e6, r.error_estimate, std::sqrt(difference / reference), result.iterations,
                result.relative_residual, std::sqrt(x_difference / x_norm), compress, gmres_seconds, dense_assembly,
                dense_solve, static_cast<unsigned long long>(r.near_pairs), static_cast<unsigned long long>(r.aca_pairs));
    std::fflush(stdout);
  }
  return 0;
}

/// The layout of the mesh: leaves, the near field's bytes and pairs, the
/// plan; then per CQ frequency of DT, STEPS the leaves the damping drops and
/// the pairs of the dense leaves kept (the near field's work).
int layout_only(const BemModel& model, const CqSettings& settings, bool drops_too) {
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
  if (!drops_too) return 0;
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

/// The device memory a run takes at its peak: the free memory sampled every
/// 5 ms on a thread of its own, against the free memory before (CUDA).
class PeakDeviceMemory {
 public:
  explicit PeakDeviceMemory(bool cuda) : cuda_(cuda) {
#if GEOBEM_WITH_CUDA
    if (!cuda_) return;
    std::size_t total = 0;
    GEOBEM_CUDA_CHECK(cudaMemGetInfo(&before_, &total));
    lowest_ = before_;
    sampler_ = std::thread([this] {
      while (!stop_) {
        std::size_t free_bytes = 0, total_bytes = 0;
        if (cudaMemGetInfo(&free_bytes, &total_bytes) == cudaSuccess) lowest_ = std::min<std::size_t>(lowest_, free_bytes);
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    });
#endif
  }
  ~PeakDeviceMemory() { finish(); }
  /// Stops sampling; the peak bytes taken (0 on the CPU).
  std::size_t finish() {
    if (sampler_.joinable()) {
      stop_ = true;
      sampler_.join();
    }
    return cuda_ ? before_ - lowest_ : 0;
  }

 private:
  bool cuda_;
  std::size_t before_ = 0;
  std::atomic<std::size_t> lowest_{0};
  std::atomic<bool> stop_{false};
  std::thread sampler_;
};

/// One line of the growth table: `solver` on `model` through solve_laplace.
LaplaceSolution growth_run(const BemModel& model, const CqSettings& settings, geobem::ComputeDevice device,
                           BemSolver solver, const HierarchicalSettings& hierarchical, const char* mesh) {
  CqOptions options(device, true);
  options.solver = solver;
  options.hierarchical = hierarchical;
  CqTimings timings;
  PeakDeviceMemory peak(device == geobem::ComputeDevice::Cuda);
  const auto start = std::chrono::steady_clock::now();
  LaplaceSolution solution = solve_laplace(model, settings, {}, options, timings);
  const double total = seconds_since(start);
  const std::size_t peak_bytes = peak.finish();
  int steps = 0, most = 0;
  for (const FrequencySolve& f : solution.solves) {
    steps += f.iterations;
    most = std::max(most, f.iterations);
  }
  const int frequencies = cq_frequency_count(settings);
  const CompressedSystemBytes& parts = timings.largest_compressed;
  std::printf("%s,%s,%s,%zu,%d,%d,%.4g,%.4g,%.3f,%.3f,%.3f,%.3f,%.4g,%.2f,%d,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g,%.4g",
              mesh, geobem::to_string(device).c_str(), to_string(solver).c_str(), model.areas.size(),
              model.unknown_count(), frequencies, settings.time_step, beta_of(model, settings.time_step),
              timings.setup_seconds, timings.assembly_seconds, timings.solve_seconds, total,
              (timings.assembly_seconds + timings.solve_seconds) / frequencies,
              solution.solves.empty() ? 0.0 : double(steps) / solution.solves.size(), most,
              solver == BemSolver::dense ? double(dense_system_bytes(model.unknown_count(), model.load_case_count()))
                                         : double(parts.total()),
              double(peak_bytes), double(timings.batch_frequencies), double(parts.near_field), double(parts.factors),
              double(parts.dense_admissible), double(parts.preconditioner));
  std::fflush(stdout);
  return solution;
}

int growth(geobem::ComputeDevice device, const TimeStepChoice& time_step, int steps, const std::string& solvers,
           const HierarchicalSettings& hierarchical, int count, char** meshes) {
  std::printf("# row leaf %d, element leaf %d, eta %g\n", hierarchical.row_leaf_size, hierarchical.element_leaf_size,
              hierarchical.eta);
  std::printf("# time step: %s, %d steps\n", time_step.describe().c_str(), steps);
  std::printf("mesh,device,solver,elements,unknowns,frequencies,time_step_s,beta,setup_s,assembly_s,solve_s,total_s,"
              "per_frequency_s,mean_gmres_steps,most_gmres_steps,system_bytes,peak_device_bytes,batch,"
              "near_field_bytes,factor_bytes,dense_admissible_bytes,preconditioner_bytes,xhat_difference,"
              "wall_series_difference\n");
  for (int k = 0; k < count; ++k) {
    const BemModel model = geobem::test::cavity_model(geobem::surface::read_vtk_surface(meshes[k]));
    const CqSettings settings{steps, time_step.on(model)};
    LaplaceSolution dense;
    if (solvers != "hierarchical") {
      dense = growth_run(model, settings, device, BemSolver::dense, hierarchical, meshes[k]);
      std::printf(",,\n");
    }
    if (solvers == "dense") continue;
    const LaplaceSolution compressed = growth_run(model, settings, device, BemSolver::hierarchical, hierarchical, meshes[k]);
    if (dense.values.empty()) {
      std::printf(",,\n");
      continue;
    }
    double largest = 0.0;
    for (std::size_t f = 0; f < dense.frequencies.size(); ++f)
      largest = std::max(largest, geobem::test::relative_solution_difference(model, compressed, dense, 0, static_cast<int>(f)));
    const std::vector<double> heaviside(settings.steps + 1, 1.0);
    const double series = geobem::test::relative_l2_difference(
        geobem::test::wall_mean_radial(model, cq_time_series(compressed, {heaviside}, settings), model.unknown_count()),
        geobem::test::wall_mean_radial(model, cq_time_series(dense, {heaviside}, settings), model.unknown_count()));
    std::printf(",%.3g,%.3g\n", largest, series);
  }
  return 0;
}

/// The ranks ACA reaches against the memory plan's estimate: per CQ
/// frequency listed, the admissible leaves by size (rows × columns, in
/// factors of 4), how many were kept low-rank, their mean and largest rank,
/// the plan's estimated_rank at the bucket's mean size, and the low-rank bytes
/// compressed against those planned at l (planned_low_rank_bytes; CPU).
int ranks(const BemModel& model, const CqSettings& settings, HierarchicalSettings hierarchical_settings,
          const std::vector<int>& list) {
  const double tolerance = hierarchical_settings.tolerance;
  std::printf("# row leaf %d, element leaf %d, eta %g\n", hierarchical_settings.row_leaf_size,
              hierarchical_settings.element_leaf_size, hierarchical_settings.eta);
  const HierarchicalLayout layout = make_hierarchical_layout(model, hierarchical_settings);
  const FreeTerms free_terms = free_terms_in_tree_order(model, layout, rigid_body_sums_cpu(model));
  std::printf("# planned low-rank GB before the damping's drops: %.4g\n",
              plan_hierarchical_memory(layout, model.load_case_count(), tolerance).low_rank / 1e9);
  std::printf("# near field GB: %.4g\n", layout.near_field_bytes() / 1e9);
  std::printf("# time step %.4g s, beta %.4g, %d steps\n", settings.time_step, beta_of(model, settings.time_step),
              settings.steps);
  std::printf("l,size_from,size_to,leaves,low_rank,dense,dropped,mean_rank,largest_rank,planned_rank,"
              "factors_gb,dense_formed_gb,low_rank_gb,planned_low_rank_gb,compress_s\n");
  for (int l : list) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::vector<Complex>> rhs;
    const CompressedOperator op =
        assemble_compressed_cpu(model, layout, free_terms, cq_laplace_point(settings, l), tolerance, rhs);
    const double seconds = seconds_since(start);
    const double planned = double(planned_low_rank_bytes<ElastodynamicFullSpace>(
        model, layout, {cq_laplace_point(settings, l)}, tolerance, free_terms.norm));
    struct Bucket {
      int leaves = 0, low_rank = 0, dense = 0, dropped = 0, largest = 0;
      double ranks = 0.0, sizes = 0.0, low_rank_bytes = 0.0, dense_bytes = 0.0;
    };
    std::vector<Bucket> buckets;
    for (std::size_t k = 0; k < layout.admissible_blocks.size(); ++k) {
      const LayoutBlock& block = layout.blocks[layout.admissible_blocks[k]];
      const double size = double(block.rows) * block.columns;
      const std::size_t b = static_cast<std::size_t>(std::log(size) / std::log(4.0));
      if (buckets.size() <= b) buckets.resize(b + 1);
      Bucket& bucket = buckets[b];
      ++bucket.leaves;
      bucket.sizes += size;
      if (op.form[k] == LeafForm::dropped) ++bucket.dropped;
      if (op.form[k] == LeafForm::dense) {
        ++bucket.dense;
        bucket.dense_bytes += 16.0 * size;
      }
      if (op.form[k] != LeafForm::low_rank) continue;
      ++bucket.low_rank;
      bucket.low_rank_bytes += 16.0 * (block.rows + block.columns) * op.rank[k];
      bucket.ranks += op.rank[k];
      bucket.largest = std::max(bucket.largest, op.rank[k]);
    }
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      const Bucket& bucket = buckets[b];
      if (bucket.leaves == 0) continue;
      const double mean_size = bucket.sizes / bucket.leaves;
      std::printf("%d,%.0f,%.0f,%d,%d,%d,%d,%.1f,%d,%.1f,%.4g,%.4g,%.4g,%.4g,%.2f\n", l, std::pow(4.0, double(b)),
                  std::pow(4.0, double(b + 1)), bucket.leaves, bucket.low_rank, bucket.dense, bucket.dropped,
                  bucket.low_rank ? bucket.ranks / bucket.low_rank : 0.0, bucket.largest,
                  estimated_rank(static_cast<int>(std::sqrt(mean_size)), static_cast<int>(std::sqrt(mean_size)), tolerance),
                  bucket.low_rank_bytes / 1e9, bucket.dense_bytes / 1e9,
                  (op.report.low_rank_bytes + op.report.dense_admissible_bytes) / 1e9, planned / 1e9,
                  seconds);
    }
    std::vector<Complex> x(op.size()), y(op.size());
    for (int i = 0; i < op.size(); ++i) x[i] = Complex{std::cos(0.1 * i), std::sin(0.37 * i)};
    double matvec = 1e300;
    for (int repeat = 0; repeat < 5; ++repeat) {
      const auto matvec_start = std::chrono::steady_clock::now();
      op.apply(x.data(), y.data());
      matvec = std::min(matvec, seconds_since(matvec_start));
    }
    std::printf("# total l=%d: near_gb %.4g factors_gb %.4g dense_formed_gb %.4g system_gb %.4g compress_s %.2f "
                "matvec_s %.4f error_estimate %.3g\n",
                l, op.report.near_bytes / 1e9, op.report.low_rank_bytes / 1e9, op.report.dense_admissible_bytes / 1e9,
                (op.report.near_bytes + op.report.low_rank_bytes + op.report.dense_admissible_bytes) / 1e9, seconds,
                matvec, op.report.error_estimate);
    std::fflush(stdout);
  }
  return 0;
}

/// Per CQ frequency listed, one solve_laplace call on `model` (the cavity)
/// with `solver` at tolerance ε: where its seconds go and what ACA did.
int profile(const BemModel& model, const CqSettings& settings, geobem::ComputeDevice device, BemSolver solver,
            double tolerance, const std::vector<int>& list) {
  const double c = geobem::test::cavity_reference().p_wave_speed(), a = geobem::test::cavity_radius;
  std::printf("# %zu triangles, %d unknowns, %d steps of dt c/a = %.5f, %d CQ frequencies\n", model.areas.size(),
              model.unknown_count(), settings.steps, settings.time_step * c / a, cq_frequency_count(settings));
  std::printf("l,s_re_a_over_c,s_im_a_over_c,damping_over_diameter,setup_s,assembly_s,near_field_s,aca_s,factors_s,"
              "preconditioner_s,solve_s,aca_leaves,dense_leaves,mean_rank,largest_rank,gmres_steps,compression_error\n");
  for (int l : list) {
    CqOptions options(device, true);
    options.solver = solver;
    options.hierarchical.tolerance = tolerance;
    CqTimings timings;
    const LaplaceSolution solution = solve_laplace(model, settings, {l}, options, timings);
    const Complex s = cq_laplace_point(settings, l);
    const CqTimings::Compression& p = timings.compression;
    const std::uint64_t converged = p.aca_leaves - p.dense_leaves;
    std::printf("%d,%.4g,%.4g,%.4g,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%.3f,%llu,%llu,%.2f,%d,%d,%.3g\n", l, s.re * a / c,
                s.im * a / c, s.re * 2 * a / c, timings.setup_seconds, timings.assembly_seconds, p.near_field_seconds,
                p.aca_seconds, p.factors_seconds, p.preconditioner_seconds, timings.solve_seconds,
                static_cast<unsigned long long>(p.aca_leaves), static_cast<unsigned long long>(p.dense_leaves),
                converged ? double(p.rank_sum) / converged : 0.0, p.largest_rank,
                solution.solves.empty() ? 0 : solution.solves[0].iterations,
                solution.solves.empty() ? 0.0 : solution.solves[0].compression_error);
    std::fflush(stdout);
  }
  return 0;
}

int run(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "compare" && (argc == 6 || argc == 7)) {
    const BemModel model = geobem::test::cavity_model(geobem::surface::read_vtk_surface(argv[2]));
    const CqSettings settings{std::atoi(argv[4]), TimeStepChoice(argv[3]).on(model)};
    return compare(model, settings, std::atof(argv[5]), argc == 7 ? parse_list(argv[6]) : std::vector<int>{});
  }
  if (mode == "ranks" && (argc == 7 || argc == 9 || argc == 10)) {
    const BemModel model = geobem::test::cavity_model(geobem::surface::read_vtk_surface(argv[2]));
    HierarchicalSettings hierarchical_settings;
    hierarchical_settings.tolerance = std::atof(argv[5]);
    if (argc >= 9) {
      hierarchical_settings.row_leaf_size = std::atoi(argv[7]);
      hierarchical_settings.element_leaf_size = std::atoi(argv[8]);
    }
    if (argc == 10) hierarchical_settings.eta = std::atof(argv[9]);
    return ranks(model, CqSettings{std::atoi(argv[4]), TimeStepChoice(argv[3]).on(model)}, hierarchical_settings,
                 parse_list(argv[6]));
  }
  if (mode == "layout" && (argc == 5 || argc == 6)) {
    const BemModel model = geobem::test::cavity_model(geobem::surface::read_vtk_surface(argv[2]));
    return layout_only(model, CqSettings{std::atoi(argv[4]), TimeStepChoice(argv[3]).on(model)}, argc == 6);
  }
  if (mode == "growth" && argc >= 7) {
    const std::string spec = argv[5];
    const std::string solvers = spec.substr(0, spec.find(':'));
    HierarchicalSettings hierarchical;
    if (spec.find(':') != std::string::npos &&
        std::sscanf(spec.c_str() + spec.find(':') + 1, "%d,%d,%lf", &hierarchical.row_leaf_size,
                    &hierarchical.element_leaf_size, &hierarchical.eta) < 2)
      throw std::invalid_argument("bench_hierarchical growth: '" + spec + "' is not SOLVERS:ROW_LEAF,ELEMENT_LEAF[,ETA]");
    if (solvers == "dense" || solvers == "hierarchical" || solvers == "both")
      return growth(geobem::resolve_device(geobem::parse_device_choice(argv[2])), TimeStepChoice(argv[3]),
                    std::atoi(argv[4]), solvers, hierarchical, argc - 6, argv + 6);
  }
  if (mode == "profile" && argc == 9 && (std::string(argv[7]) == "dense" || std::string(argv[7]) == "hierarchical")) {
    const BemModel model = geobem::test::cavity_model(geobem::surface::read_vtk_surface(argv[3]));
    const double c = geobem::test::cavity_reference().p_wave_speed(), a = geobem::test::cavity_radius;
    const double dt = cq_time_step_from_beta(std::atof(argv[4]), model.smallest_element_size(), c);
    const CqSettings settings{cq_steps_for_duration(std::atof(argv[5]) * a / c, dt), dt};
    return profile(model, settings, geobem::resolve_device(geobem::parse_device_choice(argv[2])),
                   std::string(argv[7]) == "dense" ? BemSolver::dense : BemSolver::hierarchical, std::atof(argv[6]),
                   parse_list(argv[8]));
  }
  if (mode == "compare-rod" && (argc == 6 || argc == 7)) {
    const BemModel model = geobem::test::rod_model(std::atof(argv[2]));
    const CqSettings settings = geobem::test::rod_settings(model, std::atof(argv[3]), std::atof(argv[4]));
    return compare(model, settings, std::atof(argv[5]), argc == 7 ? parse_list(argv[6]) : std::vector<int>{});
  }
  std::fprintf(stderr, "usage: bench_hierarchical compare MESH.vtu DT STEPS EPS [l,l,...] | "
                       "compare-rod H BETA PERIODS EPS [l,l,...] |\n"
                       "       bench_hierarchical layout MESH.vtu DT STEPS [drops] |\n"
                       "       bench_hierarchical ranks MESH.vtu DT STEPS EPS l,l,... [ROW_LEAF ELEMENT_LEAF [ETA]] |\n"
                       "       bench_hierarchical growth cpu|cuda DT STEPS dense|hierarchical|both[:ROW_LEAF,ELEMENT_LEAF[,ETA]] MESH.vtu... |\n"
                       "       bench_hierarchical profile cpu|cuda MESH.vtu BETA DURATION EPS dense|hierarchical l,l,...\n"
                       "DT: the time step in seconds, or beta=B for B h_min / c_P on each mesh\n");
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& error) {  // a refused plan, a bad mesh: the message, not an abort
    std::fflush(stdout);
    std::fprintf(stderr, "bench_hierarchical: error: %s\n", error.what());
    return 1;
  }
}

#pragma once
// The hierarchical path of solve_laplace (BemSolver::hierarchical): once per
// mesh the layout (cluster and block trees, hierarchical_layout.hpp) and the
// free terms; per CQ frequency the compressed operator
// (hierarchical_assembly.hpp), the block-Jacobi preconditioner
// (block_jacobi.hpp) and restarted GMRES (gmres.hpp) on each load case to a
// relative residual of the compression tolerance ε. The operator is
// compressed to ε as well, so x̂ differs from the dense path's by about ε
// times the system's condition. A frequency whose GMRES does not reach ε
// within gmres_max_iterations steps is an error, naming the frequency and
// the residual reached.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/hierarchical/error_budget.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"

namespace geobem::bem {

/// GMRES's restart length and step cap on the hierarchical path.
constexpr int gmres_restart = 60, gmres_max_iterations = 3000;

/// The bytes one frequency of the hierarchical path takes, planned before
/// any work: the near field of every dense leaf (exact; the damping's drops
/// only lower it), the admissible leaves at the estimated ranks
/// (estimated_rank), and the workspace: preconditioner factors, GMRES's
/// basis and vectors, the right-hand sides.
struct HierarchicalMemoryPlan {
  std::uint64_t near_field = 0, low_rank = 0, workspace = 0;
  std::uint64_t total() const { return near_field + low_rank + workspace; }
};

/// The rank planned for an admissible leaf of `rows` × `columns` at tolerance
/// ε: min(3 log10(1/ε), the rank where the factors hold as much as the
/// block). ACA's ranks on the cavity do not grow with the leaf (the larger
/// leaves lie farther apart, where the damping makes them smaller): at
/// ε = 1e-8 the largest was 22 and the mean at most 9.5 over every leaf size
/// at the least damped CQ frequency (bench/RESULTS.md, "Hierarchical
/// CQ-BEM"). Longer runs, whose lowest CQ frequencies are less damped, may
/// reach higher ranks than planned: the factors are allocated at the ranks
/// reached, and a batch that does not fit fails with the CUDA error.
double estimated_rank(int rows, int columns, double tolerance);

HierarchicalMemoryPlan plan_hierarchical_memory(const hierarchical::HierarchicalLayout& layout, int load_cases,
                                                double tolerance);
/// The same for `model` (its layout built under `settings`).
HierarchicalMemoryPlan plan_hierarchical_memory(const BemModel& model, const HierarchicalSettings& settings);

/// The plan's low-rank part once the free terms' norm is known: the
/// admissible leaves the damping does not drop at the least damped of the CQ
/// points `s` (the smallest |s|: every leaf's bound, error_budget.hpp, is
/// largest there, so the fewest leaves drop), each at estimated_rank.
template <class Solution>
std::uint64_t planned_low_rank_bytes(const BemModel& model, const hierarchical::HierarchicalLayout& layout,
                                     const std::vector<Complex>& s, double tolerance, double free_term_norm) {
  if (s.empty()) return 0;
  const Complex least_damped =
      *std::min_element(s.begin(), s.end(), [](const Complex& a, const Complex& b) { return abs(a) < abs(b); });
  const hierarchical::DroppedLeaves drops =
      hierarchical::dropped_leaves<Solution>(model, layout, least_damped, tolerance, free_term_norm);
  double bytes = 0.0;
  for (int b : layout.admissible_blocks) {
    if (drops.dropped[b]) continue;
    const hierarchical::LayoutBlock& block = layout.blocks[b];
    bytes += 16.0 * (block.rows + block.columns) * std::ceil(estimated_rank(block.rows, block.columns, tolerance));
  }
  return static_cast<std::uint64_t>(bytes);
}

/// Throws ResourceError before any work when `plan` does not fit in
/// `available_bytes` (of `where`), naming each part and the bytes available.
void require_hierarchical_plan_fits(const HierarchicalMemoryPlan& plan, std::uint64_t available_bytes,
                                    const char* where);

/// Unknowns from which `--solver auto` takes the hierarchical path when every
/// CQ frequency is strongly damped over the mesh: where it was measured faster
/// than the dense one (bench/RESULTS.md, "Hierarchical CQ-BEM"), on the CPU
/// (2 cores) and on the GPU (one H200; 64 steps of 2 µs, no frequency little
/// damped).
constexpr int hierarchical_from_unknowns_cpu = 2500, hierarchical_from_unknowns_cuda = 2700;

/// The share of a run's CQ frequencies (all of `settings`, whatever a rank
/// solves) whose damping over the mesh, Re(s_l)·D/c_P with D the diagonal of
/// the nodes' bounding box, is below ln(1/ε): there the admissible leaves are
/// not dropped (error_budget.hpp) and ACA meets ranks that the oscillation
/// raises. Long runs at small Δt have many (the lowest frequencies' Re(s) is
/// about ln(1/ε_CQ)/(2T)); short ones none.
double little_damped_share(const BemModel& model, const CqSettings& settings, double tolerance);

/// A little-damped frequency's cost on the hierarchical path in units of a
/// strongly damped one's, less one: the cost per frequency is modelled as
/// (1 + K q) times the damped one's for a share q of little-damped frequencies.
/// K from the 3,166-triangle cavity on one H200: 14.3 ms per frequency at 64
/// steps of 2 µs (q = 0) against 52.6 ms at β = 0.15 over 10 a/c (q = 0.209).
constexpr double little_damped_cost = 12.8;

/// The unknowns from which `auto` takes the hierarchical path on `device` for a
/// run with a share q of little-damped frequencies: the crossover of dense
/// (time per frequency ∝ n^2.30) and hierarchical (∝ n^1.16, times 1 + K q)
/// moves from the damped threshold by (1 + K q)^{1/1.14}.
int hierarchical_from_unknowns(ComputeDevice device, double little_damped_share);

/// The solver `choice` comes to on `device` for a system of `unknowns` whose
/// run has a share `little_damped_share` of little-damped CQ frequencies:
/// automatic is dense below hierarchical_from_unknowns.
BemSolver choose_bem_solver(BemSolver choice, ComputeDevice device, int unknowns, double little_damped_share);

/// "dense", "hierarchical" or "auto"; throws InputError::usage naming any other text.
BemSolver parse_bem_solver(const std::string& text);
std::string to_string(BemSolver solver);

/// Throws InputError::usage naming ε unless 0 < ε ≤ 0.1 (and finite).
void check_compression_tolerance(double tolerance);

/// The hierarchical path on the GPU (hierarchical_solver_cuda.cu): fills
/// `solution` (LaplaceSolution::zeros of its frequencies with one
/// FrequencySolve each, at least one frequency and one load case; the
/// tolerance checked by check_compression_tolerance), frequencies in batches
/// within the device-memory budget; refuses a mesh whose near field and
/// workspace do not fit it before any device work, and one whose plan with the
/// low-rank leaves the damping keeps (planned_low_rank_bytes) does not fit
/// once the free terms are known.
template <class Solution>
void solve_laplace_hierarchical_cuda(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                     LaplaceSolution& solution, CqTimings& timings);

/// The hierarchical path on the CPU (OpenMP over leaves, OpenBLAS): fills
/// `solution` as solve_laplace_hierarchical_cuda.
template <class Solution>
void solve_laplace_hierarchical_cpu(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                    LaplaceSolution& solution, CqTimings& timings);

}  // namespace geobem::bem

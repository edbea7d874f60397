#pragma once
// Time-domain elastodynamic BEM by convolution quadrature in two steps:
//  1. solve_laplace: for every CQ frequency l = 0…⌊L/2⌋ assemble the mixed
//     system A(s_l) and solve A(s_l) x̂_{c,l} = b_{c,l} for the unit load of
//     every load case c (frequencies in batches; on the GPU only the systems
//     of one batch live in device memory);
//  2. cq_time_series: x_n = Σ_c (inverse CQ transform of ĝ_{c,l} x̂_{c,l})_n for
//     the load histories g_c, cheap enough to rerun for other histories.
// The stages keep the Laplace-domain solution of step 1 on disk between them.
// Libraries: step 1 (and the assembly, the export) in geobem_bem_solver;
// LaplaceSolution and step 2 need only geobem_bem, which loads no cuBLAS,
// cuSOLVER or LAPACK.
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/complex.hpp"
#include "gpu/bem/convolution_quadrature.hpp"
#include "gpu/bem/fundamental_solution_type.hpp"
#include "gpu/bem/hierarchical/hierarchical_settings.hpp"
#include "gpu/core/device.hpp"

namespace geobem::bem {

/// How each CQ frequency's system is solved (geobem-laplace --solver).
enum class BemSolver {
  dense,         ///< assembled whole and factorised (LAPACK, or the batched LU on the GPU)
  hierarchical,  ///< compressed to hierarchical form and solved by GMRES (gpu/bem/hierarchical/)
  automatic      ///< dense while it is the faster (hierarchical_solver.hpp, choose_bem_solver)
};

struct CqOptions {
  /// Device and progress lines; the solver (dense by default) and its settings are set by name.
  CqOptions(ComputeDevice device_ = ComputeDevice::Cpu, bool quiet_ = false) : device(device_), quiet(quiet_) {}
  ComputeDevice device = ComputeDevice::Cpu;
  bool quiet = false;  ///< no progress lines on stderr
  BemSolver solver = BemSolver::dense;
  HierarchicalSettings hierarchical;
};

/// Wall-clock seconds per phase. CUDA: `setup_seconds` is what comes before
/// the first batch (the context when no CUDA call made it before, the
/// model's and the quadrature tables' upload, the rigid-body sums S0, the
/// solver's stream and handles, the batch's buffers); `assembly_seconds` the
/// assembly launches, `solve_seconds` the LU and the copy of x̂ to the host.
/// CPU: no set-up; S0 counts as assembly.
/// Hierarchical: the bytes one frequency's compressed system holds, by part.
struct CompressedSystemBytes {
  std::uint64_t near_field = 0;        ///< the dense leaves the damping keeps
  std::uint64_t factors = 0;           ///< admissible leaves as low-rank factors, at ACA's ranks
  std::uint64_t dense_admissible = 0;  ///< admissible leaves formed dense (ACA did not converge within aca_rank_cap)
  std::uint64_t preconditioner = 0;    ///< the block-Jacobi factors and pivots
  std::uint64_t total() const { return near_field + factors + dense_admissible + preconditioner; }
};

struct CqTimings {
  double setup_seconds = 0.0, assembly_seconds = 0.0, solve_seconds = 0.0, transform_seconds = 0.0;
  std::uint64_t matrix_entries = 0;  ///< complex entries assembled (n² per frequency)
  int cpu_threads = 1;               ///< threads the OpenMP assembly loop ran on
  int batch_frequencies = 1;         ///< frequencies assembled and solved per batch
  /// Hierarchical: the largest compressed system of one frequency (by its
  /// total), as it is stored.
  CompressedSystemBytes largest_compressed;
  void note_compressed_system(const CompressedSystemBytes& bytes) {
    if (bytes.total() > largest_compressed.total()) largest_compressed = bytes;
  }
  /// Hierarchical on CUDA: where the assembly's seconds went, summed over the
  /// batches (each phase ends at a device synchronisation), and what ACA did.
  struct Compression {
    double near_field_seconds = 0.0;      ///< the damping's drops (host), the dense leaves' pair integrals
    double aca_seconds = 0.0;             ///< ACA on the admissible leaves
    double factors_seconds = 0.0;         ///< factors summed into unknowns, leaves ACA left dense
    double preconditioner_seconds = 0.0;  ///< the block-Jacobi factors
    std::uint64_t aca_leaves = 0;         ///< (admissible leaf, frequency) pairs the damping kept
    std::uint64_t dense_leaves = 0;       ///< of them, formed dense: ACA did not converge within aca_rank_cap
    std::uint64_t dense_without_aca = 0;  ///< of those, formed dense straight away (ACA failed on them lately)
    std::uint64_t rank_sum = 0;           ///< ranks of the converged ones, summed
    int largest_rank = 0;
  } compression;
};

/// How one frequency's system was solved by the hierarchical path: GMRES's
/// Arnoldi steps (the most over the load cases), the compression's error
/// estimate ‖Â − A‖_F/‖A‖_F and the largest final relative residual.
struct FrequencySolve {
  int iterations = 0;
  double compression_error = 0.0, residual = 0.0;
};

/// The Laplace-domain solution x̂_{c,l} of some CQ frequencies for every unit
/// load case: values[(c·F + k)·n + i] is unknown i (BemModel's blocks) of case
/// c at frequency frequencies[k] (F = frequencies.size(), n = unknowns):
/// per case an n × F column-major array. Units: m·s (displacement) and Pa·s
/// (traction), the Laplace transform of the time-domain unknowns.
struct LaplaceSolution {
  int unknowns = 0, load_cases = 0;
  std::vector<int> frequencies;
  std::vector<Complex> values;
  std::vector<FrequencySolve> solves;  ///< per frequency (hierarchical path), empty for dense LU
  /// Zeros for every load case at `frequencies` of a system of `unknowns`.
  static LaplaceSolution zeros(int unknowns, int load_cases, std::vector<int> frequencies) {
    LaplaceSolution solution;
    solution.unknowns = unknowns;
    solution.load_cases = load_cases;
    solution.frequencies = std::move(frequencies);
    solution.values.resize(static_cast<std::size_t>(load_cases) * solution.frequencies.size() * unknowns);
    return solution;
  }
  Complex& at(int load_case, int k, int i) {
    return values[(static_cast<std::size_t>(load_case) * frequencies.size() + k) * unknowns + i];
  }
  const Complex& at(int load_case, int k, int i) const {
    return values[(static_cast<std::size_t>(load_case) * frequencies.size() + k) * unknowns + i];
  }
};

/// Bytes one frequency's dense system and right-hand sides take (n² + n·cases complex128).
std::uint64_t dense_system_bytes(int unknowns, int load_cases);

/// Throws ResourceError before any work when one frequency's dense
/// system does not fit in `available_bytes` (of `where`, e.g. "device
/// memory"), naming the unknowns, the bytes needed and the bytes available.
void require_dense_system_fits(int unknowns, int load_cases, std::uint64_t available_bytes, const char* where);

/// Solves the listed CQ frequencies (indices l, each in 0…⌊L/2⌋; all when
/// empty) for every load case, with the fundamental solution `Solution`
/// (fundamental_solution_type.hpp; every function below that assembles takes
/// it the same way). CPU: OpenMP assembly (assemble_system_cpu),
/// LAPACK zgesv (OpenBLAS) with one right-hand side per case. CUDA: batches
/// of frequencies assembled on the device and factorised together by the
/// batched blocked LU (batched_lu.hpp; cuSOLVER getrf/getrs on streams for
/// batches of fewer than eight), only x̂ copied back. Refuses
/// (require_dense_system_fits) when one frequency does not fit in memory;
/// throws std::runtime_error (lu_failure_message: the frequency, the step and
/// routine, its info and what it means) when an LU fails.
template <class Solution = ElastodynamicFullSpace>
LaplaceSolution solve_laplace(const BemModel& model, const CqSettings& settings, const std::vector<int>& frequencies,
                              const CqOptions& options, CqTimings& timings);

/// The time-domain unknowns x_n, n = 0…N (row-major (N+1) × n), of the
/// Laplace-domain solution of every frequency (0…⌊L/2⌋ in order) under the
/// load histories g_c (one per load case, N + 1 values each): the forward CQ
/// transform of each history, x̂_l = Σ_c ĝ_{c,l} x̂_{c,l}, the inverse CQ
/// transform (FFTW). Throws InputError for mismatched sizes.
std::vector<double> cq_time_series(const LaplaceSolution& solution, const std::vector<std::vector<double>>& histories,
                                   const CqSettings& settings);

/// unknowns[n·unknown_count + k]: unknown k (block k/3, component k%3, see
/// BemModel) at t_n = nΔt, n = 0…N; displacement in m, traction in Pa.
struct CqResult {
  std::vector<double> unknowns;
  CqTimings timings;
};

/// solve_laplace of every frequency, then cq_time_series with `load_history`
/// (values at t_0…t_N, e.g. all ones for p·H(t)) for every load case.
template <class Solution = ElastodynamicFullSpace>
CqResult solve_cq(const BemModel& model, const CqSettings& settings, const std::vector<double>& load_history,
                  const CqOptions& options);

/// Receives the dense system of frequency l: `matrix` column-major n×n and
/// `rhs` column-major n × cases (unit loads), l = 0…⌊L/2⌋ in order.
using CqSystemSink = std::function<void(int l, const std::vector<Complex>& matrix, const std::vector<Complex>& rhs)>;

/// Assembles A(s_l) and the unit-load right-hand sides of every CQ frequency
/// and hands them to `sink` (the dense-system export, for inspection). CPU:
/// assemble_system_cpu; CUDA: batches on the device, copied back.
template <class Solution = ElastodynamicFullSpace>
CqTimings assemble_cq_systems(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                              const CqSystemSink& sink);

/// S0 of every node collocation point (9 values, [i][j] row-major; see
/// collocation_pair.hpp) on the CPU, less the identity for an unbounded
/// solid (apply_unbounded_free_term, free_term.hpp).
template <class Solution = ElastodynamicFullSpace>
std::vector<double> rigid_body_sums_cpu(const BemModel& model);

/// rigid_body_sums_cpu's S0 computed on the GPU (one block per free node).
template <class Solution = ElastodynamicFullSpace>
std::vector<double> rigid_body_sums_cuda(const BemModel& model);

/// The column-major n×n matrix and the n × cases unit-load right-hand sides
/// of frequency s on the CPU (n = unknown_count), given S0.
template <class Solution = ElastodynamicFullSpace>
void assemble_system_cpu(const BemModel& model, const std::vector<double>& rigid_body_sums, Complex s,
                         std::vector<Complex>& matrix, std::vector<Complex>& rhs, int* threads_used = nullptr);

/// The same on the GPU, for the listed Laplace parameters, copied back:
/// matrices[f] and rhs[f]. `tile_columns` > 0 (a multiple of 3) caps the
/// columns a block holds in shared memory at once (default: as many as the
/// shared-memory budget allows), so tests can exercise the column tiles.
template <class Solution = ElastodynamicFullSpace>
void assemble_systems_cuda(const BemModel& model, const std::vector<Complex>& s,
                           std::vector<std::vector<Complex>>& matrices, std::vector<std::vector<Complex>>& rhs,
                           int tile_columns = 0);

/// CUDA paths of solve_laplace and assemble_cq_systems (cq_solver_cuda.cu).
template <class Solution>
LaplaceSolution solve_laplace_cuda(const BemModel& model, const CqSettings& settings,
                                   const std::vector<int>& frequencies, const CqOptions& options, CqTimings& timings);
template <class Solution>
CqTimings assemble_cq_systems_cuda(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                   const CqSystemSink& sink);

}  // namespace geobem::bem

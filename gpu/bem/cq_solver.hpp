#pragma once
// Time-domain elastodynamic BEM by convolution quadrature: assemble the mixed
// system A(s_l) x̂_l = ĝ_l·b(s_l) for l = 0…⌊L/2⌋, solve, transform back.
// Assembly and solve are separate steps so that the stages can keep the
// systems on disk between them (geobem-assemble, geobem-solve).
#include <cstdint>
#include <functional>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/bem/complex.hpp"
#include "gpu/bem/convolution_quadrature.hpp"
#include "gpu/core/device.hpp"

namespace geobem::bem {

struct CqOptions {
  ComputeDevice device = ComputeDevice::Cpu;
  bool quiet = false;  ///< no progress lines on stderr
};

struct CqTimings {
  double assembly_seconds = 0.0, solve_seconds = 0.0, transform_seconds = 0.0;
  std::uint64_t matrix_entries = 0;  ///< complex entries assembled (n² per solved frequency)
  int cpu_threads = 1;               ///< threads the OpenMP assembly loop ran on
};

/// unknowns[n·unknown_count + k]: unknown k (block k/3, component k%3, see
/// BemModel) at t_n = nΔt, n = 0…N; displacement in m, traction in Pa.
struct CqResult {
  std::vector<double> unknowns;
  CqTimings timings;
};

/// Solves the model for the prescribed tractions times `load_history`
/// (values at t_0…t_N, e.g. all ones for p·H(t)). CPU: assemble_system_cpu
/// as the source of solve_cq_systems (OpenMP assembly, LAPACK
/// zgesv, FFTW). CUDA: one launch per batch of frequencies kept on the
/// device, then the same cuSOLVER/cuFFT solve as solve_cq_systems; refuses
/// (std::runtime_error with the bytes needed) when one frequency's system
/// does not fit in free device memory.
CqResult solve_cq(const BemModel& model, const CqSettings& settings, const std::vector<double>& load_history,
                  const CqOptions& options);

/// Fills `matrix` (column-major n×n, n = unknown count) and `rhs` (n) with
/// the system A(s_l) of CQ frequency l and its right-hand side b_l for a
/// unit load history; the system to solve is A(s_l) x̂_l = ĝ_l b_l.
using CqSystemSource = std::function<void(int l, std::vector<Complex>& matrix, std::vector<Complex>& rhs)>;

/// Receives the systems of assemble_cq_systems, l = 0…⌊L/2⌋ in order.
using CqSystemSink = std::function<void(int l, const std::vector<Complex>& matrix, const std::vector<Complex>& rhs)>;

/// Assembles A(s_l) and b_l (unit load) for every solved CQ frequency and
/// hands them to `sink` in order of l, with progress (ETA) per frequency.
/// CPU: assemble_system_cpu. CUDA: batches of frequencies sized to a quarter
/// of the free device memory, copied back. Returns assembly time and entries.
CqTimings assemble_cq_systems(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                              const CqSystemSink& sink);

/// Solves A(s_l) x̂_l = ĝ_l b_l for l = 0…⌊L/2⌋ with the systems `source`
/// gives (n = `unknown_count`), ĝ the forward transform of `load_history`
/// (N + 1 values), and transforms x̂ back to time: the CQ solve whatever
/// produced the systems (in-memory assembly, files). CPU: LAPACK zgesv,
/// FFTW; CUDA: cuSOLVER getrf/getrs, cuFFT. Throws std::runtime_error
/// naming the frequency for a singular system; `source` errors pass through.
/// Timings: time spent in `source` counts as assembly.
CqResult solve_cq_systems(int unknown_count, const CqSettings& settings, const std::vector<double>& load_history,
                          const CqSystemSource& source, const CqOptions& options);

/// S0 of every node collocation point (9 values, [i][j] row-major; see
/// collocation_pair.hpp) on the CPU.
std::vector<double> rigid_body_sums_cpu(const BemModel& model);

/// The column-major n×n matrix and the unit-load right-hand side of
/// frequency s on the CPU (n = unknown_count), given S0.
void assemble_system_cpu(const BemModel& model, const std::vector<double>& rigid_body_sums, Complex s,
                         std::vector<Complex>& matrix, std::vector<Complex>& rhs, int* threads_used = nullptr);

/// The same on the GPU, for the listed frequencies (one launch), copied back:
/// matrices[f] and rhs[f].
void assemble_systems_cuda(const BemModel& model, const std::vector<Complex>& s,
                           std::vector<std::vector<Complex>>& matrices, std::vector<std::vector<Complex>>& rhs);

/// CUDA paths of solve_cq, assemble_cq_systems and solve_cq_systems (cq_solver_cuda.cu).
CqResult solve_cq_cuda(const BemModel& model, const CqSettings& settings, const std::vector<double>& load_history,
                       const CqOptions& options);
CqTimings assemble_cq_systems_cuda(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                   const CqSystemSink& sink);
CqResult solve_cq_systems_cuda(int unknown_count, const CqSettings& settings, const std::vector<double>& load_history,
                               const CqSystemSource& source, const CqOptions& options);

}  // namespace geobem::bem

#pragma once
// Time-domain elastodynamic BEM by convolution quadrature: assemble the mixed
// system A(s_l) x̂_l = ĝ_l·b(s_l) for l = 0…⌊L/2⌋, solve, transform back.
#include <cstdint>
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
/// (values at t_0…t_N, e.g. all ones for p·H(t)). CPU: OpenMP assembly,
/// LAPACK zgesv, FFTW. CUDA: one launch per batch of frequencies, cuSOLVER
/// getrf/getrs, cuFFT; refuses (std::runtime_error with the bytes needed)
/// when one frequency's system does not fit in free device memory.
CqResult solve_cq(const BemModel& model, const CqSettings& settings, const std::vector<double>& load_history,
                  const CqOptions& options);

/// S0 of every node collocation point (9 values, [i][j] row-major; see
/// collocation_pair.hpp) on the CPU.
std::vector<double> rigid_body_sums_cpu(const BemModel& model);

/// The column-major n×n matrix and right-hand side of frequency s with
/// transformed load `load` on the CPU (n = unknown_count), given S0.
void assemble_system_cpu(const BemModel& model, const std::vector<double>& rigid_body_sums, Complex s,
                         Complex load, std::vector<Complex>& matrix, std::vector<Complex>& rhs, int* threads_used = nullptr);

/// The same on the GPU, for the listed frequencies (one launch), copied back:
/// matrices[f] and rhs[f]. For tests and benchmarks of the two paths.
void assemble_systems_cuda(const BemModel& model, const std::vector<Complex>& s, const std::vector<Complex>& loads,
                           std::vector<std::vector<Complex>>& matrices, std::vector<std::vector<Complex>>& rhs);

/// CUDA path of solve_cq (cq_solver_cuda.cu).
CqResult solve_cq_cuda(const BemModel& model, const CqSettings& settings, const std::vector<double>& load_history,
                       const CqOptions& options);

}  // namespace geobem::bem

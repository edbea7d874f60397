// cq_time_series (cq_solver.hpp): the load histories applied to the
// Laplace-domain solution and the inverse CQ transform (FFTW). In geobem_bem,
// apart from the solvers (geobem_bem_solver), so that a program that only
// transforms does not load cuBLAS, cuSOLVER and LAPACK.
#include <stdexcept>
#include <string>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/core/input_error.hpp"

namespace geobem::bem {

std::vector<double> cq_time_series(const LaplaceSolution& solution, const std::vector<std::vector<double>>& histories,
                                   const CqSettings& settings) {
  check_cq_settings(settings);
  const int frequencies = cq_frequency_count(settings), n = solution.unknowns;
  if (static_cast<int>(solution.frequencies.size()) != frequencies)
    throw InputError("CQ time series: the Laplace-domain solution has " +
                     std::to_string(solution.frequencies.size()) + " frequencies, expected " +
                     std::to_string(frequencies));
  for (int k = 0; k < frequencies; ++k)
    if (solution.frequencies[k] != k)
      throw InputError("CQ time series: frequencies out of order at " + std::to_string(k));
  if (static_cast<int>(histories.size()) != solution.load_cases)
    throw InputError("CQ time series: " + std::to_string(histories.size()) + " load histories for " +
                     std::to_string(solution.load_cases) + " load cases");
  std::vector<Complex> combined(static_cast<std::size_t>(frequencies) * n);
  for (int c = 0; c < solution.load_cases; ++c) {
    const std::vector<Complex> load = cq_forward_transform(histories[c], settings);
    for (int l = 0; l < frequencies; ++l) {
      const Complex* x = &solution.at(c, l, 0);
      Complex* out = combined.data() + static_cast<std::size_t>(l) * n;
      for (int i = 0; i < n; ++i) out[i] += load[l] * x[i];
    }
  }
  return cq_inverse_transform(combined, n, settings);
}

}  // namespace geobem::bem

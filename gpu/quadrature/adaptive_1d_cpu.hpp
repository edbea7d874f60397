#pragma once
// CPU driver of the block-cutting sweep for any GEOBEM_HD functor f(double):
// the block's subintervals in an OpenMP loop (compile with -fopenmp).
#include <vector>

#include "gpu/quadrature/adaptive_1d.hpp"
#include "gpu/quadrature/gauss_kronrod.hpp"

namespace geobem::quadrature {

/// Sweeps `state` to the end with `subintervals` subintervals per block;
/// `parallel` spreads each block over OpenMP threads (single mode) or not
/// (inside an outer parallel loop over a batch).
template <class F>
void cpu_block_cutting_sweep(const F& f, BlockCuttingState& state, int subintervals, bool parallel) {
  std::vector<KronrodSums> parts(subintervals);
  while (state.running) {
    double a, b;
    next_block(state, &a, &b);
    const double h = (b - a) / subintervals;
#pragma omp parallel for schedule(static) if (parallel)
    for (int i = 0; i < subintervals; ++i)
      parts[i] = gauss_kronrod_15(f, a + i * h, i + 1 == subintervals ? b : a + (i + 1) * h);
    KronrodSums block{};
    for (const KronrodSums& part : parts) add_kronrod_sums(block, part);
    block_cutting_step(state, block, subintervals);
  }
}

/// ∫_lower^upper f on the CPU with α·β subintervals per block.
template <class F>
Adaptive1DResult cpu_integrate_adaptive_1d(const F& f, double lower, double upper, const Adaptive1DOptions& options) {
  check_adaptive_1d_options(options);
  BlockCuttingState state = start_block_cutting(lower, upper, options.rel_tol, options.abs_tol,
                                                options.max_evaluations, options.expansion);
  cpu_block_cutting_sweep(f, state, options.alpha * options.beta, true);
  return adaptive_1d_result(state);
}

}  // namespace geobem::quadrature

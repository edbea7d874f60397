#pragma once
// Convolution quadrature (Lubich 1988, Numer. Math. 52, "Convolution
// quadrature and discretized operational calculus I/II"; Lubich 1994) with
// BDF2: γ(ζ) = 3/2 − 2ζ + ζ²/2, L = N + 1, ζ_l = R e^{2πi l/L},
// s_l = γ(ζ_l)/Δt, R = ε^{1/(2N)}. Forward ĝ_l = Σ_j R^j g_j e^{+2πi jl/L};
// inverse x_n = R^{−n}/L Σ_l x̂_l e^{−2πi nl/L}. Real data make
// x̂_{L−l} = conj(x̂_l), so only l = 0…⌊L/2⌋ are kept.
#include <string>
#include <vector>

#include "gpu/bem/complex.hpp"

namespace geobem::bem {

struct CqSettings {
  int steps = 0;            ///< N: the solution is returned at t_n = nΔt, n = 0…N
  double time_step = 0.0;   ///< Δt (s)
  double epsilon = 1e-10;   ///< ε of R = ε^{1/(2N)}
};

/// The most CQ steps N a run takes (N/2 + 1 dense systems are solved).
inline constexpr int max_cq_steps = 10'000'000;
/// The range of ε: the inverse transform's aliasing error is about ε and its
/// rounding error about 1e-16·ε^{−1/2} (Lubich 1988, part II, §4): outside
/// [1e-14, 1e-3] one of them exceeds 1e-6 or the error of a run's solves
/// (amplified by ε^{−1/2}) exceeds 1e-5.
inline constexpr double min_cq_epsilon = 1e-14, max_cq_epsilon = 1e-3;
/// The smallest CQ step ratio β = c_P·Δt/h a run takes (stable around
/// 0.1–0.3): below it the S-wave number |s|·h/c_S across an element at the
/// highest CQ frequency passes 400, beyond the largest triangle rule
/// (QuadratureTable::max_order), and a duration needs tens of times the
/// steps of the stable range.
inline constexpr double min_cq_step_ratio = 0.01;

/// Throws InputError naming the value for N outside 1…max_cq_steps,
/// Δt ≤ 0 or not finite, or ε outside [min_cq_epsilon, max_cq_epsilon].
void check_cq_settings(const CqSettings& settings);

/// Throws InputError naming β = c·Δt/h (c the P-wave speed, h the
/// smallest element size) and the least Δt when β < min_cq_step_ratio.
void check_cq_step_ratio(double wave_speed, double time_step, double element_size);
/// ⌊L/2⌋ + 1: the Laplace parameters whose systems are solved.
int cq_frequency_count(const CqSettings& settings);
/// R = ε^{1/(2N)}.
double cq_radius(const CqSettings& settings);
/// s_l = γ(ζ_l)/Δt (1/s).
Complex cq_laplace_point(const CqSettings& settings, int l);

/// ĝ_l, l = 0…⌊L/2⌋, of the real series g_0…g_N (FFTW). Throws
/// InputError unless g has N + 1 values.
std::vector<Complex> cq_forward_transform(const std::vector<double>& history, const CqSettings& settings);

/// x_n (row n = 0…N, `columns` values each, row-major) from x̂ given as
/// cq_frequency_count() rows of `columns` values (FFTW, one batched c2r).
std::vector<double> cq_inverse_transform(const std::vector<Complex>& transformed, int columns,
                                         const CqSettings& settings);

/// Δt = β·h/c (s): the CQ time step of stability ratio β for the smallest
/// element size h (m) and the fastest wave speed c (m/s). Throws
/// InputError naming the value for β, h or c not positive and finite.
double cq_time_step_from_beta(double beta, double element_size, double wave_speed);

/// N = ⌈T/Δt⌉ (T/Δt within 1e-9 of an integer counts as that integer):
/// the steps that reach the simulated time T (s). Throws
/// InputError naming T for T ≤ 0 or more than max_cq_steps steps.
int cq_steps_for_duration(double duration, double time_step);

/// β = c·Δt/h, the CQ stability ratio; stable steps lie around 0.1–0.3
/// (docs/references.md#cq-bem). Returns a warning text naming β when outside [0.1, 0.3], else "".
std::string cq_step_warning(double wave_speed, double time_step, double element_size);

}  // namespace geobem::bem

#pragma once
// Low-rank factors M ≈ U·Vᵀ of a matrix block (no conjugate: M_ij ≈ Σ_l
// U_il V_jl), and their recompression by QR and SVD (Bebendorf & Kunis 2009,
// "Recompression techniques for adaptive cross approximation", J. Integral
// Equations Appl. 21; Hackbusch 2015, §2.6): with U = Q_u R_u and
// V = Q_v R_v, the SVD R_u R_vᵀ = X Σ Yᴴ gives the best approximation of every
// rank, U' = Q_u X_r Σ_r and V' = Q_v conj(Y_r), truncated at the smallest r
// with (Σ_{i>r} σ_i²)^{1/2} ≤ a given bound. LAPACK from OpenBLAS.
#include <vector>

#include "gpu/bem/complex.hpp"

namespace geobem::bem::hierarchical {

struct LowRank {
  int rows = 0, columns = 0, rank = 0;
  std::vector<Complex> u;  ///< rows × rank, column-major
  std::vector<Complex> v;  ///< columns × rank, column-major
};

/// ‖U·Vᵀ‖_F² from the factors (Gram matrices, no product formed).
double frobenius_norm_squared(const LowRank& m);

/// Recompresses `m` in place to the smallest rank whose discarded singular
/// values are at most `tolerance` (absolute) in Frobenius norm; returns that
/// discarded part's Frobenius norm (0 when nothing is dropped). Throws
/// std::runtime_error naming the LAPACK routine and its info on failure.
double recompress(LowRank& m, double tolerance);

}  // namespace geobem::bem::hierarchical

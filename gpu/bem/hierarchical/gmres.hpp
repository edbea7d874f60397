#pragma once
// Restarted GMRES with right preconditioning (Saad & Schultz 1986, "GMRES: a
// generalized minimal residual algorithm for solving nonsymmetric linear
// systems", SIAM J. Sci. Stat. Comput. 7, 856–869; Saad 2003, "Iterative
// Methods for Sparse Linear Systems", §9.3.2): A M⁻¹ y = b, x = M⁻¹ y, so
// that the residual it minimises is b − A x itself. The Arnoldi basis is
// orthogonalised by classical Gram–Schmidt applied twice (Giraud, Langou &
// Rozložník 2005: orthogonal to working accuracy, and two matrix-vector
// products per step where modified Gram–Schmidt takes j dot products), the
// small least-squares problem by Givens rotations. Each restart starts from
// the true residual. Host; BLAS from OpenBLAS.
#include <cblas.h>

#include <cmath>
#include <vector>

#include "gpu/bem/complex.hpp"

namespace geobem::bem::hierarchical {

struct GmresResult {
  int iterations = 0;               ///< Arnoldi steps (matrix-vector products less one per restart)
  double relative_residual = 0.0;   ///< ‖b − A x‖ / ‖b‖ at the end (a true residual)
  bool converged = false;           ///< relative_residual ≤ the tolerance
};

/// Solves A x = b (n unknowns) to ‖b − A x‖ ≤ tolerance ‖b‖, restarting
/// every `restart` steps, at most `max_iterations` steps; x starts at zero.
/// apply_a(in, out): out = A in; apply_preconditioner(in, out): out = M⁻¹ in.
template <class ApplyA, class ApplyPreconditioner>
GmresResult gmres(int n, const ApplyA& apply_a, const ApplyPreconditioner& apply_preconditioner, const Complex* b,
                  Complex* x, double tolerance, int restart, int max_iterations) {
  GmresResult result;
  const Complex one(1.0), zero(0.0), minus_one(-1.0);
  for (int i = 0; i < n; ++i) x[i] = Complex();
  const double b_norm = cblas_dznrm2(n, b, 1);
  if (b_norm == 0.0) {
    result.converged = true;
    return result;
  }
  std::vector<Complex> basis(static_cast<std::size_t>(n) * (restart + 1)), z(n), w(n), r(n);
  std::vector<Complex> h(static_cast<std::size_t>(restart + 1) * restart), g(restart + 1), coefficients(restart + 1),
      correction(restart + 1);
  std::vector<double> cosines(restart);
  std::vector<Complex> sines(restart);
  for (;;) {
    // r = b − A x.
    apply_a(x, r.data());
    for (int i = 0; i < n; ++i) r[i] = b[i] - r[i];
    const double beta = cblas_dznrm2(n, r.data(), 1);
    result.relative_residual = beta / b_norm;
    if (result.relative_residual <= tolerance) {
      result.converged = true;
      return result;
    }
    if (result.iterations >= max_iterations) return result;
    for (int i = 0; i < n; ++i) basis[i] = r[i] / beta;
    std::fill(g.begin(), g.end(), Complex());
    g[0] = Complex(beta);
    int steps = 0;
    for (int j = 0; j < restart && result.iterations < max_iterations; ++j) {
      Complex* v_next = basis.data() + static_cast<std::size_t>(j + 1) * n;
      apply_preconditioner(basis.data() + static_cast<std::size_t>(j) * n, z.data());
      apply_a(z.data(), w.data());
      // Classical Gram–Schmidt, twice: c = Vᴴ w, w −= V c.
      Complex* column = h.data() + static_cast<std::size_t>(j) * (restart + 1);
      for (int i = 0; i <= j + 1; ++i) column[i] = Complex();
      for (int pass = 0; pass < 2; ++pass) {
        cblas_zgemv(CblasColMajor, CblasConjTrans, n, j + 1, &one, basis.data(), n, w.data(), 1, &zero,
                    correction.data(), 1);
        cblas_zgemv(CblasColMajor, CblasNoTrans, n, j + 1, &minus_one, basis.data(), n, correction.data(), 1, &one,
                    w.data(), 1);
        for (int i = 0; i <= j; ++i) column[i] += correction[i];
      }
      const double next = cblas_dznrm2(n, w.data(), 1);
      column[j + 1] = Complex(next);
      if (next > 0.0)
        for (int i = 0; i < n; ++i) v_next[i] = w[i] / next;
      // The earlier rotations on the new column, then one that zeroes its last entry.
      for (int i = 0; i < j; ++i) {
        const Complex a = column[i], c = column[i + 1];
        column[i] = cosines[i] * a + sines[i] * c;
        column[i + 1] = cosines[i] * c - conj(sines[i]) * a;
      }
      const double a_size = abs(column[j]), norm = std::hypot(a_size, next);
      if (a_size == 0.0) {
        cosines[j] = 0.0;
        sines[j] = Complex(1.0);
      } else {
        cosines[j] = a_size / norm;
        sines[j] = (column[j] / a_size) * (next / norm);
      }
      // (c, s) acts as [c s; −s̄ c] on (column[j], column[j+1]): c a + s b = (a/|a|)·ρ, −s̄ a + c b = 0.
      const Complex top = cosines[j] * column[j] + sines[j] * column[j + 1];
      column[j] = top;
      column[j + 1] = Complex();
      g[j + 1] = -conj(sines[j]) * g[j];
      g[j] = cosines[j] * g[j];
      ++steps;
      ++result.iterations;
      if (abs(g[j + 1]) <= tolerance * b_norm || next == 0.0) break;
    }
    // y from the triangular system, x += M⁻¹ (V y).
    for (int i = steps - 1; i >= 0; --i) {
      Complex sum = g[i];
      for (int k = i + 1; k < steps; ++k) sum -= h[i + static_cast<std::size_t>(k) * (restart + 1)] * coefficients[k];
      coefficients[i] = sum / h[i + static_cast<std::size_t>(i) * (restart + 1)];
    }
    cblas_zgemv(CblasColMajor, CblasNoTrans, n, steps, &one, basis.data(), n, coefficients.data(), 1, &zero, w.data(),
                1);
    apply_preconditioner(w.data(), z.data());
    for (int i = 0; i < n; ++i) x[i] += z[i];
  }
}

}  // namespace geobem::bem::hierarchical

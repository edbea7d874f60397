#pragma once
// Restarted GMRES with right preconditioning (Saad & Schultz 1986, "GMRES: a
// generalized minimal residual algorithm for solving nonsymmetric linear
// systems", SIAM J. Sci. Stat. Comput. 7, 856–869; Saad 2003, "Iterative
// Methods for Sparse Linear Systems", §9.3.2): A M⁻¹ y = b, x = M⁻¹ y, so
// that the residual it minimises is b − A x itself. The Arnoldi basis is
// orthogonalised by classical Gram–Schmidt applied twice (Giraud, Langou &
// Rozložník 2005: orthogonal to working accuracy, and two matrix-vector
// products per step where modified Gram–Schmidt takes j dot products), the
// small least-squares problem by Givens rotations on the host. Each restart
// starts from the true residual.
//
// One algorithm for both backends: the long vectors live where `Vectors`
// keeps them (HostVectors below: OpenBLAS; the device's in
// compressed_operator_cuda.hpp: cuBLAS), which provides, for vectors of n
// values and a basis of restart + 1 of them,
//   Vector vector()                       a vector of n values
//   Basis basis(int columns)              columns vectors, column-major
//   Complex* column(Basis&, int j)        its column j (a vector's storage)
//   double norm(const Complex*)           ‖x‖₂
//   void difference(b, ax, r)             r = b − ax
//   void scaled(x, a, y)                  y = a·x (a real)
//   void project(Basis&, j, w, c)         c[0…j) = V[:, 0…j)ᴴ w  (c on the host)
//   void subtract(Basis&, j, c, w)        w −= V[:, 0…j) c
//   void combine(Basis&, j, c, out)       out = V[:, 0…j) c
//   void add(x, z)                        x += z
//   void zero(x)
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

/// Host vectors and OpenBLAS.
class HostVectors {
 public:
  using Vector = std::vector<Complex>;
  using Basis = std::vector<Complex>;
  explicit HostVectors(int n) : n_(n) {}
  Vector vector() const { return Vector(n_); }
  Basis basis(int columns) const { return Basis(static_cast<std::size_t>(n_) * columns); }
  Complex* column(Basis& v, int j) const { return v.data() + static_cast<std::size_t>(j) * n_; }
  double norm(const Complex* x) const { return cblas_dznrm2(n_, x, 1); }
  void difference(const Complex* b, const Complex* ax, Complex* r) const {
    for (int i = 0; i < n_; ++i) r[i] = b[i] - ax[i];
  }
  void scaled(const Complex* x, double a, Complex* y) const {
    for (int i = 0; i < n_; ++i) y[i] = a * x[i];
  }
  void project(const Basis& v, int j, const Complex* w, Complex* c) const {
    const Complex one(1.0), zero(0.0);
    cblas_zgemv(CblasColMajor, CblasConjTrans, n_, j, &one, v.data(), n_, w, 1, &zero, c, 1);
  }
  void subtract(const Basis& v, int j, const Complex* c, Complex* w) const {
    const Complex one(1.0), minus_one(-1.0);
    cblas_zgemv(CblasColMajor, CblasNoTrans, n_, j, &minus_one, v.data(), n_, c, 1, &one, w, 1);
  }
  void combine(const Basis& v, int j, const Complex* c, Complex* out) const {
    const Complex one(1.0), zero(0.0);
    cblas_zgemv(CblasColMajor, CblasNoTrans, n_, j, &one, v.data(), n_, c, 1, &zero, out, 1);
  }
  void add(Complex* x, const Complex* z) const {
    for (int i = 0; i < n_; ++i) x[i] += z[i];
  }
  void zero(Complex* x) const {
    for (int i = 0; i < n_; ++i) x[i] = Complex();
  }

 private:
  int n_;
};

/// Solves A x = b to ‖b − A x‖ ≤ tolerance ‖b‖, restarting every `restart`
/// steps, at most `max_iterations` steps; x starts at zero. b and x are
/// vectors of `vectors`; apply_a(in, out): out = A in; apply_preconditioner(in,
/// out): out = M⁻¹ in.
template <class Vectors, class ApplyA, class ApplyPreconditioner>
GmresResult gmres(const Vectors& vectors, const ApplyA& apply_a, const ApplyPreconditioner& apply_preconditioner,
                  const Complex* b, Complex* x, double tolerance, int restart, int max_iterations) {
  GmresResult result;
  vectors.zero(x);
  const double b_norm = vectors.norm(b);
  if (b_norm == 0.0) {
    result.converged = true;
    return result;
  }
  auto basis = vectors.basis(restart + 1);
  auto z = vectors.vector(), w = vectors.vector(), r = vectors.vector();
  std::vector<Complex> h(static_cast<std::size_t>(restart + 1) * restart), g(restart + 1), coefficients(restart + 1),
      correction(restart + 1);
  std::vector<double> cosines(restart);
  std::vector<Complex> sines(restart);
  for (;;) {
    apply_a(x, r.data());
    vectors.difference(b, r.data(), r.data());
    const double beta = vectors.norm(r.data());
    result.relative_residual = beta / b_norm;
    if (result.relative_residual <= tolerance) {
      result.converged = true;
      return result;
    }
    if (result.iterations >= max_iterations) return result;
    vectors.scaled(r.data(), 1.0 / beta, vectors.column(basis, 0));
    std::fill(g.begin(), g.end(), Complex());
    g[0] = Complex(beta);
    int steps = 0;
    for (int j = 0; j < restart && result.iterations < max_iterations; ++j) {
      apply_preconditioner(vectors.column(basis, j), z.data());
      apply_a(z.data(), w.data());
      // Classical Gram–Schmidt, twice: c = Vᴴ w, w −= V c.
      Complex* column = h.data() + static_cast<std::size_t>(j) * (restart + 1);
      for (int i = 0; i <= j + 1; ++i) column[i] = Complex();
      for (int pass = 0; pass < 2; ++pass) {
        vectors.project(basis, j + 1, w.data(), correction.data());
        vectors.subtract(basis, j + 1, correction.data(), w.data());
        for (int i = 0; i <= j; ++i) column[i] += correction[i];
      }
      const double next = vectors.norm(w.data());
      column[j + 1] = Complex(next);
      if (next > 0.0) vectors.scaled(w.data(), 1.0 / next, vectors.column(basis, j + 1));
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
    vectors.combine(basis, steps, coefficients.data(), w.data());
    apply_preconditioner(w.data(), z.data());
    vectors.add(x, z.data());
  }
}

}  // namespace geobem::bem::hierarchical

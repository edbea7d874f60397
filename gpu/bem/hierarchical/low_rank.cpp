#include "gpu/bem/hierarchical/low_rank.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

/// LAPACK (Fortran interface, as OpenBLAS exports it; the trailing lengths
/// are gfortran's hidden character-argument lengths).
extern "C" {
void zgeqrf_(const int* m, const int* n, void* a, const int* lda, void* tau, void* work, const int* lwork, int* info);
void zungqr_(const int* m, const int* n, const int* k, void* a, const int* lda, const void* tau, void* work,
             const int* lwork, int* info);
void zgesvd_(const char* jobu, const char* jobvt, const int* m, const int* n, void* a, const int* lda, double* s,
             void* u, const int* ldu, void* vt, const int* ldvt, void* work, const int* lwork, double* rwork,
             int* info, std::size_t jobu_length, std::size_t jobvt_length);
}

namespace geobem::bem::hierarchical {

namespace {

void check(int info, const char* routine) {
  if (info != 0) throw std::runtime_error(std::string("recompression: LAPACK ") + routine + " returned info " +
                                          std::to_string(info));
}

/// Thin QR of the column-major rows × columns `a`: on return `a` holds Q
/// (rows × q, q = min(rows, columns)) and `r` the q × columns R.
void thin_qr(std::vector<Complex>& a, int rows, int columns, std::vector<Complex>& r) {
  const int q = std::min(rows, columns);
  std::vector<Complex> tau(std::max(1, q));
  int info = 0, lwork = -1;
  Complex query;
  zgeqrf_(&rows, &columns, a.data(), &rows, tau.data(), &query, &lwork, &info);
  check(info, "zgeqrf");
  lwork = std::max(1, static_cast<int>(query.re));
  std::vector<Complex> work(lwork);
  zgeqrf_(&rows, &columns, a.data(), &rows, tau.data(), work.data(), &lwork, &info);
  check(info, "zgeqrf");
  r.assign(static_cast<std::size_t>(q) * columns, Complex());
  for (int j = 0; j < columns; ++j)
    for (int i = 0; i <= std::min(j, q - 1); ++i) r[i + static_cast<std::size_t>(j) * q] = a[i + static_cast<std::size_t>(j) * rows];
  lwork = -1;
  zungqr_(&rows, &q, &q, a.data(), &rows, tau.data(), &query, &lwork, &info);
  check(info, "zungqr");
  lwork = std::max(1, static_cast<int>(query.re));
  work.assign(lwork, Complex());
  zungqr_(&rows, &q, &q, a.data(), &rows, tau.data(), work.data(), &lwork, &info);
  check(info, "zungqr");
  a.resize(static_cast<std::size_t>(rows) * q);
}

}  // namespace

double frobenius_norm_squared(const LowRank& m) {
  const int k = m.rank;
  if (k == 0) return 0.0;
  std::vector<Complex> gu(static_cast<std::size_t>(k) * k), gv(static_cast<std::size_t>(k) * k);
  const Complex one(1.0), zero(0.0);
  cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, k, k, m.rows, &one, m.u.data(), m.rows, m.u.data(),
              m.rows, &zero, gu.data(), k);
  cblas_zgemm(CblasColMajor, CblasConjTrans, CblasNoTrans, k, k, m.columns, &one, m.v.data(), m.columns, m.v.data(),
              m.columns, &zero, gv.data(), k);
  double sum = 0.0;
  for (std::size_t k2 = 0; k2 < gu.size(); ++k2) sum += (gu[k2] * gv[k2]).re;
  return std::max(0.0, sum);
}

double recompress(LowRank& m, double tolerance) {
  const int k = m.rank;
  if (k == 0) return 0.0;
  std::vector<Complex> qu = m.u, qv = m.v, ru, rv;
  thin_qr(qu, m.rows, k, ru);
  thin_qr(qv, m.columns, k, rv);
  const int a = std::min(m.rows, k), b = std::min(m.columns, k);
  // core = R_u · R_vᵀ (a × b).
  std::vector<Complex> core(static_cast<std::size_t>(a) * b);
  const Complex one(1.0), zero(0.0);
  cblas_zgemm(CblasColMajor, CblasNoTrans, CblasTrans, a, b, k, &one, ru.data(), a, rv.data(), b, &zero, core.data(),
              a);
  const int p = std::min(a, b);
  std::vector<double> sigma(p), rwork(5 * std::max(1, p));
  std::vector<Complex> x(static_cast<std::size_t>(a) * p), yh(static_cast<std::size_t>(p) * b);
  int info = 0, lwork = -1;
  Complex query;
  zgesvd_("S", "S", &a, &b, core.data(), &a, sigma.data(), x.data(), &a, yh.data(), &p, &query, &lwork, rwork.data(),
          &info, 1, 1);
  check(info, "zgesvd");
  lwork = std::max(1, static_cast<int>(query.re));
  std::vector<Complex> work(lwork);
  zgesvd_("S", "S", &a, &b, core.data(), &a, sigma.data(), x.data(), &a, yh.data(), &p, work.data(), &lwork,
          rwork.data(), &info, 1, 1);
  check(info, "zgesvd");
  // The smallest r whose tail (σ_{r+1}² + …) is within tolerance².
  int r = p;
  double tail = 0.0;
  while (r > 0 && tail + sigma[r - 1] * sigma[r - 1] <= tolerance * tolerance) {
    tail += sigma[r - 1] * sigma[r - 1];
    --r;
  }
  // U' = Q_u X_r Σ_r; V' = Q_v conj(Y_r), conj(Y_r)'s column l is row l of Yᴴ.
  for (int l = 0; l < r; ++l)
    for (int i = 0; i < a; ++i) x[i + static_cast<std::size_t>(l) * a] *= sigma[l];
  std::vector<Complex> y(static_cast<std::size_t>(b) * std::max(1, r));
  for (int l = 0; l < r; ++l)
    for (int j = 0; j < b; ++j) y[j + static_cast<std::size_t>(l) * b] = yh[l + static_cast<std::size_t>(j) * p];
  m.u.assign(static_cast<std::size_t>(m.rows) * r, Complex());
  m.v.assign(static_cast<std::size_t>(m.columns) * r, Complex());
  if (r > 0) {
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m.rows, r, a, &one, qu.data(), m.rows, x.data(), a, &zero,
                m.u.data(), m.rows);
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, m.columns, r, b, &one, qv.data(), m.columns, y.data(), b,
                &zero, m.v.data(), m.columns);
  }
  m.rank = r;
  return std::sqrt(tail);
}

}  // namespace geobem::bem::hierarchical

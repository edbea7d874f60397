// The batched blocked LU (gpu/bem/batched_lu.hpp, label gpu) against
// OpenBLAS zgesv on random complex systems with a fixed seed: sizes below,
// at and across the 64-column panel, several right-hand sides, several
// systems per batch; the backward error of each solution; and a singular
// system in a batch reported by its first zero column without disturbing the
// others.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "gpu/bem/batched_lu.hpp"
#include "gpu/core/cuda_event.hpp"
#include "tests/bem/backward_error.hpp"
#include "tests/support/backend_test.hpp"

extern "C" void zgesv_(const int* n, const int* nrhs, void* a, const int* lda, int* ipiv, void* b, const int* ldb,
                       int* info);

namespace {

using geobem::bem::BatchedLuSolver;
using geobem::bem::Complex;

class BatchedLu : public geobem::test::CudaTest {};

struct Batch {
  int n, cases, count;
  std::vector<Complex> matrices, rhs;
};

Batch random_batch(int n, int cases, int count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  Batch batch{n, cases, count, std::vector<Complex>(static_cast<std::size_t>(count) * n * n),
              std::vector<Complex>(static_cast<std::size_t>(count) * n * cases)};
  for (Complex& z : batch.matrices) z = Complex(uniform(random), uniform(random));
  for (Complex& z : batch.rhs) z = Complex(uniform(random), uniform(random));
  return batch;
}

/// X of every system by the batched LU on the device, and its info.
std::vector<Complex> solve_on_device(const Batch& batch, std::vector<int>& info) {
  geobem::DeviceBuffer<Complex> matrices(batch.matrices), rhs(batch.rhs);
  geobem::DeviceBuffer<int> d_info(std::vector<int>(batch.count, 0));
  geobem::CudaEvent ready(cudaEventDisableTiming);
  ready.record();
  BatchedLuSolver solver(batch.n, batch.cases, batch.count);
  solver.enqueue(matrices.data(), rhs.data(), batch.count, d_info.data(), ready.get());
  solver.synchronize();
  info = d_info.to_host();
  return rhs.to_host();
}

/// The backward error of right-hand side c of system f.
double backward_error(const Batch& batch, const std::vector<Complex>& x, int f, int c) {
  const long n = batch.n;
  return geobem::test::backward_error(batch.matrices.data() + f * n * n, x.data() + (f * batch.cases + c) * n,
                                      batch.rhs.data() + (f * batch.cases + c) * n, n);
}

TEST_F(BatchedLu, MatchesOpenBlasAcrossPanelSizes) {
  unsigned seed = 1;
  for (int n : {1, 5, 63, 64, 65, 130, 200})
    for (int cases : {1, 3}) {
      const Batch batch = random_batch(n, cases, 3, seed++);
      std::vector<int> info;
      const std::vector<Complex> x = solve_on_device(batch, info);
      for (int f = 0; f < batch.count; ++f) {
        EXPECT_EQ(info[f], 0) << "n " << n;
        std::vector<Complex> a(batch.matrices.begin() + f * n * n, batch.matrices.begin() + (f + 1) * n * n);
        std::vector<Complex> reference(batch.rhs.begin() + f * n * cases, batch.rhs.begin() + (f + 1) * n * cases);
        std::vector<int> pivots(n);
        int lapack_info = 0;
        zgesv_(&n, &cases, a.data(), &n, pivots.data(), reference.data(), &n, &lapack_info);
        ASSERT_EQ(lapack_info, 0);
        double diff = 0, scale = 0;
        for (int k = 0; k < n * cases; ++k) {
          diff = std::max(diff, abs(x[f * n * cases + k] - reference[k]));
          scale = std::max(scale, abs(reference[k]));
        }
        // Same pivots, other summation order: differences of the order of
        // κ(A)·ε (random matrices of these sizes: κ up to ~1e4).
        EXPECT_LT(diff / scale, 1e-10) << "n " << n << " cases " << cases << " system " << f;
        for (int c = 0; c < cases; ++c)
          EXPECT_LT(backward_error(batch, x, f, c), 20.0 * n * 2.2e-16) << "n " << n << " case " << c;
      }
    }
}

TEST_F(BatchedLu, ReportsTheFirstZeroColumnOfASingularSystem) {
  Batch batch = random_batch(100, 1, 3, 42);
  for (int i = 0; i < 100; ++i) batch.matrices[100 * 100 + i + 70 * 100] = Complex();  // system 1, column 70
  std::vector<int> info;
  const std::vector<Complex> x = solve_on_device(batch, info);
  EXPECT_EQ(info[0], 0);
  EXPECT_EQ(info[1], 71);
  EXPECT_EQ(info[2], 0);
  EXPECT_LT(backward_error(batch, x, 0, 0), 20.0 * 100 * 2.2e-16);
  EXPECT_LT(backward_error(batch, x, 2, 0), 20.0 * 100 * 2.2e-16);
}

}  // namespace

// The CUDA magnetic drivers against the OpenMP ones (same point kernel): a
// random prism list and a random layer in double to 1e-12 and single to
// 1e-5, and a capped device memory budget (several chunks) against one chunk.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "gpu/core/device.hpp"
#include "gpu/core/relative_difference.hpp"
#include "gpu/magnetic/magnetic.hpp"
#include "tests/support/backend_test.hpp"

namespace geobem::magnetic {
namespace {

class MagneticCuda : public ::geobem::test::CudaTest {};

void expect_close(const std::vector<double>& a, const std::vector<double>& b, std::size_t n, double tol) {
  for (int c = 0; c < 3; ++c)
    EXPECT_LT(largest_relative_difference(a.data() + c * n, b.data() + c * n, n), tol) << "component " << c;
}

/// A layer of 160 × 130 cells of 40 m with random heights (`seed`) over
/// -200…900 m, magnetized by induction above and by remanence below.
MagneticLayer random_layer(unsigned seed) {
  MagneticLayer layer;
  layer.layer.geometry = {160, 130, -3200.0, -2600.0, 40.0, 40.0, 0.0, 0.0, 0.0};
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> height(-200.0, 900.0);
  for (int c = 0; c < 160 * 130; ++c) layer.layer.surface.push_back(height(rng));
  layer.magnetization_above = induced_magnetization(0.01, {51000.0, 64.0, -5.0});
  layer.magnetization_below = {0.0, 0.0, 0.2};
  return layer;
}

std::vector<gravity::Station> stations(int n) {
  std::vector<gravity::Station> out;
  for (int k = 0; k < n; ++k) out.push_back({-3000.0 + 6000.0 * (k % 37) / 36, -2500.0 + 5000.0 * (k / 37) / 30, 150.0});
  return out;
}

TEST_F(MagneticCuda, PrismListMatchesCpu) {
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> centre(-2000, 2000), depth(-1500, -50), size(5, 300), m(-1, 1);
  std::vector<MagnetizedPrism> prisms;
  for (int i = 0; i < 4000; ++i) {
    const double e = centre(rng), n = centre(rng), top = depth(rng), a = size(rng), b = size(rng), c = size(rng);
    prisms.push_back({e - a / 2, e + a / 2, n - b / 2, n + b / 2, top - c, top, m(rng), m(rng), m(rng)});
  }
  const auto s = stations(37 * 31);
  ProgressReporter quiet("", 1, "", true);
  const auto cpu = magnetic_sums_cpu(prisms, s, gravity::Precision::Double, quiet);
  expect_close(magnetic_sums_cuda(prisms, s, gravity::Precision::Double, quiet), cpu, s.size(), 1e-12);
  expect_close(magnetic_sums_cuda(prisms, s, gravity::Precision::Single, quiet), cpu, s.size(), 1e-5);
  expect_close(magnetic_sums_cuda(prisms, s, gravity::Precision::Double, quiet, 128 * 1024), cpu, s.size(), 1e-12);
}

TEST_F(MagneticCuda, LayerMatchesCpu) {
  const MagneticLayer layer = random_layer(3);
  const auto s = stations(37 * 31);
  const std::int64_t cells = static_cast<std::int64_t>(layer.layer.cell_count());
  ProgressReporter quiet("", 1, "", true);
  const auto cpu = magnetic_layer_sums_cpu(layer, 0, cells, s, gravity::Precision::Double, quiet);
  expect_close(magnetic_layer_sums_cuda(layer, 0, cells, s, gravity::Precision::Double, quiet), cpu, s.size(), 1e-12);
  expect_close(magnetic_layer_sums_cuda(layer, 0, cells, s, gravity::Precision::Single, quiet), cpu, s.size(), 1e-5);
  expect_close(magnetic_layer_sums_cuda(layer, 0, cells, s, gravity::Precision::Double, quiet, 128 * 1024), cpu,
               s.size(), 1e-12);
}

TEST_F(MagneticCuda, RoundingSumsMatchCpuWithTheSameTiles) {
  // The estimate's tile bound over tiles of 32 neighbouring cells: the same
  // tiles on both devices, one chunk and a capped budget (chunks of whole tiles).
  const MagneticLayer layer = random_layer(4);
  const auto s = stations(37 * 31);
  const std::int64_t cells = static_cast<std::int64_t>(layer.layer.cell_count());
  ProgressReporter quiet("", 1, "", true);
  for (const gravity::Precision precision : {gravity::Precision::Double, gravity::Precision::Single}) {
    std::vector<double> cpu, one, chunked;
    magnetic_layer_sums_cpu(layer, 0, cells, s, precision, quiet, &cpu);
    magnetic_layer_sums_cuda(layer, 0, cells, s, precision, quiet, 0, &one);
    magnetic_layer_sums_cuda(layer, 0, cells, s, precision, quiet, 128 * 1024, &chunked);
    // The bounds of far sources come from the device's single-precision
    // approximations (rsqrtf, __fdividef) and the host's correctly rounded
    // operations, both within [1, 1 + 2e-5] of the double bound
    // (test_far_rounding.cpp): the sums of squares and fourth powers agree to
    // 1e-4; the tiles' own bounds are double on both sides.
    for (int row = 0; row < 2; ++row) {
      EXPECT_LE(largest_relative_difference(&one[row * s.size()], &cpu[row * s.size()], s.size()), 1e-4) << row;
      EXPECT_LE(largest_relative_difference(&chunked[row * s.size()], &one[row * s.size()], s.size()), 1e-12) << row;
    }
  }
}

}  // namespace
}  // namespace geobem::magnetic

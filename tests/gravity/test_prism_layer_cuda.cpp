// The CUDA prism-layer driver against the OpenMP one (same point kernels):
// all ten fields and g_z alone (its own register-capped kernel) in double to
// 1e-12, single precision to 1e-5, and a capped device memory budget that
// streams the heights and stations in several chunks against one chunk.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "gpu/core/device.hpp"
#include "gpu/core/relative_difference.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/prism_layer_forward.hpp"
#include "tests/support/backend_test.hpp"

namespace geobem::gravity {
namespace {

class PrismLayerCuda : public ::geobem::test::CudaTest {};

PrismLayer random_layer(std::int64_t ne, std::int64_t nn) {
  PrismLayer layer;
  layer.geometry = {ne, nn, 0.0, 0.0, 80.0, 95.0, 0.0, 2670.0, -1640.0};
  std::mt19937_64 rng(1124);
  std::uniform_real_distribution<double> height(-300.0, 1100.0);
  for (std::int64_t c = 0; c < ne * nn; ++c) layer.surface.push_back(height(rng));
  layer.surface[5] = std::numeric_limits<double>::quiet_NaN();
  return layer;
}

std::vector<Station> draped_stations(const PrismLayer& layer, int step) {
  std::vector<Station> stations;
  const LayerGeometry& g = layer.geometry;
  for (std::int64_t j = 0; j < g.shape_n; j += step)
    for (std::int64_t i = 0; i < g.shape_e; i += step) {
      const double s = layer.surface[i + g.shape_e * j];
      stations.push_back({i * g.spacing_e + 7.0, j * g.spacing_n - 11.0, (std::isnan(s) ? 0.0 : std::max(s, 0.0)) + 100.0});
    }
  return stations;
}

void expect_close(const std::vector<double>& a, const std::vector<double>& b, std::size_t n, unsigned mask, double tol) {
  for (int f = 0; f < 10; ++f)
    if (mask & (1u << f)) {
      EXPECT_LT(largest_relative_difference(a.data() + f * n, b.data() + f * n, n), tol) << "field " << f;
    }
}

TEST_F(PrismLayerCuda, MatchesCpuInDoubleAndSingle) {
  const PrismLayer layer = random_layer(150, 120);
  const auto stations = draped_stations(layer, 4);
  const std::int64_t cells = static_cast<std::int64_t>(layer.cell_count());
  ProgressReporter quiet("", 1, "", true);
  const unsigned all = field_mask(parse_fields("all")), gz = bit_g_z;
  for (unsigned mask : {all, gz}) {
    const auto cpu = layer_sums_cpu(layer, 0, cells, stations, mask, Precision::Double, quiet);
    const auto gpu = layer_sums_cuda(layer, 0, cells, stations, mask, Precision::Double, quiet);
    expect_close(gpu, cpu, stations.size(), mask, 1e-12);
    const auto single = layer_sums_cuda(layer, 0, cells, stations, mask, Precision::Single, quiet);
    expect_close(single, cpu, stations.size(), mask, 1e-5);
  }
}

TEST_F(PrismLayerCuda, ChunkedStreamingMatchesOneChunk) {
  const PrismLayer layer = random_layer(200, 150);
  const auto stations = draped_stations(layer, 3);
  const std::int64_t cells = static_cast<std::int64_t>(layer.cell_count());
  ProgressReporter quiet("", 1, "", true);
  const unsigned mask = bit_g_z | bit_g_zz;
  const auto whole = layer_sums_cuda(layer, 0, cells, stations, mask, Precision::Double, quiet);
  // 256 KiB: several chunks of heights and of stations.
  const auto chunked = layer_sums_cuda(layer, 0, cells, stations, mask, Precision::Double, quiet, 256 * 1024);
  expect_close(chunked, whole, stations.size(), mask, 1e-13);
}

TEST_F(PrismLayerCuda, RoundingSumsMatchCpuWithTheSameTiles) {
  // The estimate's tile bound over tiles of 32 neighbouring cells: the same
  // tiles on both devices, one chunk and a capped budget (chunks of whole
  // tiles), the face kernel's (g_z) and the whole prisms' (all ten).
  const PrismLayer layer = random_layer(150, 120);
  const auto stations = draped_stations(layer, 4);
  const std::int64_t cells = static_cast<std::int64_t>(layer.cell_count());
  ProgressReporter quiet("", 1, "", true);
  const std::size_t n = stations.size();
  for (const unsigned mask : {field_mask(parse_fields("all")), unsigned(bit_g_z)})
    for (const Precision precision : {Precision::Double, Precision::Single}) {
      std::vector<double> cpu, one, chunked;
      layer_sums_cpu(layer, 0, cells, stations, mask, precision, quiet, &cpu);
      layer_sums_cuda(layer, 0, cells, stations, mask, precision, quiet, 0, &one);
      layer_sums_cuda(layer, 0, cells, stations, mask, precision, quiet, 96 * 1024, &chunked);
      // The bounds of far sources come from the device's single-precision
      // approximations (rsqrtf, __fdividef) and the host's correctly rounded
      // operations, both within [1, 1 + 2e-5] of the double bound
      // (test_far_rounding.cpp): the sums of squares and fourth powers agree to
      // 1e-4; the tiles' own bounds are double on both sides.
      for (int row = 0; row < 6; ++row) {
        if (mask == unsigned(bit_g_z) && row / 2 != 1) continue;  // g_z alone sums the g group
        SCOPED_TRACE("row " + std::to_string(row) + ", mask " + std::to_string(mask));
        EXPECT_LE(largest_relative_difference(&one[row * n], &cpu[row * n], n), 1e-4);
        EXPECT_LE(largest_relative_difference(&chunked[row * n], &one[row * n], n), 1e-12);
      }
    }
}

}  // namespace
}  // namespace geobem::gravity

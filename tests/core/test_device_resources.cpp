// The device-resource layer of gpu/core against host arithmetic: contents
// round-trip through device buffers (synchronous, on a stream through pinned
// buffers, at offsets), cuFFT against a direct DFT, cuSOLVER against a known
// solution, events against each other, failures as exceptions. Tests that
// need a device skip without one; the size and range checks run everywhere.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include "gpu/core/cuda_event.hpp"
#include "gpu/core/cuda_stream.hpp"
#include "gpu/core/cufft_plan.hpp"
#include "gpu/core/device.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/device_memory_budget.hpp"
#include "gpu/core/library_handle.hpp"
#include "gpu/core/math_constants.hpp"
#include "gpu/core/pinned_buffer.hpp"
#include "tests/support/backend_test.hpp"

namespace {

using geobem::DeviceBuffer;
using geobem::PinnedBuffer;

class DeviceResources : public geobem::test::CudaTest {};

std::vector<double> random_values(std::size_t count, unsigned seed) {
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<double> value(-1e3, 1e3);
  std::vector<double> values(count);
  for (auto& v : values) v = value(random);
  return values;
}

TEST(DeviceBufferChecks, ZeroSizeBuffersNeedNoDevice) {
  DeviceBuffer<double> empty(0);
  EXPECT_TRUE(empty.empty());
  EXPECT_EQ(empty.data(), nullptr);
  EXPECT_EQ(empty.bytes(), 0u);
  empty.upload(nullptr, 0);
  empty.download(nullptr, 0);
  empty.fill_zero();
  EXPECT_TRUE(empty.to_host().empty());
  empty.resize_discard(0);
  EXPECT_EQ(empty.capacity(), 0u);
  PinnedBuffer<int> pinned(0);
  EXPECT_TRUE(pinned.empty());
  EXPECT_EQ(pinned.begin(), pinned.end());
}

TEST(DeviceBufferChecks, CopiesOutsideTheBufferThrowBeforeAnyCudaCall) {
  DeviceBuffer<double> empty;
  double value = 1.0;
  EXPECT_THROW(empty.upload(&value, 1), std::out_of_range);
  EXPECT_THROW(empty.download(&value, 1), std::out_of_range);
  EXPECT_THROW(empty.upload(&value, 0, 1), std::out_of_range);
  EXPECT_THROW(empty.upload_async(&value, 1, nullptr), std::out_of_range);
  EXPECT_THROW(empty.download_async(&value, 1, nullptr), std::out_of_range);
}

TEST(DeviceBufferChecks, AnOverflowingSizeIsALengthError) {
  EXPECT_THROW(DeviceBuffer<double>(std::numeric_limits<std::size_t>::max() / 4), std::length_error);
  EXPECT_THROW(PinnedBuffer<double>(std::numeric_limits<std::size_t>::max() / 4), std::length_error);
}

TEST_F(DeviceResources, ContentsRoundTripSynchronously) {
  const auto host = random_values(1000, 1);
  const DeviceBuffer<double> buffer(host);
  EXPECT_EQ(buffer.size(), host.size());
  EXPECT_EQ(buffer.to_host(), host);
  // A slice in, another out, at offsets.
  DeviceBuffer<double> sliced(host.size());
  sliced.fill_zero();
  sliced.upload(host.data() + 100, 300, 200);
  std::vector<double> back(400, -1.0);
  sliced.download(back.data(), 400, 100);
  for (std::size_t i = 0; i < 400; ++i) {
    const std::size_t element = 100 + i;  // elements 200..499 hold host[100..399], the rest zeros
    EXPECT_EQ(back[i], element >= 200 && element < 500 ? host[element - 100] : 0.0) << "element " << element;
  }
  EXPECT_THROW(sliced.download(back.data(), 2, 999), std::out_of_range);
}

TEST_F(DeviceResources, ContentsRoundTripOnAStreamThroughPinnedBuffers) {
  const auto host = random_values(1 << 16, 2);
  PinnedBuffer<double> staging(host.size()), back(host.size());
  std::copy(host.begin(), host.end(), staging.begin());
  const geobem::CudaStream stream;
  DeviceBuffer<double> buffer(host.size());
  buffer.upload_async(staging.data(), staging.size(), stream.get());
  buffer.download_async(back.data(), back.size(), stream.get());
  stream.synchronize();
  EXPECT_TRUE(stream.idle());
  EXPECT_TRUE(std::equal(host.begin(), host.end(), back.begin()));
}

TEST_F(DeviceResources, ResizeDiscardGrowsOnlyPastTheCapacity) {
  DeviceBuffer<int> buffer(100);
  const int* first = buffer.data();
  buffer.resize_discard(10);
  EXPECT_EQ(buffer.size(), 10u);
  EXPECT_EQ(buffer.capacity(), 100u);
  EXPECT_EQ(buffer.data(), first);
  buffer.resize_discard(1000);
  EXPECT_EQ(buffer.size(), 1000u);
  EXPECT_EQ(buffer.capacity(), 1000u);
  std::vector<int> values(1000);
  std::iota(values.begin(), values.end(), -500);
  buffer.upload(values.data(), values.size());
  EXPECT_EQ(buffer.to_host(), values);
  PinnedBuffer<int> pinned(4);
  pinned.resize_discard(2);
  EXPECT_EQ(pinned.capacity(), 4u);
  pinned.resize_discard(8);
  EXPECT_EQ(pinned.size(), 8u);
}

TEST_F(DeviceResources, MovesTransferOwnership) {
  const std::vector<float> host{1.5f, -2.5f, 3.25f};
  DeviceBuffer<float> source(host);
  const float* data = source.data();
  DeviceBuffer<float> moved(std::move(source));
  EXPECT_EQ(moved.data(), data);
  EXPECT_TRUE(source.empty());
  EXPECT_EQ(source.data(), nullptr);
  DeviceBuffer<float> assigned(7);
  assigned = std::move(moved);
  EXPECT_EQ(assigned.to_host(), host);
  geobem::CudaStream stream;
  const cudaStream_t handle = stream.get();
  geobem::CudaStream other(std::move(stream));
  EXPECT_EQ(other.get(), handle);
  EXPECT_EQ(stream.get(), nullptr);
}

TEST_F(DeviceResources, AFailedAllocationThrowsNamingTheBytesAndLeavesNoStickyError) {
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  const std::size_t too_many = 4 * total_bytes;
  try {
    DeviceBuffer<unsigned char> buffer(too_many);
    FAIL() << "allocated " << too_many << " bytes";
  } catch (const geobem::DeviceError& error) {
    EXPECT_NE(std::string(error.what()).find(std::to_string(too_many) + " bytes"), std::string::npos) << error.what();
  }
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  DeviceBuffer<double> reused(4);
  EXPECT_THROW(reused.resize_discard(too_many / sizeof(double)), geobem::DeviceError);
  EXPECT_TRUE(reused.empty());
  EXPECT_EQ(reused.capacity(), 0u);
}

TEST_F(DeviceResources, EventsTimeTheWorkBetweenThem) {
  const geobem::CudaStream stream;
  geobem::CudaEvent start, middle, end;
  DeviceBuffer<char> buffer(std::size_t{64} << 20);
  start.record(stream.get());
  buffer.fill_zero(stream.get());
  middle.record(stream.get());
  buffer.fill_zero(stream.get());
  end.record(stream.get());
  const float first = geobem::elapsed_ms(start, middle), second = geobem::elapsed_ms(middle, end),
              whole = geobem::elapsed_ms(start, end);
  EXPECT_GT(first, 0.0f);
  EXPECT_GT(second, 0.0f);
  EXPECT_NEAR(whole, first + second, 0.01f);  // event resolution about 0.5 µs
  geobem::CudaEvent unrecorded;
  EXPECT_THROW(geobem::elapsed_ms(unrecorded, end), geobem::DeviceError);
  (void)cudaGetLastError();  // the refused query is not sticky: later tests of this process start clean
}

TEST_F(DeviceResources, CufftPlanMatchesADirectDft) {
  constexpr int length = 24, batch = 3;
  const auto signal = random_values(length * batch, 3);
  DeviceBuffer<double> input(signal);
  DeviceBuffer<cufftDoubleComplex> spectrum(batch * (length / 2 + 1));
  const geobem::CufftPlan plan = geobem::CufftPlan::one_dimensional(length, CUFFT_D2Z, batch);
  GEOBEM_CHECK(cufftExecD2Z(plan.get(), input.data(), spectrum.data()));
  const auto result = spectrum.to_host();
  for (int b = 0; b < batch; ++b)
    for (int k = 0; k <= length / 2; ++k) {
      std::complex<double> direct = 0.0;
      for (int j = 0; j < length; ++j) direct += signal[b * length + j] * std::polar(1.0, -2.0 * geobem::kPi * j * k / length);
      const auto& z = result[b * (length / 2 + 1) + k];
      EXPECT_NEAR(z.x, direct.real(), 1e-10 * length * 1e3) << "transform " << b << ", k = " << k;
      EXPECT_NEAR(z.y, direct.imag(), 1e-10 * length * 1e3) << "transform " << b << ", k = " << k;
    }
  EXPECT_THROW(geobem::CufftPlan::one_dimensional(0, CUFFT_D2Z), geobem::DeviceError);
}

TEST_F(DeviceResources, CufftStridedPlanTransformsInterleavedSeries) {
  // Two series interleaved (stride 2, distance 1): each must equal its own
  // contiguous transform.
  constexpr int length = 16;
  const auto a = random_values(length, 4), b = random_values(length, 5);
  std::vector<double> interleaved(2 * length);
  for (int j = 0; j < length; ++j) interleaved[2 * j] = a[j], interleaved[2 * j + 1] = b[j];
  std::vector<double> stacked(a);
  stacked.insert(stacked.end(), b.begin(), b.end());
  const int bins = length / 2 + 1;
  DeviceBuffer<double> d_interleaved(interleaved), d_stacked(stacked);
  DeviceBuffer<cufftDoubleComplex> strided_out(2 * bins), contiguous_out(2 * bins);
  const auto strided = geobem::CufftPlan::one_dimensional_strided(length, CUFFT_D2Z, 2, 2, 1, 2, 1);
  const auto contiguous = geobem::CufftPlan::one_dimensional(length, CUFFT_D2Z, 2);
  GEOBEM_CHECK(cufftExecD2Z(strided.get(), d_interleaved.data(), strided_out.data()));
  GEOBEM_CHECK(cufftExecD2Z(contiguous.get(), d_stacked.data(), contiguous_out.data()));
  const auto s = strided_out.to_host(), c = contiguous_out.to_host();
  for (int series = 0; series < 2; ++series)
    for (int k = 0; k < bins; ++k) {
      EXPECT_NEAR(s[2 * k + series].x, c[series * bins + k].x, 1e-9);
      EXPECT_NEAR(s[2 * k + series].y, c[series * bins + k].y, 1e-9);
    }
}

TEST_F(DeviceResources, CusolverHandleSolvesAKnownSystem) {
  // A x = b with x known; A column-major, diagonally dominant.
  constexpr int n = 5;
  std::vector<double> a(n * n), x_known{1.0, -2.0, 0.5, 4.0, -0.25}, b(n, 0.0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) a[i + j * n] = i == j ? 10.0 + i : 1.0 / (1.0 + i + 2.0 * j);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) b[i] += a[i + j * n] * x_known[j];
  geobem::CusolverDnHandle solver;
  const geobem::CudaStream stream;
  solver.set_stream(stream.get());
  DeviceBuffer<double> d_a(a), d_b(b);
  DeviceBuffer<int> pivots(n), info(1);
  int work_size = 0;
  GEOBEM_CHECK(cusolverDnDgetrf_bufferSize(solver.get(), n, n, d_a.data(), n, &work_size));
  DeviceBuffer<double> work(work_size);
  GEOBEM_CHECK(cusolverDnDgetrf(solver.get(), n, n, d_a.data(), n, work.data(), pivots.data(), info.data()));
  GEOBEM_CHECK(
      cusolverDnDgetrs(solver.get(), CUBLAS_OP_N, n, 1, d_a.data(), n, pivots.data(), d_b.data(), n, info.data()));
  stream.synchronize();
  EXPECT_EQ(info.to_host()[0], 0);
  const auto x = d_b.to_host();
  for (int i = 0; i < n; ++i) EXPECT_NEAR(x[i], x_known[i], 1e-13 * 4.0) << "unknown " << i;
}

TEST_F(DeviceResources, CublasHandleComputesADotProductAndMoves) {
  const auto a = random_values(1000, 6), b = random_values(1000, 7);
  double host = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) host += a[i] * b[i];
  const DeviceBuffer<double> d_a(a), d_b(b);
  geobem::CublasHandle blas;
  double device = 0.0;  // the default pointer mode: the result lands in host memory
  GEOBEM_CHECK(cublasDdot(blas.get(), static_cast<int>(a.size()), d_a.data(), 1, d_b.data(), 1, &device));
  EXPECT_NEAR(device, host, 1e-12 * 1000 * 1e6);
  const cublasHandle_t handle = blas.get();
  geobem::CublasHandle moved(std::move(blas));
  EXPECT_EQ(moved.get(), handle);
  EXPECT_EQ(blas.get(), nullptr);
}

TEST_F(DeviceResources, ALibraryRefusalThrowsItsStatusName) {
  // A refusal the library documents: cublasSetVector returns
  // CUBLAS_STATUS_INVALID_VALUE for a stride incx <= 0 (cuBLAS manual,
  // cublasSetVector). (cuSOLVER's getrf_bufferSize, tried first, accepted
  // m = -1 on the H200 with CUDA 13.0, though its manual lists the refusal.)
  // The check names the library, the status and the call.
  const geobem::CublasHandle blas;
  const double host = 1.0;
  geobem::DeviceBuffer<double> device(1);
  try {
    GEOBEM_CHECK(cublasSetVector(1, sizeof(double), &host, 0, device.data(), 1));
    FAIL() << "a stride of 0 was accepted";
  } catch (const geobem::DeviceError& error) {
    EXPECT_EQ(std::string(error.what()).rfind("cuBLAS error CUBLAS_STATUS_INVALID_VALUE (7) in "
                                              "`cublasSetVector(1, sizeof(double), &host, 0, device.data(), 1)` at ",
                                              0),
              0u)
        << error.what();
  }
}

TEST_F(DeviceResources, TheBudgetIsFourFifthsOfTheFreeMemoryAtMost) {
  // The free memory may change between any two readings (other processes,
  // the driver), so the budget is held to what no interleaving moves: 4/5 of
  // the total, which bounds 4/5 of any free reading. The rule on a given
  // reading is memory_budget's (test_memory_budget).
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  const std::size_t budget = geobem::device_memory_budget();
  EXPECT_GT(budget, 0u);
  EXPECT_LE(budget, geobem::memory_budget(total_bytes));
  EXPECT_EQ(geobem::device_memory_budget(4096), 4096u);
}

}  // namespace

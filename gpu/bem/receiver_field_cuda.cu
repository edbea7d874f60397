// CUDA path of receiver_laplace: one thread block per (receiver, frequency);
// its threads integrate the elements with the shared point kernel
// (receiver_field.hpp) and add into the block's 3 components per load case
// in shared memory (block-local atomics), which one pass writes out.
#include <cuda_runtime.h>

#include <vector>

#include "gpu/bem/device_model.cuh"
#include "gpu/bem/receiver_field.hpp"
#include "gpu/core/cuda_check.hpp"
#include "gpu/core/device_buffer.hpp"

namespace geobem::bem {

namespace {

/// Threads per block: the element integrand takes as many registers as the
/// assembly's pair kernel, so the same 128.
constexpr int receiver_threads = 128;

/// Block (r, k): receiver r at frequency k (Laplace point s[k]) for every
/// load case. `boundary` is cases × F × n (LaplaceSolution's order), `field`
/// cases × F × 3R.
template <class Solution>
__global__ void __launch_bounds__(receiver_threads)
    receiver_kernel(ModelView mv, const QuadratureTable* table, const Vec3* receivers, int receiver_count,
                    const Complex* s, int frequencies, const Complex* boundary, Complex* field) {
  extern __shared__ Complex sums[];  // [case][component]
  const int r = blockIdx.x, k = blockIdx.y, cases = mv.load_case_count;
  for (int slot = threadIdx.x; slot < 3 * cases; slot += blockDim.x) sums[slot] = Complex();
  __syncthreads();
  const Vec3 x = receivers[r];
  for (int e = threadIdx.x; e < mv.element_count; e += blockDim.x) {
    DynamicIntegrand<Solution> integrand;
    if (!integrate_receiver_element(mv, x, e, s[k], *table, integrand)) continue;
    for (int c = 0; c < cases; ++c) {
      Complex u[3];
      add_receiver_element(mv, e, c, boundary + (static_cast<long>(c) * frequencies + k) * mv.unknown_count,
                           integrand, u);
      for (int i = 0; i < 3; ++i) {
        double* target = reinterpret_cast<double*>(sums + 3 * c + i);
        atomicAdd(target, u[i].re);
        atomicAdd(target + 1, u[i].im);
      }
    }
  }
  __syncthreads();
  for (int slot = threadIdx.x; slot < 3 * cases; slot += blockDim.x) {
    const int c = slot / 3, i = slot % 3;
    field[(static_cast<long>(c) * frequencies + k) * 3 * receiver_count + 3 * r + i] = sums[slot];
  }
}

}  // namespace

template <class Solution>
LaplaceSolution receiver_laplace_cuda(const BemModel& model, const std::vector<Vec3>& receivers,
                                      const CqSettings& settings, const LaplaceSolution& boundary) {
  LaplaceSolution field = zero_receiver_field(receivers.size(), boundary);
  const int frequencies = static_cast<int>(boundary.frequencies.size());
  if (receivers.empty() || frequencies == 0 || field.load_cases == 0) return field;
  std::vector<Complex> laplace_points;
  for (int l : boundary.frequencies) laplace_points.push_back(cq_laplace_point(settings, l));
  const DeviceModel dm(model);
  const DeviceBuffer<QuadratureTable> table(std::vector<QuadratureTable>{make_quadrature_table()});
  const DeviceBuffer<Vec3> device_receivers(receivers);
  const DeviceBuffer<Complex> s(laplace_points), device_boundary(boundary.values);
  DeviceBuffer<Complex> device_field(field.values.size());
  receiver_kernel<Solution><<<dim3(static_cast<unsigned>(receivers.size()), static_cast<unsigned>(frequencies)),
                    receiver_threads, sizeof(Complex) * 3 * field.load_cases>>>(
      dm.view, table.data(), device_receivers.data(), static_cast<int>(receivers.size()), s.data(), frequencies,
      device_boundary.data(), device_field.data());
  GEOBEM_CUDA_CHECK_LAUNCH();
  device_field.download(field.values.data(), field.values.size());
  return field;
}

template LaplaceSolution receiver_laplace_cuda<ElastodynamicFullSpace>(const BemModel&, const std::vector<Vec3>&,
                                                                       const CqSettings&, const LaplaceSolution&);

}  // namespace geobem::bem

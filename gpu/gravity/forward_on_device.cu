// forward_model_on_device(): forward_model() for prisms and stations that are
// already in device memory. The checks, the far-station extent and the
// non-finite diagnosis run as kernels and CUB reductions over the device
// arrays, sharing their predicates and messages with the host path
// (forward_checks.hpp); only counts and at most one offending prism or
// station are copied to the host.
#include <cuda_runtime.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/transform_iterator.h>

#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/device_memory_budget.hpp"
#include "gpu/core/device_error.hpp"
#include "gpu/gravity/forward_drivers.hpp"

namespace geobem::gravity {
namespace {

constexpr unsigned long long none = ~0ull;

/// first[0]: the lowest index of an invalid prism, first[1]: of an invalid station (`none` when all are valid).
__global__ void find_invalid(const Prism* prisms, std::size_t prism_count, const Station* stations,
                             std::size_t station_count, unsigned long long* first) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
       i < prism_count || i < station_count; i += stride) {
    if (i < prism_count && !valid_prism(prisms[i])) atomicMin(&first[0], static_cast<unsigned long long>(i));
    if (i < station_count && !valid_station(stations[i])) atomicMin(&first[1], static_cast<unsigned long long>(i));
  }
}

struct IsMassive {
  __device__ bool operator()(const Prism& p) const { return p.density != 0.0; }
};

struct ExtentOfPrism {
  __device__ ModelExtent operator()(const Prism& p) const {
    ModelExtent extent;
    extent.add_box(p.west, p.east, p.south, p.north, p.bottom, p.top);
    return extent;
  }
};

struct MergeExtents {
  __device__ ModelExtent operator()(ModelExtent a, const ModelExtent& b) const {
    a.merge(b);
    return a;
  }
};

/// One station's share of FarStations: counted when beyond the accuracy distance.
struct FarStation {
  ModelExtent model;
  __device__ FarStations operator()(const Station& s) const {
    const double distance = model.farthest_corner(s);
    FarStations far;
    if (far_field_relative_error(distance, model.smallest_side) > far_field_accuracy) {
      far.count = 1;
      far.farthest = distance;
    }
    return far;
  }
};

struct AddFarStations {
  __device__ FarStations operator()(FarStations a, const FarStations& b) const {
    a.count += b.count;
    a.farthest = fmax(a.farthest, b.farthest);
    return a;
  }
};

/// values[k·n + s] = scale[k]·sums[row[k]·n + s]; counts the stations where any value is not finite.
struct Rows {
  int row[field_count];
  double scale[field_count];
  int count;
};

__global__ void scale_rows(const double* sums, std::size_t n, Rows rows, double* values,
                           unsigned long long* non_finite_stations) {
  const std::size_t s = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (s >= n) return;
  bool finite = true;
  for (int k = 0; k < rows.count; ++k) {
    const double value = rows.scale[k] * sums[rows.row[k] * n + s];
    values[k * n + s] = value;
    finite &= isfinite(value);
  }
  if (!finite) atomicAdd(non_finite_stations, 1ull);
}

/// counts[k] (NaN on a prism edge or vertex) and counts[field_count + k] (any
/// other non-finite value) per output row k, as scaled_result() counts them.
__global__ void classify_non_finite(const double* values, std::size_t n, int row_count, const Prism* prisms,
                                    std::size_t prism_count, const Station* stations, unsigned long long* counts) {
  const std::size_t s = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (s >= n) return;
  bool any = false;
  for (int k = 0; k < row_count; ++k) any |= !isfinite(values[k * n + s]);
  if (!any) return;
  bool on_edge = false;
  for (std::size_t p = 0; p < prism_count && !on_edge; ++p) on_edge = on_prism_edge_or_vertex(prisms[p], stations[s]);
  for (int k = 0; k < row_count; ++k) {
    const double value = values[k * n + s];
    if (isfinite(value)) continue;
    atomicAdd(&counts[(isnan(value) && on_edge) ? k : field_count + k], 1ull);
  }
}

unsigned blocks_for(std::size_t n, unsigned threads) {
  return static_cast<unsigned>(std::min<std::size_t>((n + threads - 1) / threads, 1u << 20));
}

}  // namespace

void forward_model_on_device(const Prism* prisms, std::size_t prism_count, const Station* stations,
                             std::size_t station_count, const std::vector<Field>& fields,
                             const ForwardOptions& options, double* values) {
  if (fields.empty()) throw std::invalid_argument("forward_model: the field list is empty");
  if (options.parts != 1 || options.part != 0)
    throw std::invalid_argument("forward_model_on_device: arrays on one device are not split into parts");
  GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());  // the caller's streams may still be writing the inputs
  if (station_count == 0) return;
  constexpr unsigned threads = 256;

  // Checks: the first offending prism or station, named as on the host path.
  DeviceBuffer<unsigned long long> first(2);
  const unsigned long long nothing[2] = {none, none};
  first.upload(nothing, 2);
  find_invalid<<<blocks_for(std::max(prism_count, station_count), threads), threads>>>(
      prisms, prism_count, stations, station_count, first.data());
  GEOBEM_CUDA_CHECK_LAUNCH();
  unsigned long long found[2];
  first.download(found, 2);
  if (found[0] != none) throw std::invalid_argument(prism_problem(found[0]));
  if (found[1] != none) {
    Station station;
    GEOBEM_CUDA_CHECK(cudaMemcpy(&station, stations + found[1], sizeof station, cudaMemcpyDeviceToHost));
    throw std::invalid_argument(station_problem(station, found[1]));
  }

  const std::size_t needed = prism_count * sizeof(Prism) + 10 * station_count * sizeof(double);
  const std::size_t budget = device_memory_budget(options.device_memory_limit_bytes);
  if (needed > budget)
    throw DeviceError("forward_model_on_device: " + std::to_string(prism_count) + " prisms and " +
                      std::to_string(station_count) + " stations need " + std::to_string(needed) +
                      " bytes of device memory beside the inputs; the budget is " + std::to_string(budget) +
                      " bytes (pass host arrays: they are streamed in chunks)");

  // The massive prisms, in their order (CUB's selection is stable), and their extent.
  DeviceBuffer<Prism> massive(prism_count);
  DeviceBuffer<unsigned long long> massive_count(1);
  DeviceBuffer<ModelExtent> extent(1);
  DeviceBuffer<FarStations> far(1);
  std::size_t select_bytes = 0, extent_bytes = 0, far_bytes = 0;
  const auto extents = thrust::make_transform_iterator(static_cast<const Prism*>(massive.data()), ExtentOfPrism{});
  GEOBEM_CUDA_CHECK(cub::DeviceSelect::If(nullptr, select_bytes, prisms, massive.data(), massive_count.data(),
                                          prism_count, IsMassive{}));
  GEOBEM_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, extent_bytes, extents, extent.data(), prism_count,
                                              MergeExtents{}, ModelExtent{}));
  const auto far_of = thrust::make_transform_iterator(stations, FarStation{});
  GEOBEM_CUDA_CHECK(
      cub::DeviceReduce::Reduce(nullptr, far_bytes, far_of, far.data(), station_count, AddFarStations{}, FarStations{}));
  DeviceBuffer<unsigned char> scratch(std::max({select_bytes, extent_bytes, far_bytes, std::size_t(1)}));
  GEOBEM_CUDA_CHECK(cub::DeviceSelect::If(scratch.data(), select_bytes, prisms, massive.data(), massive_count.data(),
                                          prism_count, IsMassive{}));
  unsigned long long massive_prisms = 0;
  massive_count.download(&massive_prisms, 1);
  ModelExtent model;
  if (massive_prisms > 0) {
    GEOBEM_CUDA_CHECK(cub::DeviceReduce::Reduce(scratch.data(), extent_bytes, extents, extent.data(), massive_prisms,
                                                MergeExtents{}, ModelExtent{}));
    extent.download(&model, 1);
  }
  if (options.precision == Precision::Double && model.measurable()) {
    const auto far_stations = thrust::make_transform_iterator(stations, FarStation{model});
    GEOBEM_CUDA_CHECK(cub::DeviceReduce::Reduce(scratch.data(), far_bytes, far_stations, far.data(), station_count,
                                                AddFarStations{}, FarStations{}));
    FarStations counted;
    far.download(&counted, 1);
    warn_far_stations(model, counted);
  }

  // The kernels, then the rows asked for, scaled to their units.
  const unsigned mask = field_mask(fields);
  ProgressReporter progress("gravity prisms (cuda)", massive_prisms * station_count, "source-station pairs",
                            options.quiet);
  DeviceBuffer<double> sums(10 * station_count);
  forward_cuda_resident(massive.data(), massive_prisms, stations, station_count, mask, options.precision, progress,
                        sums.data(), CudaTuning{});
  progress.finish();
  Rows rows{};
  for (int f = 0; f < field_count; ++f)
    if (mask & (1u << f)) {
      rows.row[rows.count] = f;
      rows.scale[rows.count] = field_scale(static_cast<Field>(f));
      ++rows.count;
    }
  DeviceBuffer<unsigned long long> counts(2 * field_count + 1);
  GEOBEM_CUDA_CHECK(cudaMemset(counts.data(), 0, counts.size() * sizeof(unsigned long long)));
  scale_rows<<<blocks_for(station_count, threads), threads>>>(sums.data(), station_count, rows, values,
                                                              counts.data() + 2 * field_count);
  GEOBEM_CUDA_CHECK_LAUNCH();
  unsigned long long non_finite_stations = 0;
  counts.download(&non_finite_stations, 1, 2 * field_count);
  if (non_finite_stations == 0) return;
  classify_non_finite<<<blocks_for(station_count, threads), threads>>>(values, station_count, rows.count,
                                                                       massive.data(), massive_prisms, stations,
                                                                       counts.data());
  GEOBEM_CUDA_CHECK_LAUNCH();
  const std::vector<unsigned long long> counted = counts.to_host();
  for (int k = 0; k < rows.count; ++k)
    warn_non_finite(static_cast<Field>(rows.row[k]), counted[k], counted[field_count + k], options.precision);
}

}  // namespace geobem::gravity

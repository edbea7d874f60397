// forward_model_on_device(): forward_model() for prisms and stations that are
// already in device memory, read there in place. The checks, the model's
// extent, the field sums, the rounding sums, the search for stations on the
// model and the estimates' summary run as kernels and CUB reductions over the
// device arrays, with the host path's formulas (forward_checks.hpp,
// rounding_estimate.hpp, station_contact.hpp); the host gets counts, the
// model's box and the summary behind the warnings. Only where stations lie on
// the closed boundary of a prism do those stations and the prisms containing
// them come to the host, for the octant analysis (analyse_octants), and their
// shifts and NaNs go back: traffic in proportion to those stations.
#include <cuda_runtime.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <atomic>
#include <climits>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/device_error.hpp"
#include "gpu/core/device_memory_budget.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/resource_error.hpp"
#include "gpu/core/warning.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/prism_shapes.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/gravity/source_fields.hpp"
#include "gpu/gravity/station_contact.hpp"
#include "gpu/potential/kernel_pair.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cuda.cuh"

namespace geobem::gravity {
namespace {

constexpr unsigned long long none = ~0ull;
constexpr unsigned threads = 256;

/// Bytes the last call copied from the device to the host (the test hook).
std::atomic<std::size_t> host_bytes{0};

/// Copies count values from the device to the host, counted in host_bytes.
template <typename T>
void fetch(T* host, const T* device, std::size_t count) {
  if (count == 0) return;
  GEOBEM_CUDA_CHECK(cudaMemcpy(host, device, count * sizeof(T), cudaMemcpyDeviceToHost));
  host_bytes += count * sizeof(T);
}

/// Runs a CUB call (temporary storage pointer, its size) twice: for the
/// size, then with scratch of that size.
template <typename Call>
void with_scratch(const Call& call) {
  std::size_t bytes = 0;
  GEOBEM_CUDA_CHECK(call(nullptr, bytes));
  DeviceBuffer<unsigned char> scratch(std::max<std::size_t>(bytes, 1));
  GEOBEM_CUDA_CHECK(call(scratch.data(), bytes));
}

unsigned blocks_for(std::size_t n) {
  return static_cast<unsigned>(std::min<std::size_t>((n + threads - 1) / threads, 1u << 20));
}

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

/// The bounds of a set of boxes (empty: inverted, as forward_model's ModelBox).
struct Extent {
  double low[3], high[3];
};

struct ExtentOfPrism {
  __device__ Extent operator()(const Prism& p) const { return {{p.west, p.south, p.bottom}, {p.east, p.north, p.top}}; }
};

struct MergeExtents {
  __device__ Extent operator()(Extent a, const Extent& b) const {
    for (int k = 0; k < 3; ++k) {
      a.low[k] = fmin(a.low[k], b.low[k]);
      a.high[k] = fmax(a.high[k], b.high[k]);
    }
    return a;
  }
};

/// Counts the prisms on whose closed boundary the station lies.
struct ContactKernel {
  static constexpr int outputs = 1;
  __device__ bool wanted(int) const { return true; }
  __device__ void add(const Prism& p, const Station& s, double acc[1]) const {
    if (on_box_boundary(p.west, p.east, p.south, p.north, p.bottom, p.top, s)) acc[0] += 1;
  }
};

/// Adds Kernel's rows over the device-resident prisms[0, count) at the
/// device-resident stations[0, ns) to sums (device, Kernel::outputs rows of
/// ns), through the launcher (station_sums_cuda.cuh) in the launch shape S,
/// with the kernel's tile bound where it has one (its summaries on the
/// device: 1/32 of a summary per prism).
template <typename S = potential::Shape<128, 0>, typename Kernel>
void resident_tile_sums(const Kernel& kernel, const Prism* prisms, std::int64_t count, const Station* stations,
                        std::size_t ns, double* sums, ProgressReporter* progress) {
  constexpr bool bounded = potential::has_tile_bound<Kernel>::value;
  const auto view_from = [&](std::int64_t first) { return potential::ListView<Prism>{prisms + first}; };
  DeviceBuffer<potential::tile_summary_t<Kernel>> tiles(
      bounded ? static_cast<std::size_t>((count + potential::bound_tile_sources - 1) / potential::bound_tile_sources)
              : 0);
  if constexpr (bounded) potential::summarize_tiles(view_from(0), count, kernel, tiles.data());
  potential::launch_station_sums<S::block, S::max_registers>(view_from, count, kernel,
                                                             bounded ? tiles.data() : nullptr, stations, ns, sums,
                                                             potential::LaunchOptions{}.blocks_per_sm, progress);
}

/// The fields of `mask` in Real and their rounding sums as forward_cuda
/// with its rounding rows (double: two passes, the fields in their own
/// default shape; single: one pass), in the host path's default shapes:
/// sums holds the ten field rows, then the six rounding rows.
template <typename Real, bool GzOnly>
void resident_field_sums(unsigned mask, const Prism* prisms, std::int64_t count, const Station* stations,
                         std::size_t ns, double* sums, ProgressReporter& progress) {
  if constexpr (rounding_pass_apart<Real, Prism>) {
    resident_tile_sums<DefaultPrismShape<false, GzOnly, false>>(FieldSumsKernel<Real, GzOnly>{mask}, prisms, count,
                                                                stations, ns, sums, &progress);
    resident_tile_sums<RoundingPassShape>(FieldRoundingKernel<Real, GzOnly>{}, prisms, count, stations, ns,
                                          sums + field_count * ns, nullptr);
  } else {
    using Pair = potential::KernelPair<FieldSumsKernel<Real, GzOnly>, FieldRoundingKernel<Real, GzOnly>>;
    resident_tile_sums<DefaultPrismShape<true, GzOnly, true>>(Pair{{mask}, {}}, prisms, count, stations, ns, sums,
                                                              &progress);
  }
}

/// Whether a station lies in a closed box.
struct InBox {
  Box box;
  __device__ unsigned long long operator()(const Station& p) const {
    return box[0] <= p.easting && p.easting <= box[1] && box[2] <= p.northing && p.northing <= box[3] &&
           box[4] <= p.upward && p.upward <= box[5];
  }
};

/// The station indices whose contact count is positive.
struct Touches {
  const double* contacts;
  __device__ bool operator()(unsigned long long s) const { return contacts[s] > 0; }
};

__global__ void gather_stations(const Station* stations, const unsigned long long* index, std::size_t count,
                                Station* out) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < count) out[i] = stations[index[i]];
}

/// flags[p]: whether the closed box of prism p contains one of the stations
/// (list_station_limits sums the octants of every such prism).
__global__ void flag_containing(const Prism* prisms, std::size_t prism_count, const Station* stations,
                                std::size_t station_count, char* flags) {
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (p >= prism_count) return;
  const Prism b = prisms[p];
  char found = 0;
  for (std::size_t s = 0; s < station_count && !found; ++s) {
    const Station& x = stations[s];
    found = b.west <= x.easting && x.easting <= b.east && b.south <= x.northing && x.northing <= b.north &&
            b.bottom <= x.upward && x.upward <= b.top;
  }
  flags[p] = found;
}

__global__ void apply_limits(const StationLimit<1>* limits, std::size_t count, unsigned mask, double* sums,
                             std::size_t n) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i < count) apply_station_limit(limits[i], mask, sums, n);
}

/// The rows asked for, in their order: raw row and field_scale.
struct Rows {
  int row[field_count];
  double scale[field_count];
  int group[field_count];
  int count;
};

/// values[k·n + s] = scale[k]·sums[row[k]·n + s].
__global__ void scale_rows(const double* sums, std::size_t n, Rows rows, double* values) {
  const std::size_t s = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (s >= n) return;
  for (int k = 0; k < rows.count; ++k) values[k * n + s] = rows.scale[k] * sums[rows.row[k] * n + s];
}

/// A row's largest |finite value| and its count of non-finite values.
struct RowStats {
  double largest;
  unsigned long long non_finite;
};

struct StatsOfValue {
  __device__ RowStats operator()(double v) const {
    return isfinite(v) ? RowStats{fabs(v), 0ull} : RowStats{0.0, 1ull};
  }
};

struct MergeStats {
  __device__ RowStats operator()(RowStats a, const RowStats& b) const {
    return {fmax(a.largest, b.largest), a.non_finite + b.non_finite};
  }
};

/// AccuracySummary over a range of stations, in a form CUB can merge.
struct StationsAccuracy {
  unsigned long long missing, defined, worst_station;
  int worst_field;
  double worst, best;
};

/// One station's StationsAccuracy from its values and rounding sums
/// (complete_estimates and assess_accuracy: rounding_bound, station_estimates).
struct StationAccuracy {
  const double* values;
  const double* bounds;  // RoundingKernel rows (2 per group)
  std::size_t n;
  Rows rows;
  double survey_scale[field_count];
  Precision precision;
  double goal;
  __device__ StationsAccuracy operator()(unsigned long long s) const {
    double at[field_count], absolute[field_count], estimate[field_count];
    for (int k = 0; k < rows.count; ++k) {
      const int g = rows.group[k];
      at[k] = values[k * n + s];
      absolute[k] = rows.scale[k] * rounding_bound(bounds[2 * g * n + s], bounds[(2 * g + 1) * n + s], precision);
    }
    int field = 0;
    const double worst = station_estimates(rows.count, rows.group, at, absolute, survey_scale, estimate, &field);
    if (worst < 0) return {0ull, 0ull, none, 0, -1.0, HUGE_VAL};
    return {worst > goal ? 1ull : 0ull, 1ull, s, field, worst, worst};
  }
};

/// Sums the counts, keeps the smallest best and the largest worst (the
/// first station on a tie, as assess_accuracy's loop).
struct MergeAccuracy {
  __device__ StationsAccuracy operator()(const StationsAccuracy& a, const StationsAccuracy& b) const {
    const bool b_worse = b.worst > a.worst || (b.worst == a.worst && b.worst_station < a.worst_station);
    const StationsAccuracy& w = b_worse ? b : a;
    return {a.missing + b.missing, a.defined + b.defined, w.worst_station, w.worst_field, w.worst,
            fmin(a.best, b.best)};
  }
};

/// The limits at the stations on the closed boundary of a massive prism
/// (station_contact.hpp), their station indices those of the whole list;
/// none, at the cost of one pass over the stations, where no station lies in
/// `model_box`, the massive prisms' box.
StationLimits<1> limits_on_device(const Prism* massive, std::size_t massive_count, const Station* stations,
                                  std::size_t n, const Box& model_box) {
  // None where no station lies in the model's closed box: no contact pass.
  DeviceBuffer<unsigned long long> in_box(1);
  const auto inside = thrust::make_transform_iterator(stations, InBox{model_box});
  with_scratch([&](void* t, std::size_t& b) {
    return cub::DeviceReduce::Sum(t, b, inside, in_box.data(), static_cast<int>(n));
  });
  unsigned long long stations_in_box = 0;
  fetch(&stations_in_box, in_box.data(), 1);
  if (stations_in_box == 0) return {};
  DeviceBuffer<double> contacts(n);
  GEOBEM_CUDA_CHECK(cudaMemset(contacts.data(), 0, n * sizeof(double)));
  resident_tile_sums(ContactKernel{}, massive, static_cast<std::int64_t>(massive_count), stations, n,
                     contacts.data(), nullptr);
  DeviceBuffer<unsigned long long> index(n), index_count(1);
  const thrust::counting_iterator<unsigned long long> all(0);
  with_scratch([&](void* t, std::size_t& b) {
    return cub::DeviceSelect::If(t, b, all, index.data(), index_count.data(), static_cast<int>(n),
                                 Touches{contacts.data()});
  });
  unsigned long long flagged = 0;
  fetch(&flagged, index_count.data(), 1);
  if (flagged == 0) return {};

  // The flagged stations and the prisms containing one of them, to the host.
  DeviceBuffer<Station> touching(flagged);
  gather_stations<<<blocks_for(flagged), threads>>>(stations, index.data(), flagged, touching.data());
  GEOBEM_CUDA_CHECK_LAUNCH();
  DeviceBuffer<char> flags(massive_count);
  flag_containing<<<blocks_for(massive_count), threads>>>(massive, massive_count, touching.data(), flagged,
                                                          flags.data());
  GEOBEM_CUDA_CHECK_LAUNCH();
  DeviceBuffer<Prism> containing(massive_count);
  DeviceBuffer<unsigned long long> containing_count(1);
  with_scratch([&](void* t, std::size_t& b) {
    return cub::DeviceSelect::Flagged(t, b, massive, flags.data(), containing.data(), containing_count.data(),
                                      static_cast<int>(massive_count));
  });
  unsigned long long prisms_near = 0;
  fetch(&prisms_near, containing_count.data(), 1);
  std::vector<Station> near_stations(flagged);
  std::vector<unsigned long long> near_index(flagged);
  std::vector<Prism> near_prisms(prisms_near);
  fetch(near_stations.data(), touching.data(), flagged);
  fetch(near_index.data(), index.data(), flagged);
  fetch(near_prisms.data(), containing.data(), prisms_near);

  std::vector<Box> boxes;
  std::vector<std::array<double, 1>> densities;
  for (const Prism& p : near_prisms) {
    boxes.push_back({p.west, p.east, p.south, p.north, p.bottom, p.top});
    densities.push_back({p.density});
  }
  StationLimits<1> limits = list_station_limits<1>(boxes, densities, near_stations);
  for (StationLimit<1>& limit : limits) limit.station = near_index[limit.station];
  return limits;
}

}  // namespace

std::size_t forward_model_on_device_host_bytes() { return host_bytes; }

void forward_model_on_device(const Prism* prisms, std::size_t prism_count, const Station* stations,
                             std::size_t station_count, const std::vector<Field>& fields,
                             const ForwardOptions& options, double* values) {
  if (fields.empty()) throw InputError("forward_model: the field list is empty");
  if (options.parts != 1 || options.part != 0)
    throw InputError("forward_model_on_device: arrays on one device are not split into parts");
  if (prism_count > INT_MAX || station_count > INT_MAX)
    throw InputError("forward_model_on_device: " + std::to_string(prism_count) + " prisms and " +
                     std::to_string(station_count) + " stations; at most " + std::to_string(INT_MAX) +
                     " of each on one device (pass host arrays: they are streamed in chunks)");
  GEOBEM_CUDA_CHECK(cudaDeviceSynchronize());  // the caller's streams may still be writing the inputs
  host_bytes = 0;
  const std::size_t n = station_count;

  // Checks: the first offending prism or station, named as on the host path.
  DeviceBuffer<unsigned long long> first(2);
  const unsigned long long nothing[2] = {none, none};
  first.upload(nothing, 2);
  if (prism_count > 0 || n > 0) {
    find_invalid<<<blocks_for(std::max(prism_count, n)), threads>>>(prisms, prism_count, stations, n, first.data());
    GEOBEM_CUDA_CHECK_LAUNCH();
  }
  unsigned long long found[2];
  fetch(found, first.data(), 2);
  if (found[0] != none) throw InputError(prism_problem(found[0]));
  if (found[1] != none) {
    Station station;
    fetch(&station, stations + found[1], 1);
    throw InputError(station_problem(station, found[1]));
  }
  if (n == 0) return;

  const std::size_t rows_per_station = field_count + 2 * rounding_groups + 2;  // sums, rounding, contacts, index
  const std::size_t needed = prism_count * (sizeof(Prism) + 1) + rows_per_station * n * sizeof(double);
  const std::size_t budget = device_memory_budget(options.device_memory_limit_bytes);
  if (needed > budget)
    throw ResourceError("forward_model_on_device: " + std::to_string(prism_count) + " prisms and " +
                        std::to_string(n) + " stations need " + std::to_string(needed) +
                        " bytes of device memory beside the inputs; the budget is " + std::to_string(budget) +
                        " bytes (pass host arrays: they are streamed in chunks)");

  // The massive prisms, in their order (CUB's selection is stable), and their box.
  DeviceBuffer<Prism> massive(std::max<std::size_t>(prism_count, 1));
  DeviceBuffer<unsigned long long> massive_count(1);
  with_scratch([&](void* t, std::size_t& b) {
    return cub::DeviceSelect::If(t, b, prisms, massive.data(), massive_count.data(), static_cast<int>(prism_count),
                                 IsMassive{});
  });
  unsigned long long massive_prisms = 0;
  fetch(&massive_prisms, massive_count.data(), 1);
  Extent extent{{HUGE_VAL, HUGE_VAL, HUGE_VAL}, {-HUGE_VAL, -HUGE_VAL, -HUGE_VAL}};
  if (massive_prisms > 0) {
    DeviceBuffer<Extent> d_extent(1);
    const auto boxes = thrust::make_transform_iterator(static_cast<const Prism*>(massive.data()), ExtentOfPrism{});
    with_scratch([&](void* t, std::size_t& b) {
      return cub::DeviceReduce::Reduce(t, b, boxes, d_extent.data(), static_cast<int>(massive_prisms),
                                       MergeExtents{}, extent);
    });
    fetch(&extent, d_extent.data(), 1);
  }
  const Box model_box{extent.low[0], extent.high[0], extent.low[1], extent.high[1], extent.low[2], extent.high[2]};

  // The fields' raw sums and the rounding sums, as forward_model's drivers.
  const unsigned mask = field_mask(fields);
  const bool single = options.precision == Precision::Single, gz_only = mask == unsigned(bit_g_z);
  DeviceBuffer<double> pass_sums((field_count + 2 * rounding_groups) * n);
  double* const sums = pass_sums.data();
  const double* const bounds = sums + field_count * n;
  GEOBEM_CUDA_CHECK(cudaMemset(sums, 0, pass_sums.size() * sizeof(double)));
  ProgressReporter progress("gravity prisms (cuda)", massive_prisms * n, "source-station pairs", options.quiet);
  const auto count = static_cast<std::int64_t>(massive_prisms);
  const Prism* sources = massive.data();
  if (single && gz_only)
    resident_field_sums<float, true>(mask, sources, count, stations, n, sums, progress);
  else if (single)
    resident_field_sums<float, false>(mask, sources, count, stations, n, sums, progress);
  else if (gz_only)
    resident_field_sums<double, true>(mask, sources, count, stations, n, sums, progress);
  else
    resident_field_sums<double, false>(mask, sources, count, stations, n, sums, progress);
  progress.finish();

  // The survey side's limits at stations on the model (station_contact.hpp).
  const StationLimits<1> limits = limits_on_device(massive.data(), massive_prisms, stations, n, model_box);
  if (!limits.empty()) {
    DeviceBuffer<StationLimit<1>> d_limits(limits);
    apply_limits<<<blocks_for(limits.size()), threads>>>(d_limits.data(), limits.size(), mask, sums, n);
    GEOBEM_CUDA_CHECK_LAUNCH();
  }

  // The rows asked for, scaled to their units, and their non-finite values
  // (finish_result's warnings).
  Rows rows{};
  std::vector<const char*> names;
  for (int f = 0; f < field_count; ++f)
    if (mask & (1u << f)) {
      rows.row[rows.count] = f;
      rows.scale[rows.count] = field_scale(static_cast<Field>(f));
      rows.group[rows.count] = f == 0 ? group_potential : (f <= 3 ? group_g : group_tensor);
      names.push_back(field_name(static_cast<Field>(f)));
      ++rows.count;
    }
  scale_rows<<<blocks_for(n), threads>>>(sums, n, rows, values);
  GEOBEM_CUDA_CHECK_LAUNCH();
  RowStats stats[field_count];
  DeviceBuffer<RowStats> d_stats(1);
  for (int k = 0; k < rows.count; ++k) {
    const auto row = thrust::make_transform_iterator(static_cast<const double*>(values) + k * n, StatsOfValue{});
    with_scratch([&](void* t, std::size_t& b) {
      return cub::DeviceReduce::Reduce(t, b, row, d_stats.data(), static_cast<int>(n), MergeStats{},
                                       RowStats{0.0, 0ull});
    });
    fetch(&stats[k], d_stats.data(), 1);
    // NaN where a tensor term has no limit; any other non-finite value is an overflow.
    std::size_t on_edge = 0, inside = 0;
    const int row_index = rows.row[k];
    for (const StationLimit<1>& limit : limits) {
      if (row_index < 4 || !((limit.undefined[0] >> (row_index - 4)) & 1u)) continue;
      ++((limit.interior[0] >> (row_index - 4)) & 1u ? inside : on_edge);
    }
    warn_non_finite(names[k], "densities", on_edge, inside, stats[k].non_finite - on_edge - inside,
                    options.precision);
  }

  // The rounding estimates' summary (complete_estimates, assess_accuracy).
  StationAccuracy accuracy{values, bounds, n, rows, {}, options.precision, accuracy_goal(options.precision)};
  for (int k = 0; k < rows.count; ++k)
    for (int j = 0; j < rows.count; ++j)
      if (rows.group[j] == rows.group[k]) accuracy.survey_scale[k] = std::max(accuracy.survey_scale[k], stats[j].largest);
  DeviceBuffer<StationsAccuracy> d_summary(1);
  const auto per_station =
      thrust::make_transform_iterator(thrust::counting_iterator<unsigned long long>(0), accuracy);
  with_scratch([&](void* t, std::size_t& b) {
    return cub::DeviceReduce::Reduce(t, b, per_station, d_summary.data(), static_cast<int>(n), MergeAccuracy{},
                                     StationsAccuracy{0ull, 0ull, none, 0, -1.0, HUGE_VAL});
  });
  StationsAccuracy reduced;
  fetch(&reduced, d_summary.data(), 1);
  AccuracySummary summary;
  summary.missing = reduced.missing;
  summary.any_defined = reduced.defined > 0;
  summary.worst = reduced.worst;
  summary.best_station = reduced.best;
  summary.worst_field = static_cast<std::size_t>(reduced.worst_field);
  summary.worst_station = reduced.worst_station == none ? 0 : reduced.worst_station;
  double distance = 0;
  if (summary.missing > 0) {
    Station worst;
    fetch(&worst, stations + summary.worst_station, 1);
    distance = distances_from_box(model_box, {worst})[0];
  }
  for (const std::string& text : accuracy_warnings(summary, names, options.precision, options.force, distance))
    warn(text);
}

}  // namespace geobem::gravity

#pragma once
// CUDA driver of the two-phase cubature for any GEOBEM_HD integrand functor
// (include from a .cu file).
//
// Phase one (Arumugam et al. 2013, section III.A): every live region gets one
// warp, its lanes spread over the Genz–Malik rule's points; the parent's
// result enters the children's errors, the totals are reduced, the regions
// within their share retire and the rest are compacted and split, all on the
// device (only the sums and the kept count come back per generation), until
// ≥ min_regions regions live. Those regions stay on the device for phase two.
// Phase two (section III.B): a persistent grid; each thread block takes
// phase-one regions of the rank's chunks from an atomic counter and refines
// one at a time (the block's threads over the points of two children),
// within the region's error budget and evaluation cap, splitting its
// largest-error subregion, with up to kSharedRecords subregions in shared
// memory. When the shared list is full its smallest-error record spills to
// the block's slice of global memory; when that slice is full too the record
// is retired (its estimate and error stay in the totals, it is not refined again).
// Only the chunk sums (kPhaseTwoChunk) and two counters come back to the host.
// The kernels that evaluate the integrand have their bodies in __device__
// templates (apply_rule_regions, refine_regions): NVRTC compiles this file's
// device part around a user's expression (gpu/expression), and the drivers
// launch that module's kernels through the same CubatureKernels interface
// (StaticCubatureKernels here).
#if !defined(__CUDACC_RTC__)  // host drivers: nvcc only
#include <cuda_runtime.h>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/cuda_stream.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/device_memory_budget.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/quadrature/cubature.hpp"
#endif
#include "gpu/quadrature/cubature_phase_two_shares.hpp"
#include "gpu/quadrature/final_region_sums.hpp"
#include "gpu/quadrature/genz_malik_degree9_rule.hpp"
#include "gpu/quadrature/genz_malik_rule.hpp"

namespace geobem::quadrature::cuda_detail {

constexpr int kBlockThreads = 128;   // a power of two: tree reductions below
constexpr int kSharedRecords = 64;

/// Scratch a block needs to apply the rule to up to two regions at once.
struct RuleScratch {
  GenzMalikValues values[2];
  double reduce[4 * kBlockThreads];
};

/// Applies the rule to regions[0..m) (m ≤ 2, in shared memory) with the whole block.
template <class Integrand>
__device__ void block_apply_rule(const Integrand& f, int n, const GenzMalikWeights& w, CubatureRegion* regions, int m,
                                 RuleScratch& s) {
  const int points = genz_malik_point_count(n);
  const int t = threadIdx.x;
  double pair[2] = {0.0, 0.0}, vertex[2] = {0.0, 0.0};
  double x[kMaxCubatureDim];
  for (int k = t; k < m * points; k += kBlockThreads) {
    const int c = k / points, p = k % points;
    genz_malik_point(p, n, regions[c], x);
    const double v = f(x, n);
    int slot = 0;
    switch (genz_malik_class(p, n, &slot)) {
      case GenzMalikClass::Center: s.values[c].center = v; break;
      case GenzMalikClass::Axis2: s.values[c].axis2[slot] = v; break;
      case GenzMalikClass::Axis4: s.values[c].axis4[slot] = v; break;
      case GenzMalikClass::Pair: pair[c] += v; break;
      case GenzMalikClass::Vertex: vertex[c] += v; break;
    }
  }
  for (int c = 0; c < 2; ++c) {
    s.reduce[(2 * c) * kBlockThreads + t] = pair[c];
    s.reduce[(2 * c + 1) * kBlockThreads + t] = vertex[c];
  }
  __syncthreads();
  for (int stride = kBlockThreads / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      for (int j = 0; j < 2 * m; ++j) s.reduce[j * kBlockThreads + t] += s.reduce[j * kBlockThreads + t + stride];
    __syncthreads();
  }
  if (t < m) {
    s.values[t].pair_sum = s.reduce[(2 * t) * kBlockThreads];
    s.values[t].vertex_sum = s.reduce[(2 * t + 1) * kBlockThreads];
    genz_malik_combine(n, w, s.values[t], regions[t]);
  }
  __syncthreads();
}

/// The degree-9 rule on one region with the whole block (apply_degree9's
/// sums, in another order): *sum and *abs_sum are valid in every thread.
template <class Integrand>
__device__ void block_apply_degree9(const Integrand& f, int n, const Degree9Rule& rule, const CubatureRegion& region,
                                    RuleScratch& s, double* sum, double* abs_sum) {
  const int t = threadIdx.x;
  const long count = degree9_point_count(n);
  double part = 0.0, absolute = 0.0;
  double x[kMaxCubatureDim];
  for (long k = t; k < count; k += kBlockThreads) {
    const double v = degree9_point(k, n, rule, region, x) * f(x, n);
    part += v;
    absolute += fabs(v);
  }
  s.reduce[t] = part;
  s.reduce[kBlockThreads + t] = absolute;
  __syncthreads();
  for (int stride = kBlockThreads / 2; stride > 0; stride >>= 1) {
    if (t < stride) {
      s.reduce[t] += s.reduce[t + stride];
      s.reduce[kBlockThreads + t] += s.reduce[kBlockThreads + t + stride];
    }
    __syncthreads();
  }
  const double volume = region_volume(n, region);
  *sum = volume * s.reduce[0];
  *abs_sum = volume * s.reduce[kBlockThreads];
  __syncthreads();
}

/// Phase one: kRuleLanes lanes per region (four regions per warp,
/// kPhaseOneRegions per block), the rule's points spread over the lanes; no
/// block-wide barriers, so many small regions (4D: 57 points) keep the device
/// busy, and the four lanes that combine a warp's regions' sums (serial work)
/// run at once. On the H100 eight lanes ran f1's and f2's phase one 7 %
/// faster than sixteen and 14–15 % faster than a whole warp per region.
constexpr int kRuleLanes = 8;
constexpr int kPhaseOneRegions = kBlockThreads / kRuleLanes;
constexpr int kRegionWords = sizeof(CubatureRegion) / sizeof(double);
static_assert(sizeof(CubatureRegion) % sizeof(double) == 0, "regions are copied as doubles");

/// The dimension N is a template parameter so that the point and integrand
/// loops unroll and the point stays in registers (launch_apply_rule picks it).
/// Eight blocks per SM (64 registers, a few spilled) ran f1's and f2's phase
/// one 5–11 % faster on the H100 than the compiler's 80–106 registers.
template <class Integrand, int N>
__device__ void apply_rule_regions(const Integrand& f, const GenzMalikWeights& w, CubatureRegion* regions,
                                   size_t count) {
  constexpr int n = N;
  __shared__ CubatureRegion region[kPhaseOneRegions];
  __shared__ GenzMalikValues values[kPhaseOneRegions];
  const int group = threadIdx.x / kRuleLanes, lane = threadIdx.x % kRuleLanes;
  // The lanes of this region within its warp.
  const unsigned mask = ((1u << kRuleLanes) - 1u) << (threadIdx.x % 32 / kRuleLanes * kRuleLanes);
  const size_t r = blockIdx.x * static_cast<size_t>(kPhaseOneRegions) + group;
  if (r >= count) return;  // whole groups leave; only group barriers follow
  double* mine = reinterpret_cast<double*>(&region[group]);
  const double* source = reinterpret_cast<const double*>(&regions[r]);
  for (int i = lane; i < kRegionWords; i += kRuleLanes) mine[i] = source[i];
  __syncwarp(mask);
  const int points = genz_malik_point_count(n);
  double pair = 0.0, vertex = 0.0;
  double x[kMaxCubatureDim];
  for (int p = lane; p < points; p += kRuleLanes) {
    genz_malik_point(p, n, region[group], x);
    const double v = f(x, n);
    int slot = 0;
    switch (genz_malik_class(p, n, &slot)) {
      case GenzMalikClass::Center: values[group].center = v; break;
      case GenzMalikClass::Axis2: values[group].axis2[slot] = v; break;
      case GenzMalikClass::Axis4: values[group].axis4[slot] = v; break;
      case GenzMalikClass::Pair: pair += v; break;
      case GenzMalikClass::Vertex: vertex += v; break;
    }
  }
  for (int offset = kRuleLanes / 2; offset > 0; offset >>= 1) {
    pair += __shfl_down_sync(mask, pair, offset, kRuleLanes);
    vertex += __shfl_down_sync(mask, vertex, offset, kRuleLanes);
  }
  __syncwarp(mask);
  if (lane == 0) {
    values[group].pair_sum = pair;
    values[group].vertex_sum = vertex;
    genz_malik_combine(n, w, values[group], region[group]);
  }
  __syncwarp(mask);
  double* target = reinterpret_cast<double*>(&regions[r]);
  for (int i = lane; i < kRegionWords; i += kRuleLanes) target[i] = mine[i];
}

/// The kernel of apply_rule_regions (an NVRTC module defines the same with
/// extern "C" linkage and these bounds).
constexpr int kApplyRuleBlocksPerSm = 8;
template <class Integrand, int N>
__global__ void __launch_bounds__(kBlockThreads, kApplyRuleBlocksPerSm)
    apply_rule_kernel(Integrand f, GenzMalikWeights w, CubatureRegion* regions, size_t count) {
  apply_rule_regions<Integrand, N>(f, w, regions, count);
}

#if !defined(__CUDACC_RTC__)
/// Launches apply_rule_kernel for dimension n (kMinCubatureDim ≤ N ≤ kMaxCubatureDim).
template <class Integrand, int N = kMinCubatureDim>
void launch_apply_rule(int n, const Integrand& f, const GenzMalikWeights& w, CubatureRegion* regions, size_t count) {
  if constexpr (N < kMaxCubatureDim) {
    if (n != N) return launch_apply_rule<Integrand, N + 1>(n, f, w, regions, count);
  }
  apply_rule_kernel<Integrand, N>
      <<<static_cast<unsigned>((count + kPhaseOneRegions - 1) / kPhaseOneRegions), kBlockThreads>>>(f, w, regions, count);
  GEOBEM_CUDA_CHECK_LAUNCH();
}
#endif

/// Phase one: parents[r] → children[2r], children[2r+1]; the parent's estimate kept.
__global__ inline void split_kernel(int n, const CubatureRegion* parents, size_t count, CubatureRegion* children,
                                    double* parent_estimates) {
  const size_t r = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (r < count) {
    split_region(n, parents[r], children[2 * r], children[2 * r + 1]);
    parent_estimates[r] = parents[r].estimate;
  }
}

/// Phase one: the parent's result into the children's errors (apply_two_level_error).
__global__ inline void two_level_kernel(CubatureRegion* children, const double* parent_estimates, size_t pairs) {
  const size_t r = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (r < pairs) apply_two_level_error(parent_estimates[r], children[2 * r], children[2 * r + 1]);
}

/// Sums over a generation: estimate, error, volume, regions, and the
/// two-level change and rounding floor (CubaturePhaseOne::live_change).
struct GenerationSums {
  double estimate, error, volume, regions, change, rounding;
};

struct AddSums {
  __host__ __device__ GenerationSums operator()(const GenerationSums& a, const GenerationSums& b) const {
    return {a.estimate + b.estimate, a.error + b.error,   a.volume + b.volume,
            a.regions + b.regions,   a.change + b.change, a.rounding + b.rounding};
  }
};

/// A region's share of the sums; with density ≥ 0 only regions that retire
/// (error ≤ density·volume) count, with density < 0 all do.
struct RegionSums {
  int n;
  double density;
  __host__ __device__ GenerationSums operator()(const CubatureRegion& r) const {
    const double volume = region_volume(n, r);
    if (density >= 0.0 && r.error > density * volume) return {0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
    return {r.estimate, r.error, volume, 1.0, r.change, r.rounding};
  }
};

/// Regions that stay live: error above density·volume.
struct StaysLive {
  int n;
  double density;
  __host__ __device__ bool operator()(const CubatureRegion& r) const { return r.error > density * region_volume(n, r); }
};

/// Block-wide arg-max (largest = true) or arg-min of error over list[0..count).
__device__ inline int block_arg_extreme(const CubatureRegion* list, int count, bool largest, double* values,
                                        int* indices, double* extreme) {
  const int t = threadIdx.x;
  double best = largest ? -1.0 : 1e308;
  int at = -1;
  for (int i = t; i < count; i += kBlockThreads) {
    const double e = list[i].error;
    if (largest ? e > best : e < best) {
      best = e;
      at = i;
    }
  }
  values[t] = best;
  indices[t] = at;
  __syncthreads();
  for (int stride = kBlockThreads / 2; stride > 0; stride >>= 1) {
    if (t < stride) {
      const double other = values[t + stride];
      if (largest ? other > values[t] : other < values[t]) {
        values[t] = other;
        indices[t] = indices[t + stride];
      }
    }
    __syncthreads();
  }
  const int result = indices[0];
  if (extreme) *extreme = values[0];
  __syncthreads();
  return result;
}

/// Phase two's work items: the regions of the chunks of one rank (chunk c of
/// kPhaseTwoChunk regions to rank c mod ranks), item i in chunk i / kPhaseTwoChunk
/// of the rank's own.
struct PhaseTwoItems {
  size_t total;  ///< live phase-one regions
  int rank, ranks;
  unsigned long long count;  ///< the rank's chunks × kPhaseTwoChunk (past `total` at the end)
  __host__ __device__ size_t region(unsigned long long item) const {
    const size_t chunk = rank + static_cast<size_t>(item / kPhaseTwoChunk) * ranks;
    return chunk * kPhaseTwoChunk + item % kPhaseTwoChunk;
  }
};

/// Whether phase two has work on an item: its region's error is above its
/// budget and its evaluation cap allows one split, or the degree-9 check
/// awaits it. Without the check, most regions have none when the cap, not
/// L_max, ended phase one; they are settled without the refinement kernel
/// (settle_idle_kernel).
struct PhaseTwoActive {
  const CubatureRegion* initial;
  PhaseTwoItems items;
  PhaseTwoShares shares;
  unsigned long long split_cost;  ///< evaluations of one split: 2 · points
  __host__ __device__ bool operator()(unsigned long long item) const {
    const size_t r = items.region(item);
    if (r >= items.total) return false;
    const double error = initial[r].error;
    return error > shares.region_budget(error) && (shares.check || shares.region_cap(error) >= split_cost);
  }
};

/// Phase two's items without work keep their phase-one result; one whose
/// error is still above its budget was stopped by its cap.
__global__ inline void settle_idle_kernel(PhaseTwoActive active, FinalRegionSums* outcomes,
                                          unsigned long long* capped) {
  const unsigned long long item = blockIdx.x * static_cast<unsigned long long>(blockDim.x) + threadIdx.x;
  if (item >= active.items.count || active(item)) return;
  const size_t r = active.items.region(item);
  if (r >= active.items.total) return;
  const CubatureRegion& region = active.initial[r];
  FinalRegionSums sums;
  sums.add_region(region);
  sums.unchecked_error = region.error;
  outcomes[r] = sums;
  if (region.error > active.shares.region_budget(region.error)) *capped = 1;
}

/// Phase two (see the file comment) on the items listed in `work`; an item
/// stopped by its cap gets the degree-9 check of the records it ends with
/// where shares.check (records retired for want of room stay unchecked).
/// `totals` receives the evaluations, final regions and checked final
/// regions of the block's items (one atomic add per block).
template <class Integrand>
__device__ void refine_regions(const Integrand& f, int n, const GenzMalikWeights& w, const CubatureRegion* initial,
                               const PhaseTwoItems& items, const unsigned long long* work,
                               unsigned long long work_count, const PhaseTwoShares& shares,
                               unsigned long long* next_item, unsigned long long* capped, CubatureRegion* spill_all,
                               int spill_capacity, FinalRegionSums* outcomes, unsigned long long* totals) {
  __shared__ CubatureRegion list[kSharedRecords];
  __shared__ Degree9Rule check_rule;
  __shared__ CubatureRegion children[2];
  __shared__ CubatureRegion parent_of_children;
  __shared__ RuleScratch scratch;
  __shared__ double reduce_values[kBlockThreads];
  __shared__ int reduce_indices[kBlockThreads];
  __shared__ int count, spill_count, take_from_spill, stop, item_capped;
  __shared__ unsigned long long item;
  __shared__ double total_error, retired_estimate, retired_error, retired_change, retired_rounding, spill_max;
  __shared__ bool spill_max_known;
  __shared__ unsigned long long evaluations, leaves, block_evaluations, block_leaves, block_checked;
  CubatureRegion* spill = spill_all + static_cast<size_t>(blockIdx.x) * spill_capacity;
  const int t = threadIdx.x;
  const unsigned long long points = genz_malik_point_count(n);
  if (t == 0) {
    block_evaluations = block_leaves = block_checked = 0;
    check_rule = degree9_rule(n);
  }
  while (true) {
    if (t == 0) item = atomicAdd(next_item, 1ULL);
    __syncthreads();
    if (item >= work_count) break;
    const size_t r = items.region(work[item]);
    const double budget = shares.region_budget(initial[r].error);
    const unsigned long long cap = shares.region_cap(initial[r].error);
    if (t == 0) {
      list[0] = initial[r];
      count = 1;
      spill_count = 0;
      total_error = list[0].error;
      retired_estimate = retired_error = retired_change = retired_rounding = 0.0;
      spill_max = 0.0;
      spill_max_known = true;
      evaluations = 0;
      leaves = 1;
      item_capped = 0;
    }
    __syncthreads();
    while (true) {
      if (t == 0) {
        stop = total_error <= budget;
        if (!stop && evaluations + 2 * points > cap) {
          stop = 1;
          item_capped = 1;
          *capped = 1;
        }
      }
      __syncthreads();
      if (stop) break;
      double list_max = 0.0;
      const int best = block_arg_extreme(list, count, true, reduce_values, reduce_indices, &list_max);
      int spill_best = -1;
      if (spill_count > 0 && (!spill_max_known || spill_max > list_max)) {
        double found = 0.0;
        spill_best = block_arg_extreme(spill, spill_count, true, reduce_values, reduce_indices, &found);
        if (t == 0) {
          spill_max = found;
          spill_max_known = true;
          take_from_spill = found > list_max;
        }
        __syncthreads();
        if (!take_from_spill) spill_best = -1;
      }
      if (t == 0) {
        CubatureRegion parent;
        if (spill_best >= 0) {
          parent = spill[spill_best];
          spill[spill_best] = spill[--spill_count];
          spill_max_known = false;
        } else {
          parent = list[best];
          list[best] = list[--count];
        }
        split_region(n, parent, children[0], children[1]);
        parent_of_children = parent;
        total_error -= parent.error;
      }
      __syncthreads();
      block_apply_rule(f, n, w, children, 2, scratch);
      // Room for both children: move the smallest-error records out.
      while (count + 2 > kSharedRecords) {
        const int smallest = block_arg_extreme(list, count, false, reduce_values, reduce_indices, nullptr);
        if (t == 0) {
          const CubatureRegion out = list[smallest];
          list[smallest] = list[--count];
          if (spill_count < spill_capacity) {
            spill[spill_count++] = out;
            if (spill_max_known) spill_max = fmax(spill_max, out.error);
          } else {
            retired_estimate += out.estimate;
            retired_error += out.error;
            retired_change += out.change;
            retired_rounding += out.rounding;
          }
        }
        __syncthreads();
      }
      if (t == 0) {
        apply_two_level_error(parent_of_children.estimate, children[0], children[1]);
        list[count++] = children[0];
        list[count++] = children[1];
        total_error += children[0].error + children[1].error;
        evaluations += 2 * points;
        leaves += 1;
      }
      __syncthreads();
    }
    // The region's totals: retired records plus the shared list and the
    // spill, whose records get the degree-9 check where the cap stopped it.
    const bool check = item_capped && shares.check;
    FinalRegionSums checked;  // thread 0's
    if (check)
      for (int i = 0; i < count + spill_count; ++i) {
        const CubatureRegion& record = i < count ? list[i] : spill[i - count];
        double q9 = 0.0, a9 = 0.0;
        block_apply_degree9(f, n, check_rule, record, scratch, &q9, &a9);
        if (t == 0) add_degree9_check(q9, a9, record, shares.check_unit, checked);
      }
    double sums[4] = {0.0, 0.0, 0.0, 0.0};  // estimate, error, change, rounding
    for (int i = t; i < count + spill_count; i += kBlockThreads) {
      const CubatureRegion& record = i < count ? list[i] : spill[i - count];
      sums[0] += record.estimate;
      sums[1] += record.error;
      sums[2] += record.change;
      sums[3] += record.rounding;
    }
    for (int j = 0; j < 4; ++j) scratch.reduce[j * kBlockThreads + t] = sums[j];
    __syncthreads();
    for (int stride = kBlockThreads / 2; stride > 0; stride >>= 1) {
      if (t < stride)
        for (int j = 0; j < 4; ++j) scratch.reduce[j * kBlockThreads + t] += scratch.reduce[j * kBlockThreads + t + stride];
      __syncthreads();
    }
    if (t == 0) {
      FinalRegionSums outcome = checked;
      outcome.estimate = CompensatedSum{scratch.reduce[0] + retired_estimate, 0.0};
      outcome.error = scratch.reduce[kBlockThreads] + retired_error;
      outcome.change = scratch.reduce[2 * kBlockThreads] + retired_change;
      outcome.rounding = scratch.reduce[3 * kBlockThreads] + retired_rounding;
      outcome.unchecked_error = (check ? 0.0 : scratch.reduce[kBlockThreads]) + retired_error;
      outcomes[r] = outcome;
      block_evaluations += evaluations;
      block_leaves += leaves;
      if (check) {
        block_evaluations += static_cast<unsigned long long>(count + spill_count) * degree9_point_count(n);
        block_checked += count + spill_count;
      }
    }
    __syncthreads();
  }
  if (t == 0) {
    atomicAdd(&totals[0], block_evaluations);
    atomicAdd(&totals[1], block_leaves);
    atomicAdd(&totals[2], block_checked);
  }
}

/// The kernel of refine_regions; an NVRTC module defines the same with
/// extern "C" linkage and these parameters in this order.
template <class Integrand>
__global__ void refine_kernel(Integrand f, int n, GenzMalikWeights w, const CubatureRegion* initial, PhaseTwoItems items,
                              const unsigned long long* work, unsigned long long work_count, PhaseTwoShares shares,
                              unsigned long long* next_item, unsigned long long* capped, CubatureRegion* spill_all,
                              int spill_capacity, FinalRegionSums* outcomes, unsigned long long* totals) {
  refine_regions(f, n, w, initial, items, work, work_count, shares, next_item, capped, spill_all, spill_capacity,
                 outcomes, totals);
}

/// Phase two's sums per chunk of the rank: one warp per chunk, each lane
/// adding every 32nd region in order, then a fixed shuffle tree, so that the
/// sums depend on the chunk's outcomes alone (any rank gives the same bits).
/// sums[j] receives the rank's chunk j.
__global__ inline void chunk_sums_kernel(const FinalRegionSums* outcomes, PhaseTwoItems items, size_t rank_chunks,
                                         FinalRegionSums* sums) {
  const size_t j = (blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x) / 32;
  const int lane = threadIdx.x % 32;
  if (j >= rank_chunks) return;  // whole warps leave
  const size_t begin = items.region(j * kPhaseTwoChunk);
  const size_t end = begin + kPhaseTwoChunk < items.total ? begin + kPhaseTwoChunk : items.total;
  FinalRegionSums sum;
  for (size_t r = begin + lane; r < end; r += 32) sum.add(outcomes[r]);
  for (int offset = 16; offset > 0; offset >>= 1) {
    FinalRegionSums other;
    const double* words = reinterpret_cast<const double*>(&sum);
    double* other_words = reinterpret_cast<double*>(&other);
    for (int q = 0; q < kFinalRegionSumsWords; ++q) other_words[q] = __shfl_down_sync(0xffffffffu, words[q], offset);
    sum.add(other);
  }
  if (lane == 0) sums[j] = sum;
}

#if !defined(__CUDACC_RTC__)
/// refine_kernel's arguments after the integrand, for the drivers'
/// CubatureKernels::refine.
struct RefineArguments {
  int n;
  GenzMalikWeights w;
  const CubatureRegion* initial;
  PhaseTwoItems items;
  const unsigned long long* work;
  unsigned long long work_count;
  PhaseTwoShares shares;
  unsigned long long *next_item, *capped;
  CubatureRegion* spill_all;
  int spill_capacity;
  FinalRegionSums* outcomes;
  unsigned long long* totals;
};
#endif

}  // namespace geobem::quadrature::cuda_detail

#if !defined(__CUDACC_RTC__)
namespace geobem::quadrature {

/// The integrand's kernels as the drivers below launch them, here the
/// library's templates compiled by nvcc for the functor `f`. Any type with
/// these three members works (gpu/expression's NVRTC modules):
/// apply_rule runs apply_rule_regions over regions[0..count) on the legacy
/// default stream; refine_blocks_per_sm is refine's occupancy at
/// kBlockThreads threads; refine launches refine_regions on `stream`.
template <class Integrand>
struct StaticCubatureKernels {
  Integrand f;

  void apply_rule(int n, const GenzMalikWeights& w, CubatureRegion* regions, size_t count) const {
    cuda_detail::launch_apply_rule(n, f, w, regions, count);
  }
  int refine_blocks_per_sm() const {
    int per_sm = 0;
    GEOBEM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cuda_detail::refine_kernel<Integrand>,
                                                                    cuda_detail::kBlockThreads, 0));
    return per_sm;
  }
  void refine(unsigned grid, cudaStream_t stream, const cuda_detail::RefineArguments& a) const {
    cuda_detail::refine_kernel<<<grid, cuda_detail::kBlockThreads, 0, stream>>>(
        f, a.n, a.w, a.initial, a.items, a.work, a.work_count, a.shares, a.next_item, a.capped, a.spill_all,
        a.spill_capacity, a.outcomes, a.totals);
  }
};

/// Phase one's kept live regions, on the device that computed them.
struct CubatureDeviceRegions {
  DeviceBuffer<CubatureRegion> buffer;
  size_t count = 0;
  int device = 0;
};

/// Phase one's region buffers start at this many regions and grow (×4, up
/// to 2·min_regions) with the live count, so that a case converging with few
/// regions does not allocate (and free) L_max-sized buffers on every call
/// (2·2^21 regions = 839 MB at the default L_max).
constexpr size_t kInitialPhaseOneRegions = size_t{1} << 14;

/// Phase one on the current CUDA device with the integrand's `kernels`. Per
/// generation two small read-backs: the sums (the host decides convergence
/// and the retirement density exactly as the CPU path does), then the retired
/// sums and the number of regions kept. CUB's scratch is sized once for the
/// largest generation; a region buffer is replaced only when no queued work
/// uses it (a synchronous read-back after its last use).
template <class Kernels>
CubaturePhaseOne cuda_cubature_phase_one_with(const Kernels& kernels, const CubatureOptions& options) {
  using namespace cuda_detail;
  const PhaseOneStart start = start_phase_one(options);
  const int n = options.dim;
  const std::uint64_t points = start.points;
  const std::vector<CubatureRegion>& first = start.regions;
  int levels = start.levels;
  CubaturePhaseOne out;
  // A generation holds at most 2·(min_regions − 1) children, or the first cells.
  const size_t max_capacity = std::max(2 * options.min_regions, first.size());
  size_t live_capacity = std::min(max_capacity, std::max(kInitialPhaseOneRegions, first.size()));
  size_t kept_capacity = live_capacity;
  DeviceBuffer<CubatureRegion> live_buffer(live_capacity), kept_buffer(kept_capacity);
  DeviceBuffer<double> parent_estimates(live_capacity / 2);
  DeviceBuffer<GenerationSums> d_sums(2);     // all regions, retiring regions
  DeviceBuffer<long long> d_kept(1);
  CubatureRegion* live = live_buffer.data();
  CubatureRegion* kept = kept_buffer.data();
  const auto sums_input = [&](double density) {
    return thrust::make_transform_iterator(static_cast<const CubatureRegion*>(live), RegionSums{n, density});
  };
  const GenerationSums zero{0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  size_t reduce_bytes = 0, select_bytes = 0;
  GEOBEM_CUDA_CHECK(cub::DeviceReduce::Reduce(nullptr, reduce_bytes, sums_input(-1.0), d_sums.data(),
                                              static_cast<long long>(max_capacity), AddSums{}, zero));
  GEOBEM_CUDA_CHECK(cub::DeviceSelect::If(nullptr, select_bytes, live, kept, d_kept.data(),
                                          static_cast<long long>(max_capacity), StaysLive{n, 0.0}));
  size_t scratch_bytes = std::max(reduce_bytes, select_bytes);
  DeviceBuffer<unsigned char> scratch(scratch_bytes);
  GEOBEM_CUDA_CHECK(cudaMemcpy(live, first.data(), first.size() * sizeof(CubatureRegion), cudaMemcpyHostToDevice));
  size_t count = first.size();
  const int first_levels = levels;
  while (true) {
    if (out.evaluations + points * count > options.max_evaluations) {
      out.capped = true;
      break;
    }
    kernels.apply_rule(n, start.weights, live, count);
    if (levels > first_levels) {  // a generation of split children
      two_level_kernel<<<static_cast<unsigned>((count / 2 + 127) / 128), 128>>>(live, parent_estimates.data(), count / 2);
      GEOBEM_CUDA_CHECK_LAUNCH();
    }
    out.evaluations += points * count;
    GenerationSums all{};
    GEOBEM_CUDA_CHECK(cub::DeviceReduce::Reduce(scratch.data(), scratch_bytes, sums_input(-1.0), d_sums.data(),
                                                static_cast<long long>(count), AddSums{}, zero));
    GEOBEM_CUDA_CHECK(cudaMemcpy(&all, d_sums.data(), sizeof(all), cudaMemcpyDeviceToHost));
    out.estimate = out.retired_estimate + all.estimate;
    out.error = out.retired_error + all.error;
    out.live_change = all.change;
    out.live_rounding = all.rounding;
    out.counted_retired_error = out.retired_error;
    out.levels = levels;
    out.live_regions = count;
    out.converged = levels >= minimum_levels(options) && out.error <= cubature_target(options, out.estimate);
    if (out.converged) break;
    const double density = retirement_density(options, levels, out.estimate, out.retired_error, all.volume);
    GenerationSums retired = zero;
    if (density >= 0.0) {
      GEOBEM_CUDA_CHECK(cub::DeviceReduce::Reduce(scratch.data(), scratch_bytes, sums_input(density), d_sums.data() + 1,
                                                  static_cast<long long>(count), AddSums{}, zero));
    }
    if (count > kept_capacity) {  // the split that last used `kept` finished before the read-back of `all`
      kept_capacity = live_capacity;
      kept_buffer.resize_discard(kept_capacity);
      kept = kept_buffer.data();
    }
    GEOBEM_CUDA_CHECK(cub::DeviceSelect::If(scratch.data(), scratch_bytes, live, kept, d_kept.data(),
                                            static_cast<long long>(count), StaysLive{n, density}));
    long long kept_count = 0;
    GEOBEM_CUDA_CHECK(cudaMemcpy(&kept_count, d_kept.data(), sizeof(kept_count), cudaMemcpyDeviceToHost));
    if (density >= 0.0)
      GEOBEM_CUDA_CHECK(cudaMemcpy(&retired, d_sums.data() + 1, sizeof(retired), cudaMemcpyDeviceToHost));
    out.retired_estimate += retired.estimate;
    out.retired_error += retired.error;
    out.retired_regions += static_cast<std::uint64_t>(retired.regions);
    out.live_regions = static_cast<std::uint64_t>(kept_count);
    if (kept_count == 0) {  // everything retired within its share
      out.converged = out.error <= cubature_target(options, out.estimate);
      break;
    }
    const size_t kept_regions = static_cast<size_t>(kept_count);
    // Phase two takes over at L_max live regions, or when splitting them all
    // would pass the refinement cap (phase two shares what is left by region).
    // The kept regions stay on the device for phase two.
    if (kept_regions >= options.min_regions || out.evaluations + 2 * points * kept_regions > refinement_cap(options)) {
      const auto kept_sums = thrust::make_transform_iterator(static_cast<const CubatureRegion*>(kept), RegionSums{n, -1.0});
      GenerationSums live_sums{};
      GEOBEM_CUDA_CHECK(cub::DeviceReduce::Reduce(scratch.data(), scratch_bytes, kept_sums, d_sums.data(),
                                                  static_cast<long long>(kept_regions), AddSums{}, zero));
      GEOBEM_CUDA_CHECK(cudaMemcpy(&live_sums, d_sums.data(), sizeof(live_sums), cudaMemcpyDeviceToHost));
      out.live_error = live_sums.error;
      int device = 0;
      GEOBEM_CUDA_CHECK(cudaGetDevice(&device));
      out.device_regions =
          std::make_shared<const CubatureDeviceRegions>(CubatureDeviceRegions{std::move(kept_buffer), kept_regions, device});
      break;
    }
    ++levels;
    if (2 * kept_regions > live_capacity) {  // the read-back of kept_count drained the queue (live, parent estimates)
      live_capacity = std::min(max_capacity, std::max(2 * kept_regions, 4 * live_capacity));
      live_buffer.resize_discard(live_capacity);
      live = live_buffer.data();
      parent_estimates.resize_discard(live_capacity / 2);
    }
    split_kernel<<<static_cast<unsigned>((kept_regions + 127) / 128), 128>>>(n, kept, kept_regions, live,
                                                                               parent_estimates.data());
    GEOBEM_CUDA_CHECK_LAUNCH();
    count = 2 * kept_regions;
  }
  return out;
}

/// Phase two on the current CUDA device with the integrand's `kernels`: the
/// chunks of `rank` of `ranks`; only the chunk sums and two totals come back.
template <class Kernels>
CubaturePhaseTwo cuda_cubature_phase_two_with(const Kernels& kernels, const CubatureOptions& options,
                                              const CubaturePhaseOne& phase_one, int rank, int ranks,
                                              std::uint64_t evaluation_cap) {
  using namespace cuda_detail;
  const int n = options.dim;
  const size_t total = phase_one.live_regions;
  const size_t chunks = phase_two_chunk_count(total);
  const size_t rank_chunks = chunks > static_cast<size_t>(rank) ? (chunks - rank + ranks - 1) / ranks : 0;
  CubaturePhaseTwo out;
  out.chunks.assign(chunks, FinalRegionSums{});
  if (rank_chunks == 0) return out;
  const PhaseTwoShares shares = phase_two_shares(phase_one, options, evaluation_cap);
  const PhaseTwoItems items{total, rank, ranks, static_cast<unsigned long long>(rank_chunks * kPhaseTwoChunk)};

  // Counters: next item, evaluations, final regions, checked final regions, capped flag.
  DeviceBuffer<unsigned long long> d_counters(5);
  DeviceBuffer<FinalRegionSums> d_outcomes(total);
  DeviceBuffer<FinalRegionSums> d_chunk_sums(rank_chunks);
  DeviceBuffer<unsigned long long> d_work(items.count + 1);  // the items with work, then their count
  // The kernels run on a non-blocking stream (the progress poll reads the
  // counter beside them), which does not wait for the legacy default
  // stream: the counters are cleared on the same stream.
  const CudaStream work, watch;
  d_counters.fill_zero(work.get());
  // The phase-one regions: on the device already (CUDA phase one), or copied there.
  DeviceBuffer<CubatureRegion> d_copied(phase_one.device_regions ? 0 : total);
  if (!phase_one.device_regions)
    GEOBEM_CUDA_CHECK(cudaMemcpyAsync(d_copied.data(), phase_one.regions.data(), total * sizeof(CubatureRegion),
                                      cudaMemcpyHostToDevice, work.get()));
  const CubatureRegion* d_initial = phase_one.device_regions ? phase_one.device_regions->buffer.data() : d_copied.data();
  // Items without work are settled at once; the rest are listed for the refinement.
  const unsigned long long points = genz_malik_point_count(n);
  const PhaseTwoActive active{d_initial, items, shares, 2 * points};
  settle_idle_kernel<<<static_cast<unsigned>((items.count + 255) / 256), 256, 0, work.get()>>>(
      active, d_outcomes.data(), d_counters.data() + 4);
  GEOBEM_CUDA_CHECK_LAUNCH();
  const thrust::counting_iterator<unsigned long long> all_items(0);
  size_t select_bytes = 0;
  GEOBEM_CUDA_CHECK(cub::DeviceSelect::If(nullptr, select_bytes, all_items, d_work.data(), d_work.data() + items.count,
                                          static_cast<long long>(items.count), active, work.get()));
  DeviceBuffer<unsigned char> d_select_scratch(select_bytes);
  GEOBEM_CUDA_CHECK(cub::DeviceSelect::If(d_select_scratch.data(), select_bytes, all_items, d_work.data(),
                                          d_work.data() + items.count, static_cast<long long>(items.count), active,
                                          work.get()));
  unsigned long long work_count = 0;
  GEOBEM_CUDA_CHECK(cudaMemcpyAsync(&work_count, d_work.data() + items.count, sizeof(work_count),
                                    cudaMemcpyDeviceToHost, work.get()));
  work.synchronize();
  if (work_count > 0) {
    // A persistent grid of at most one wave, each block with a spill slice;
    // the slices together take at most the device-memory budget.
    int device = 0, sms = 0;
    GEOBEM_CUDA_CHECK(cudaGetDevice(&device));
    GEOBEM_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    const int per_sm = kernels.refine_blocks_per_sm();
    const size_t grid = std::min<size_t>(work_count, static_cast<size_t>(sms) * std::max(per_sm, 1));
    const size_t spill_capacity = std::max<size_t>(
        16, std::min<size_t>(options.spill_records, device_memory_budget() / (grid * sizeof(CubatureRegion))));
    DeviceBuffer<CubatureRegion> d_spill(grid * spill_capacity);
    kernels.refine(static_cast<unsigned>(grid), work.get(),
                   RefineArguments{n, genz_malik_weights(n), d_initial, items, d_work.data(), work_count, shares,
                                   d_counters.data(), d_counters.data() + 4, d_spill.data(),
                                   static_cast<int>(spill_capacity), d_outcomes.data(), d_counters.data() + 1});
    GEOBEM_CUDA_CHECK_LAUNCH();
    // Progress: poll the items taken on a second stream while the kernel runs.
    ProgressReporter progress("cubature phase two (cuda)", work_count, "regions", options.quiet);
    unsigned long long reported = 0;
    while (!options.quiet && !work.idle()) {
      unsigned long long taken = 0;
      GEOBEM_CUDA_CHECK(
          cudaMemcpyAsync(&taken, d_counters.data(), sizeof(taken), cudaMemcpyDeviceToHost, watch.get()));
      watch.synchronize();
      taken = std::min(taken, work_count);
      if (taken > reported) progress.advance(taken - reported);
      reported = std::max(reported, taken);
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    work.synchronize();  // before d_spill goes
    progress.advance(work_count - reported);
    progress.finish();
  }
  chunk_sums_kernel<<<static_cast<unsigned>((rank_chunks * 32 + 127) / 128), 128, 0, work.get()>>>(
      d_outcomes.data(), items, rank_chunks, d_chunk_sums.data());
  GEOBEM_CUDA_CHECK_LAUNCH();
  work.synchronize();

  std::vector<FinalRegionSums> sums(rank_chunks);
  unsigned long long counters[5];
  GEOBEM_CUDA_CHECK(cudaMemcpy(sums.data(), d_chunk_sums.data(), sums.size() * sizeof(FinalRegionSums),
                               cudaMemcpyDeviceToHost));
  GEOBEM_CUDA_CHECK(cudaMemcpy(counters, d_counters.data(), sizeof(counters), cudaMemcpyDeviceToHost));
  for (size_t j = 0; j < rank_chunks; ++j) out.chunks[rank + j * ranks] = sums[j];
  // Each settled region is one final region.
  size_t rank_regions = 0;
  for (size_t j = 0; j < rank_chunks; ++j)
    rank_regions += std::min(kPhaseTwoChunk, total - (rank + j * ranks) * kPhaseTwoChunk);
  out.evaluations = counters[1];
  out.regions = counters[2] + (rank_regions - work_count);
  out.checked_regions = counters[3];
  out.capped = counters[4] != 0;
  return out;
}

/// Phase one and phase two for a functor compiled with the library.
template <class Integrand>
CubaturePhaseOne cuda_cubature_phase_one_for(const Integrand& f, const CubatureOptions& options) {
  return cuda_cubature_phase_one_with(StaticCubatureKernels<Integrand>{f}, options);
}
template <class Integrand>
CubaturePhaseTwo cuda_cubature_phase_two_for(const Integrand& f, const CubatureOptions& options,
                                             const CubaturePhaseOne& phase_one, int rank, int ranks,
                                             std::uint64_t evaluation_cap) {
  return cuda_cubature_phase_two_with(StaticCubatureKernels<Integrand>{f}, options, phase_one, rank, ranks,
                                      evaluation_cap);
}

}  // namespace geobem::quadrature
#endif

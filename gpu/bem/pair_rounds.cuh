#pragma once
// How a thread block integrates many (collocation point, element) pairs of
// one collocation point p at one Laplace parameter: in rounds, each round's
// pairs sorted by cost (a counting sort over cost classes), the costliest
// first, a costly pair (ξ on the element, or many points) split over a warp's
// lanes, the others 32 of like cost at a time, one per lane, so that a warp's
// lanes finish together. The pair kernel is the dense path's
// (collocation_pair.hpp); which pairs, and where their integrals go, is the
// caller's: the dense assembly (cq_solver_cuda.cu) takes every element of a
// column tile, the hierarchical near field (hierarchical/near_field_cuda.cu)
// the elements of the dense leaves over p.
//
// A PairSource has
//   int count() const                                        candidate pairs (indices 0 … count − 1)
//   bool take(int index, PairRule& rule, bool& flag) const   false to skip it (decayed, or not wanted)
//   int element(int index) const                             its element
// and a PairSink
//   void add(int index, int element, const DynamicIntegrand<Solution>&, bool flag)   on lane 0 of the pair's warp,
//                                                            or the pair's own lane
#include <cuda_runtime.h>

#include "gpu/bem/collocation_pair.hpp"

namespace geobem::bem {

/// Threads per block (whole warps: the costly pairs are split over a warp's
/// lanes): the pair kernel takes all 255 registers a thread may have, so 128
/// threads (32K registers) let two blocks share an SM. The point kernel
/// alone needs more than 168: a pair shared by 4 lanes (9 complex sums each
/// instead of 33) spilled 1.0 kB a thread at 168 registers (12 warps an SM)
/// and 2.0 kB at 128 (16 warps) and ran 2.3× and 3.4× slower on an H100; by
/// 2 lanes (18 sums) it still spilled 1.1 kB at 168.
constexpr int assembly_threads = 128;
static_assert(assembly_threads % 32 == 0, "the assembly block is whole warps");
/// A pair of more quadrature points than this is split over a warp's lanes
/// (a singular pair always is); the others take one lane each. Measured on
/// an H100 (1,008 rod, β = 0.3, lanes in element order): 32 → 0.671 s of
/// assembly, 64 → 0.452 s, 128 → 0.397 s; splitting a pair of 33–128 points
/// leaves lanes idle in its last round and costs a warp sum. With the lanes
/// sorted by cost: 256 → 0.237 s against 0.245 s at 128 on the rod, but
/// 0.059 s against 0.054 s on 3,388 elements (10 steps).
constexpr int warp_split_points = 128;

/// Live pairs a block sorts per round (pairs_per_thread per thread): a
/// round's pairs are sorted by cost before any is integrated, and its last
/// work items leave warps waiting at the round's barrier. Rounds of a fixed
/// 1,024 elements, most of them off the column tile or decayed, took 0.054 s
/// on 3,388 elements (three tiles), rounds of 1,024 or 2,048 live pairs
/// 0.045 s (the rod, one tile: 0.25 s all three).
constexpr int pairs_per_thread = 16, round_pairs = pairs_per_thread * assembly_threads;

/// Cost classes of a round's counting sort, in the order their pairs are
/// integrated, costliest first (longest-processing-time order, Graham 1969,
/// "Bounds on multiprocessing timing anomalies", SIAM J. Appl. Math. 17: the
/// warps run out of work together): the split pairs by ⌊log₂ points⌋, from
/// 2^15 down; then the one-lane pairs by exact point count, from
/// warp_split_points down, those with the K blocks before those with V only.
/// A warp's 32 lanes take 32 consecutive pairs, all of one or two point
/// counts, where in element order their counts ran from 6 to 128 and a warp
/// ran as long as its costliest lane.
constexpr int split_classes = 16, cost_classes = split_classes + 2 * warp_split_points;

/// Whether pair `rule` is split over a warp's lanes: a singular one (its
/// collapsed products of 64 points or more, and the own column's remainder
/// branch, kept out of the one-lane batches) or one of many points. A
/// subdivided near pair of few points takes a lane among pairs of its cost:
/// measured on an H100, 2–3% faster on the rod than splitting every near pair
/// (0.242 s against 0.249 s, β = 0.3), the same on 3,388 elements.
__device__ inline bool split_over_warp(const PairRule& rule) { return rule.singular() || rule.points() > warp_split_points; }

/// Sort class of a live pair (cost_classes above).
__device__ inline int cost_class(const PairRule& rule, bool need_k) {
  const int points = rule.points();
  if (split_over_warp(rule)) return split_classes - 1 - min(31 - __clz(points), split_classes - 1);
  return split_classes + 2 * (warp_split_points - points) + (need_k ? 0 : 1);
}

/// A sorted pair: its index in the round's source (PairSource below), its
/// rule (pair_rule's at the block's s) and a flag the source sets (the dense
/// assembly: whether the pair adds the right-hand side).
struct SortedPair {
  int index;
  unsigned rule;  ///< order | subdivisions << 8 | (symmetric_rule + 1) << 16 | (vertex + 1) << 20 | inner << 23 | add_rhs << 24

  __device__ static SortedPair pack(int index, const PairRule& r, bool add_rhs) {
    return {index, static_cast<unsigned>(r.plan.order) | static_cast<unsigned>(r.plan.subdivisions) << 8 |
                   static_cast<unsigned>(r.plan.symmetric_rule + 1) << 16 | static_cast<unsigned>(r.vertex + 1) << 20 |
                   static_cast<unsigned>(r.inner) << 23 | static_cast<unsigned>(add_rhs) << 24};
  }
  __device__ PairRule pair_rule() const {
    PairRule r;
    r.plan.order = rule & 0xff;
    r.plan.subdivisions = rule >> 8 & 0xff;
    r.plan.symmetric_rule = static_cast<int>(rule >> 16 & 0xf) - 1;
    r.vertex = static_cast<int>(rule >> 20 & 0x7) - 1;
    r.inner = rule >> 23 & 1;
    return r;
  }
  __device__ bool add_rhs() const { return rule >> 24 & 1; }
};
static_assert(QuadratureTable::max_order < 256 && QuadratureTable::symmetric_rule_count < 15,
              "SortedPair's rule fields hold the plan");

/// The sum of x over the warp's 32 lanes, in lane 0.
__device__ inline double warp_sum(double x) {
  for (int offset = 16; offset > 0; offset >>= 1) x += __shfl_down_sync(0xffffffffu, x, offset);
  return x;
}

/// Sums the lanes' partial integrals of one pair into lane 0's. Unrolled
/// throughout, so that the integrand stays in registers (a loop here put it
/// in local memory, written back for every pair).
template <class Solution>
__device__ inline void warp_sum(DynamicIntegrand<Solution>& r) {
  constexpr int c = Solution::components;
#pragma unroll
  for (int i = 0; i < c; ++i)
#pragma unroll
    for (int j = 0; j < c; ++j) r.v[i][j] = Complex(warp_sum(r.v[i][j].re), warp_sum(r.v[i][j].im));
  if (!r.need_k) return;
#pragma unroll
  for (int b = 0; b < 3; ++b)
#pragma unroll
    for (int i = 0; i < c; ++i)
#pragma unroll
      for (int j = 0; j < c; ++j) r.k[b][i][j] = Complex(warp_sum(r.k[b][i][j].re), warp_sum(r.k[b][i][j].im));
}

/// Exclusive prefix sum of counts[0..cost_classes) in place, by one warp; the
/// total goes to *total.
__device__ inline void exclusive_scan_classes(int* counts, int* total, int lane) {
  constexpr int per_lane = (cost_classes + 31) / 32;
  int own[per_lane], sum = 0;
#pragma unroll
  for (int k = 0; k < per_lane; ++k) {
    const int c = lane * per_lane + k;
    own[k] = c < cost_classes ? counts[c] : 0;
    sum += own[k];
  }
  int before = sum;
  for (int offset = 1; offset < 32; offset <<= 1) {
    const int other = __shfl_up_sync(0xffffffffu, before, offset);
    if (lane >= offset) before += other;
  }
  if (lane == 31) *total = before;
  before -= sum;
#pragma unroll
  for (int k = 0; k < per_lane; ++k) {
    const int c = lane * per_lane + k;
    if (c < cost_classes) counts[c] = before;
    before += own[k];
  }
}

/// Integrates the source's pairs for collocation point p at s and hands each
/// to the sink, in rounds (the file's header); every thread of the block
/// (assembly_threads of them) calls it. Each thread takes its candidates
/// (threadIdx.x + k·assembly_threads) in turn until it holds
/// pairs_per_thread live ones (skipped ones cost only their rule), so that a
/// round sorts and shares about round_pairs pairs however many are dead.
template <class Solution, class Source, class Sink>
__device__ void integrate_in_rounds(const ModelView& mv, int p, Complex s, const QuadratureTable& table,
                                    const Source& source, Sink& sink) {
  __shared__ SortedPair sorted[round_pairs];
  __shared__ int class_start[cost_classes];
  __shared__ int live_count, next_item;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int count = source.count();
  int next_index = threadIdx.x;
  for (bool more = true; more;) {
    for (int k = threadIdx.x; k < cost_classes; k += blockDim.x) class_start[k] = 0;
    if (threadIdx.x == 0) next_item = 0;
    __syncthreads();
    // Sort the round's live pairs by cost (counting sort): a pair's slot in
    // its class from a shared counter, then the classes' starts by a scan.
    int held = 0, pair_class[pairs_per_thread], slot[pairs_per_thread];
    SortedPair pair[pairs_per_thread];
    while (held < pairs_per_thread && next_index < count) {
      const int index = next_index;
      next_index += assembly_threads;
      PairRule rule;
      bool flag = false;
      if (!source.take(index, rule, flag)) continue;
      pair_class[held] = cost_class(rule, pair_needs_k(mv, source.element(index), rule));
      slot[held] = atomicAdd(&class_start[pair_class[held]], 1);
      pair[held++] = SortedPair::pack(index, rule, flag);
    }
    __syncthreads();
    if (warp == 0) exclusive_scan_classes(class_start, &live_count, lane);
    __syncthreads();
    for (int k = 0; k < held; ++k) sorted[class_start[pair_class[k]] + slot[k]] = pair[k];
    __syncthreads();
    // Work items, costliest first, taken by whichever warp is free: a split
    // pair (each lane one 32nd of its points; every branch there is uniform
    // over the warp), or 32 consecutive one-lane pairs. One call site of
    // the pair kernel keeps the code (and the instruction cache) small.
    const int split_count = class_start[split_classes];
    const int items = split_count + (live_count - split_count + 31) / 32;
    for (;;) {
      int item = 0;
      if (lane == 0) item = atomicAdd(&next_item, 1);
      item = __shfl_sync(0xffffffffu, item, 0);
      if (item >= items) break;
      const bool split = item < split_count;
      const int k = split ? item : split_count + 32 * (item - split_count) + lane;
      if (k >= live_count) continue;
      const SortedPair sorted_pair = sorted[k];
      const PairRule rule = sorted_pair.pair_rule();
      const int e = source.element(sorted_pair.index);
      DynamicIntegrand<Solution> integrand;
      integrate_pair(mv, p, e, s, rule, table, integrand, split ? PointShare{lane, 32} : PointShare{});
      if (split) {
        warp_sum(integrand);
        if (lane != 0) continue;
      }
      sink.add(sorted_pair.index, e, integrand, sorted_pair.add_rhs());
    }
    more = __syncthreads_or(next_index < count);
  }
}

}  // namespace geobem::bem

#pragma once
// What the source × station launcher (station_sums_cpu.hpp,
// station_sums_cuda.cuh) sums, for every potential-field method: a source
// view and a kernel, both small copyable structs that run on the host and the
// device (AMReX's ParallelFor and MFEM's forall take their bodies the same way).
//
// SourceView: `using Item = ...;` and
//   GEOBEM_HD Item item(std::int64_t index) const
// forms source `index` of a chunk (a prism from a layer cell's height, a
// tesseroid, a weighted grid node); the CUDA threads of a block each form one
// item of a tile into shared memory.
// Kernel: `static constexpr int outputs` (rows of the sums), and
//   GEOBEM_HD bool wanted(int row) const   (rows that are computed at all)
//   GEOBEM_HD void add(const Item&, const Station&, double acc[outputs]) const
// adds one source's contribution at one station to the station's
// accumulators (double, whatever the kernel's arithmetic). Station is any
// copyable struct the kernel reads.
#include <cstdint>

#include "gpu/core/host_device.hpp"

namespace geobem::potential {

/// A view of sources stored as a list: item i is items[i].
template <typename T>
struct ListView {
  using Item = T;
  const T* items;
  GEOBEM_HD T item(std::int64_t index) const { return items[index]; }
};

/// The make_view of station_sums_cuda for a list: the chunk itself.
struct ListChunks {
  template <typename T>
  ListView<T> operator()(const T* chunk, std::int64_t) const {
    return ListView<T>{chunk};
  }
};

}  // namespace geobem::potential

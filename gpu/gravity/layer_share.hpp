#pragma once
// What the gravity and magnetic functions of a prism layer share about the
// part of the layer one call sums (ForwardOptions::part of parts): its cells
// and the run of its sums on the chosen device with a progress line.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/progress.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/prism_layer.hpp"

namespace geobem::gravity {

/// The cells [first, first + count) of share options.part of options.parts of a layer.
struct LayerShare {
  std::int64_t first, count;
};

inline LayerShare layer_share(const PrismLayer& layer, const ForwardOptions& options) {
  const std::int64_t cells = static_cast<std::int64_t>(layer.cell_count());
  const std::int64_t first = cells * options.part / options.parts;
  return {first, cells * (options.part + 1) / options.parts - first};
}

/// The share's sums on options.device, cuda(progress) or cpu(progress), with
/// a progress line over its cell-station pairs; `what` ("gravity prism
/// layer") names the method there and in the refusal of a build without CUDA.
template <class Cuda, class Cpu>
std::vector<double> layer_share_sums(const char* what, const ForwardOptions& options, const LayerShare& share,
                                     std::size_t stations, const Cuda& cuda, const Cpu& cpu) {
  ProgressReporter progress(std::string(what) + " (" + to_string(options.device) + ")",
                            static_cast<std::uint64_t>(share.count) * stations, "cell-station pairs", options.quiet);
  std::vector<double> sums = run_on(
      options.device, what, [&] { return cuda(progress); }, [&] { return cpu(progress); });
  progress.finish();
  return sums;
}

}  // namespace geobem::gravity

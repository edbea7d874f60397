// OpenMP driver of the prism-list and grid paths: the source × station
// launcher (gpu/potential/station_sums_cpu.hpp) with the CUDA path's kernel
// (FieldSumsKernel of source_fields.hpp) over a list of prisms or grid nodes,
// with RoundingKernel where the estimate is wanted: in a pass of its own or in
// the same one (rounding_pass_apart), as on the GPU.
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "gpu/gravity/source_fields.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cpu.hpp"

namespace geobem::gravity {
namespace {

template <typename Real, typename Source>
std::vector<double> sums(const std::vector<Source>& sources, const std::vector<Station>& stations, unsigned mask,
                         ProgressReporter& progress, std::vector<double>* rounding) {
  const potential::ListView<Source> view{sources.data()};
  const auto count = static_cast<std::int64_t>(sources.size());
  return potential::two_kernel_sums_cpu<rounding_pass_apart<Real, Source>>(
      view, count, stations, FieldSumsKernel<Real, false>{mask}, RoundingKernel<Real>{}, rounding, progress);
}

}  // namespace

template <typename Source>
std::vector<double> forward_cpu(const std::vector<Source>& sources, const std::vector<Station>& stations,
                                unsigned mask, Precision precision, ProgressReporter& progress,
                                std::vector<double>* rounding) {
  return precision == Precision::Single ? sums<float>(sources, stations, mask, progress, rounding)
                                        : sums<double>(sources, stations, mask, progress, rounding);
}

template std::vector<double> forward_cpu(const std::vector<Prism>&, const std::vector<Station>&, unsigned, Precision,
                                         ProgressReporter&, std::vector<double>*);
template std::vector<double> forward_cpu(const std::vector<GridNode>&, const std::vector<Station>&, unsigned,
                                         Precision, ProgressReporter&, std::vector<double>*);

}  // namespace geobem::gravity

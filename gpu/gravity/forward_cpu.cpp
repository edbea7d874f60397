// OpenMP driver of the prism-list and grid paths: the source × station
// launcher (gpu/potential/station_sums_cpu.hpp) with the CUDA path's kernel
// (FieldSumsKernel of source_fields.hpp) over a list of prisms or grid nodes.
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/source_fields.hpp"
#include "gpu/potential/source_view.hpp"
#include "gpu/potential/station_sums_cpu.hpp"

namespace geobem::gravity {
namespace {

template <typename Real, typename Source>
std::vector<double> sums(const std::vector<Source>& sources, const std::vector<Station>& stations, unsigned mask,
                         ProgressReporter& progress) {
  return potential::station_sums_cpu(potential::ListView<Source>{sources.data()},
                                     static_cast<std::int64_t>(sources.size()), stations,
                                     FieldSumsKernel<Real, false>{mask}, progress);
}

template <typename Source>
std::vector<double> run(const std::vector<Source>& sources, const std::vector<Station>& stations, unsigned mask,
                        Precision precision, ProgressReporter& progress) {
  return precision == Precision::Single ? sums<float>(sources, stations, mask, progress)
                                        : sums<double>(sources, stations, mask, progress);
}

}  // namespace

std::vector<double> forward_cpu(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                                unsigned mask, Precision precision, ProgressReporter& progress) {
  return run(prisms, stations, mask, precision, progress);
}

std::vector<double> forward_cpu(const std::vector<GridNode>& nodes, const std::vector<Station>& stations,
                                unsigned mask, Precision precision, ProgressReporter& progress) {
  return run(nodes, stations, mask, precision, progress);
}

}  // namespace geobem::gravity

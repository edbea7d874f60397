#pragma once
// Magnetic field of uniformly magnetized prisms (a prism list or a prism
// layer) at stations: b_e, b_n, b_u (nT, b_u upward; Harmonica's
// prism_magnetic conventions) and the total-field anomaly along the inducing
// field. CPU (OpenMP) and CUDA from the point kernel of magnetic_kernels.hpp.
#include <array>
#include <string>
#include <vector>

#include "gpu/core/progress.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/prism_layer.hpp"
#include "gpu/magnetic/magnetic_kernels.hpp"
#include "gpu/potential/kernel_shape.hpp"

namespace geobem::magnetic {

/// The magnetic outputs, in the column order of magnetic.csv.
enum class Field { b_e, b_n, b_u, tfa };
inline constexpr int field_count = 4;
/// "b_e", "b_n", "b_u", "tfa".
const char* field_name(Field field);
/// "all" or a comma-separated list of field names, returned in canonical
/// order without repeats; throws InputError naming an unknown name.
std::vector<Field> parse_fields(const std::string& list);

/// An inducing (main) field: intensity in nT, inclination (positive
/// downward) and declination (positive east of north) in degrees.
struct InducingField {
  double intensity_nt = 0, inclination_deg = 0, declination_deg = 0;
};

/// Unit vector (easting, northing, upward) of a field of this inclination and
/// declination: (cos I sin D, cos I cos D, −sin I), as Harmonica's
/// magnetic_angles_to_vec.
std::array<double, 3> field_direction(double inclination_deg, double declination_deg);

/// Magnetization induced in a body of susceptibility `chi` (SI) by the field:
/// M = χ·F/μ0 (A/m) with F in tesla, along the field; self-demagnetization
/// neglected (χ ≪ 1).
std::array<double, 3> induced_magnetization(double chi, const InducingField& field);

/// A prism layer (gravity::PrismLayer geometry and heights; its densities are
/// not used) magnetized uniformly: cells above the reference with
/// magnetization_above, below with magnetization_below (A/m, E, N, U).
struct MagneticLayer {
  gravity::PrismLayer layer;
  std::array<double, 3> magnetization_above{}, magnetization_below{};
};

/// values[f][s]: field `fields[f]` at station s in nT; the TFA is b·F̂ for
/// F̂ = tfa_direction = field_direction(tfa_inclination, tfa_declination),
/// the total-field anomaly to first order in |b|/|F| (Blakely 1995, eq.
/// 12.3). error_estimate and budget as gravity::ForwardResult: the
/// estimate relative to the largest |value| among the fields at the station
/// (one group), from the two rows of MagneticRoundingKernel.
struct Result {
  std::vector<Field> fields;
  std::vector<std::vector<double>> values;
  std::vector<std::vector<double>> error_estimate;
  gravity::RoundingBudget budget;
  std::array<double, 3> tfa_direction{};
};

/// Options as gravity::ForwardOptions (device, precision, quiet, force,
/// device memory limit, part/parts) plus the TFA direction in degrees.
struct Options {
  gravity::ForwardOptions forward;
  double tfa_inclination_deg = 90.0, tfa_declination_deg = 0.0;
};

/// The field of a prism list. A station on a face, an edge or a vertex of the
/// model gets the limit from the side the survey sees (each magnetization
/// component a density: gravity/station_contact.hpp), NaN where a component
/// has no limit; each value carries its estimated rounding error, with the
/// warnings of gravity::forward_model. Throws InputError for an
/// empty field list, a prism that is not a finite box, a non-finite
/// magnetization or station; InputError::usage as complete_estimates;
/// geobem::DeviceError for a failing CUDA call.
Result forward_magnetic(const std::vector<MagnetizedPrism>& prisms, const std::vector<gravity::Station>& stations,
                        const std::vector<Field>& fields, const Options& options);

/// The field of a magnetized prism layer, each cell's prism formed from its
/// height in the drivers (no prism list); a station on the terrain surface
/// gets the limit from above it. Errors as forward_magnetic and
/// gravity::check_prism_layer.
Result forward_magnetic_layer(const MagneticLayer& layer, const std::vector<gravity::Station>& stations,
                              const std::vector<Field>& fields, const Options& options);

/// Forms error_estimate and the accuracy warnings of a complete result (as
/// gravity::complete_estimates): the forward functions call it with parts =
/// 1, reduce_to_root (magnetic_mpi.hpp) on rank 0 otherwise.
void complete_estimates(Result& result);

/// The drivers: raw sums Σ T·M (3 rows: e, n, u; multiply by
/// field_factor_nt), sums[c · stations + s]; with `rounding`, they also sum
/// the rounding bounds into *rounding (MagneticRoundingKernel's two rows,
/// magnetic_sources.hpp; in double in a pass of its own,
/// gravity::rounding_pass_apart, else in the same pass). CUDA: current device, at most
/// memory_limit_bytes (0: 80% of the free memory), streamed in chunks.
std::vector<double> magnetic_sums_cpu(const std::vector<MagnetizedPrism>& prisms,
                                      const std::vector<gravity::Station>& stations, gravity::Precision precision,
                                      ProgressReporter& progress, std::vector<double>* rounding = nullptr);
std::vector<double> magnetic_sums_cuda(const std::vector<MagnetizedPrism>& prisms,
                                       const std::vector<gravity::Station>& stations, gravity::Precision precision,
                                       ProgressReporter& progress, std::size_t memory_limit_bytes = 0,
                                       std::vector<double>* rounding = nullptr);
/// Cells [first, first + count) of a layer.
std::vector<double> magnetic_layer_sums_cpu(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                                            const std::vector<gravity::Station>& stations,
                                            gravity::Precision precision, ProgressReporter& progress,
                                            std::vector<double>* rounding = nullptr);
/// `shape`: the launch shape of the field kernel in double, one of
/// cuda_layer_shapes() ({0, 0}: the default, magnetic_shapes.hpp); throws
/// InputError for a shape that is not compiled.
std::vector<double> magnetic_layer_sums_cuda(const MagneticLayer& layer, std::int64_t first, std::int64_t count,
                                             const std::vector<gravity::Station>& stations,
                                             gravity::Precision precision, ProgressReporter& progress,
                                             std::size_t memory_limit_bytes = 0,
                                             std::vector<double>* rounding = nullptr,
                                             const potential::KernelShape& shape = {});
/// The launch shapes compiled for magnetic_layer_sums_cuda's field kernel
/// (double), timed by terrain_bench --shapes.
std::vector<potential::KernelShape> cuda_layer_shapes();

}  // namespace geobem::magnetic

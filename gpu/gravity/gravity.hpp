#pragma once
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/gravity/prism.hpp"

namespace geobem::gravity {

/// The ten gravity fields, in the column order of gravity.csv (docs/design.md#file-formats).
enum class Field { potential, g_e, g_n, g_z, g_ee, g_en, g_ez, g_nn, g_nz, g_zz };
inline constexpr int field_count = 10;

/// "potential", "g_e", ... as in docs/design.md#units-axes-and-names.
const char* field_name(Field field);
/// "J/kg" for the potential, "mGal" for g_e/g_n/g_z, "Eotvos" for the tensor.
const char* field_unit(Field field);
/// "all" or a comma-separated list of field names, returned in canonical
/// order without repeats; throws InputError::usage naming an unknown name.
std::vector<Field> parse_fields(const std::string& list);

enum class Precision { Double, Single };
/// "double" or "single"; throws InputError::usage naming the value otherwise.
Precision parse_precision(const std::string& text);

/// How a grid model is evaluated: `general` sums over its non-zero cells as
/// prisms, `grid` over its weighted nodes (grid_nodes.hpp), `auto` takes the
/// grid path when grid_path_applies().
enum class ForwardPath { Auto, General, Grid };
/// "auto", "general" or "grid"; throws InputError::usage naming the value otherwise.
ForwardPath parse_forward_path(const std::string& text);
/// "auto", "general" or "grid".
const char* to_string(ForwardPath path);

struct ForwardOptions {
  ComputeDevice device = ComputeDevice::Cpu;
  Precision precision = Precision::Double;
  bool quiet = false;  ///< no progress lines on stderr
  /// Single precision where no station meets single_precision_floor is
  /// refused (InputError::usage) unless forced.
  bool force = false;
  /// CUDA only: device memory to use at most, bytes (0: 80% of the free
  /// memory); larger problems are streamed in chunks.
  std::size_t device_memory_limit_bytes = 0;
  /// Evaluate only share `part` of `parts` equal contiguous shares of the
  /// sources (prisms, or grid nodes in layer order): one MPI rank's work,
  /// summed over ranks by reduce_to_root (forward_mpi.hpp).
  int part = 0, parts = 1;
};

/// Relative accuracy the fields are meant to have: 1e-6 in double precision,
/// 1e-3 in single (its estimate is a bound that counts every source's
/// rounding as independent; cells sharing faces round their shared edges
/// alike, and on the sphere model the error stayed 15-40 times below it:
/// docs/readers.md#accuracy-of-the-fields). A warning counts the stations
/// whose estimated rounding error (rounding_estimate.hpp) misses it.
double accuracy_goal(Precision precision);
/// Single precision where no station's estimate is within this is refused
/// unless ForwardOptions::force.
inline constexpr double single_precision_floor = 1e-3;

/// What a result's rounding estimates are formed from (rounding_estimate.hpp):
/// the sums Σ(w·e)² and Σ(w·e)⁴ over this part's sources per field group (two
/// rows per group × stations), and each station's distance from the model's
/// bounding box (m, for the warnings). reduce_to_root adds up `sums` over the
/// ranks before the estimates are formed.
struct RoundingBudget {
  Precision precision = Precision::Double;
  bool force = false;
  std::vector<double> sums, distance;
};

/// values[f][s]: field `fields[f]` at station s, in field_unit(fields[f]).
/// error_estimate[f][s]: its estimated relative rounding error (relative to
/// the largest |value| of its group at the station — the potential; g_e,
/// g_n, g_z; the tensor — less the error bound, or to the group's largest
/// |value| over the stations where it vanishes: rounding_estimate.hpp), NaN
/// where the value is NaN; empty until the result is
/// complete (with parts > 1: after reduce_to_root).
struct ForwardResult {
  std::vector<Field> fields;
  std::vector<std::vector<double>> values;
  std::vector<std::vector<double>> error_estimate;
  RoundingBudget budget;
};

/// Largest station coordinate magnitude, m (forward_model refuses more): the
/// kernels square and sum coordinate differences.
inline constexpr double max_station_coordinate = 1e150;

/// Forms error_estimate from result.budget (all sources summed), and the
/// warnings of stations above accuracy_goal; forward_model and the other
/// forward functions call it with parts = 1, reduce_to_root on rank 0
/// otherwise. Throws InputError::usage for single precision where no station
/// meets single_precision_floor, unless the budget is forced.
void complete_estimates(ForwardResult& result);

/// Gravity of a prism ensemble at stations (the general path): the sum over prisms of the closed
/// forms of Nagy et al. (2000, 2002) with the cancellation-free logarithm and
/// principal-value arctangent (Fukushima 2020). Signs and units follow
/// Harmonica (g_z positive downward). A station on a face, an edge or a
/// vertex of the model gets the limit from the side the survey sees, NaN
/// where a tensor term has no limit (station_contact.hpp,
/// docs/references.md#singular-stations). Each value carries its estimated
/// rounding error (rounding_estimate.hpp). Warns (geobem::warn, whatever
/// `quiet`) about stations whose estimate misses accuracy_goal,
/// fields undefined at stations, and non-finite fields elsewhere (overflow).
/// Throws InputError for an empty field list, a non-finite station
/// or one beyond max_station_coordinate, InputError::usage for single
/// precision that no station can use (complete_estimates),
/// geobem::DeviceError for a failing CUDA call.
/// A list of prisms that all have a density is read where it lies; one with
/// zero-density prisms is copied without them (this overload) or compacted in
/// place (the next: a caller done with its list passes it with std::move).
ForwardResult forward_model(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                            const std::vector<Field>& fields, const ForwardOptions& options);
ForwardResult forward_model(std::vector<Prism>&& prisms, const std::vector<Station>& stations,
                            const std::vector<Field>& fields, const ForwardOptions& options);

/// Gravity of a checked prism grid at stations by the grid path: the corner
/// function once per grid node of non-zero weight (grid_nodes.hpp,
/// grid_node_kernels.hpp), instead of 8 vertices per cell. Same fields, units,
/// limits, estimates, warnings and errors as forward_model, and
/// InputError for a grid without 2 edges per axis and one density
/// per cell (values are not checked: see mesh/prisms check_grid); see
/// grid_node_kernels.hpp for its rounding.
ForwardResult forward_model_grid(const PrismGrid& grid, const std::vector<Station>& stations,
                                 const std::vector<Field>& fields, const ForwardOptions& options);

/// forward_model() on prisms and stations that already lie in the memory of
/// the current CUDA device (e.g. arrays handed over through DLPack), read
/// there in place: the same checks and their messages, limits at stations on
/// the model, rounding estimates, warnings and refusal, the same fields,
/// units and signs (forward_on_device.cu). The checks, the model's extent, the
/// sums and the estimates' summary run on the device; the host gets counts and
/// the largest values behind the warnings (a few hundred bytes). Only stations
/// on the closed boundary of a prism of nonzero density (a coordinate equal to
/// one of its bounds, within it on the other axes) and the prisms containing
/// them are copied to the host, for the octant analysis of station_contact.hpp;
/// their limits go back. `values` (device memory, fields.size() rows of
/// station_count, in the canonical order of parse_fields) receives the
/// fields; the estimates stay on the host side (call forward_model for them).
/// Device memory beside the inputs: the prisms of nonzero density and 18
/// doubles per station. The caller's streams are synchronized first. Throws
/// as forward_model, InputError for parts other than 1 or more
/// than INT_MAX prisms or stations, geobem::ResourceError beyond the device
/// memory budget, and std::runtime_error in a build without CUDA.
void forward_model_on_device(const Prism* prisms, std::size_t prism_count, const Station* stations,
                             std::size_t station_count, const std::vector<Field>& fields,
                             const ForwardOptions& options, double* values);

/// Bytes the last forward_model_on_device call of this process copied from
/// the device to the host (its counts, the model's box, the estimates'
/// summary, and the stations on the model with their prisms): for tests.
std::size_t forward_model_on_device_host_bytes();

}  // namespace geobem::gravity

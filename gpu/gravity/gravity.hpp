#pragma once
#include <limits>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/host_device.hpp"
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
/// order without repeats; throws geobem::UsageError naming an unknown name.
std::vector<Field> parse_fields(const std::string& list);

enum class Precision { Double, Single };
/// "double" or "single"; throws geobem::UsageError naming the value otherwise.
Precision parse_precision(const std::string& text);

/// How a grid model is evaluated: `general` sums over its non-zero cells as
/// prisms, `grid` over its weighted nodes (grid_nodes.hpp), `auto` takes the
/// grid path when grid_path_applies().
enum class ForwardPath { Auto, General, Grid };
/// "auto", "general" or "grid"; throws geobem::UsageError naming the value otherwise.
ForwardPath parse_forward_path(const std::string& text);
/// "auto", "general" or "grid".
const char* to_string(ForwardPath path);

struct ForwardOptions {
  ComputeDevice device = ComputeDevice::Cpu;
  Precision precision = Precision::Double;
  bool quiet = false;  ///< no progress lines on stderr
  /// CUDA only: device memory to use at most, bytes (0: 80% of the free
  /// memory); larger problems are streamed in chunks.
  std::size_t device_memory_limit_bytes = 0;
  /// Evaluate only share `part` of `parts` equal contiguous shares of the
  /// sources (prisms, or grid nodes in layer order): one MPI rank's work,
  /// summed over ranks by reduce_to_root (forward_mpi.hpp).
  int part = 0, parts = 1;
};

/// values[f][s]: field `fields[f]` at station s, in field_unit(fields[f]).
struct ForwardResult {
  std::vector<Field> fields;
  std::vector<std::vector<double>> values;
};

/// Relative accuracy the gravity stage promises in double precision; a
/// warning names the stations where rounding cannot give it.
inline constexpr double far_field_accuracy = 1e-6;
/// Largest station coordinate magnitude, m (forward_model refuses more): the
/// kernels square and sum coordinate differences.
inline constexpr double max_station_coordinate = 1e150;

/// Estimated relative rounding error, in double precision, of a prism's
/// fields at `distance` (m) from a prism whose smallest side is `side` (m):
/// 3·eps·(distance/side)². The vertex sums cancel a part that grows as the
/// square of distance/side. Measured against the point-mass field of 10 m
/// and 100 m cubes 1e5 to 1e8 sides away: the largest relative error of the
/// potential, g_z and g_zz lies between a tenth of this estimate and the
/// estimate (tests/gravity/far_field_test.cpp, docs/readers.md).
GEOBEM_HD inline double far_field_relative_error(double distance, double side) {
  const double ratio = distance / side;
  return 3 * std::numeric_limits<double>::epsilon() * ratio * ratio;
}
/// The distance beyond which far_field_relative_error exceeds far_field_accuracy.
double far_field_accuracy_distance(double side);

/// Gravity of a prism ensemble at stations (the general path): the sum over prisms of the closed
/// forms of Nagy et al. (2000, 2002) with the cancellation-free logarithm and
/// principal-value arctangent (Fukushima 2020). Signs and units follow
/// Harmonica (g_z positive downward). Warns (geobem::warn, whatever `quiet`)
/// about stations farther than far_field_accuracy_distance from the model
/// (double precision), fields undefined at stations on a prism edge or
/// vertex, and non-finite fields elsewhere (overflow). Throws
/// std::invalid_argument for an empty field list, a non-finite station or
/// one beyond max_station_coordinate, geobem::DeviceError for a failing CUDA call.
ForwardResult forward_model(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                            const std::vector<Field>& fields, const ForwardOptions& options);

/// Gravity of a checked prism grid at stations by the grid path: the corner
/// function once per grid node of non-zero weight (grid_nodes.hpp,
/// grid_node_kernels.hpp), instead of 8 vertices per cell. Same fields, units
/// and errors as forward_model, and std::invalid_argument for a grid without
/// 2 edges per axis and one density per cell (values are not checked: see
/// mesh/prisms check_grid); see grid_node_kernels.hpp for its rounding and for
/// stations on a cell edge.
/// forward_model() on prisms and stations that already lie in the memory of
/// the current CUDA device (e.g. arrays handed over through DLPack), so that
/// nothing but a few counts and at most one offending prism or station comes
/// to the host: the same checks and their messages, the same warnings, the
/// same fields, units and signs. `values` (device memory, fields.size() rows
/// of station_count, in the canonical order of parse_fields) receives the
/// fields. No chunking: the massive prisms' copy and ten sums per station
/// must fit the device memory budget (else DeviceError with the bytes
/// needed). The caller's streams are synchronized first. Throws
/// std::invalid_argument as forward_model and for parts other than 1,
/// geobem::DeviceError for a failing CUDA call, std::runtime_error in a
/// build without CUDA.
void forward_model_on_device(const Prism* prisms, std::size_t prism_count, const Station* stations,
                             std::size_t station_count, const std::vector<Field>& fields,
                             const ForwardOptions& options, double* values);

ForwardResult forward_model_grid(const PrismGrid& grid, const std::vector<Station>& stations,
                                 const std::vector<Field>& fields, const ForwardOptions& options);

}  // namespace geobem::gravity

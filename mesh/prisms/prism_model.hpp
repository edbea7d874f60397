#pragma once
// A prism model as the gravity stages use it: the list of prisms passed to the
// compute library and, when the model is a regular (rectilinear) grid, the grid
// itself (the gravity stage evaluates grids on grid nodes, gpu/gravity
// grid_nodes.hpp).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu/gravity/prism.hpp"

namespace geobem::prisms {

using gravity::Prism;
using gravity::PrismGrid;

/// A model read or generated: its prisms, the grid when the source was one,
/// and where it came from. Grid models list only their non-zero cells as
/// prisms; list models (CSV, .vtu) keep zero densities until drop_zero_density.
struct PrismModel {
  std::string source;  ///< file name or generator, for messages
  std::vector<Prism> prisms;
  std::optional<PrismGrid> grid;
  std::size_t zero_density_dropped = 0;  ///< prisms or cells left out for a zero density
  std::size_t no_data_cells = 0;         ///< UBC-GIF cells of the no-data value, among those left out
};

/// Largest coordinate magnitude of a prism bound or grid edge, m: the gravity
/// kernels square and sum coordinate differences, which stay finite below
/// it (and it is 1e143 Earth radii: only a corrupt file goes beyond).
inline constexpr double max_coordinate = 1e150;

/// Throws std::runtime_error "WHERE: ..." when a prism is not a box
/// (west ≥ east, south ≥ north, bottom ≥ top, naming both values) or has a
/// non-finite bound or density, or a bound beyond ±max_coordinate.
void check_prism(const Prism& prism, const std::string& where);

/// Checks the grid (at least 1 cell per axis, finite strictly increasing edges,
/// as many finite densities as cells) and throws std::runtime_error naming
/// `source` and the offending edge or cell (i_e, i_n, i_u) otherwise.
void check_grid(const PrismGrid& grid, const std::string& source);

/// One prism per grid cell of non-zero density, in the grid's cell order
/// (a zero density adds nothing to any field).
std::vector<Prism> grid_prisms(const PrismGrid& grid);

/// Wraps a checked grid as a model: prisms = grid_prisms(grid), and the
/// zero-density cells counted in zero_density_dropped.
PrismModel model_from_grid(PrismGrid grid, std::string source);

/// Removes prisms whose density is exactly zero (they add nothing to any
/// field) and adds their count to model.zero_density_dropped; returns how
/// many were removed now. The order of the others is kept.
std::size_t drop_zero_density(PrismModel& model);

/// Throws std::runtime_error "WHAT (densities and prisms) needs B bytes ..."
/// when a grid of `cells` cells (UINT64_MAX: more than 64 bits count) and as
/// many prisms would not fit in the memory available now: checked before
/// allocating.
void require_grid_memory(std::uint64_t cells, const std::string& what);

/// Sum of the prisms' volumes, m³.
double total_volume(const std::vector<Prism>& prisms);

/// Densities are kg/m³. A model whose every non-zero |density| is below this
/// was most likely written in g/cm³ (rock 1.0–3.5 g/cm³, ores up to about 8,
/// contrasts mostly below 1), where kg/m³ contrasts this small are rare
/// (microgal anomalies); 50 kg/m³ is an ordinary contrast and passes.
inline constexpr double smallest_plausible_density = 10.0;

/// The largest |density| of the prisms (kg/m³), 0 for none.
double largest_density_magnitude(const std::vector<Prism>& prisms);

/// The warning for the densities of `what` whose largest magnitude is
/// `largest` (kg/m³): empty when it is 0 or at least
/// smallest_plausible_density, else a sentence naming the likely g/cm³ slip
/// and its effect (fields 1000 times too small).
std::string density_unit_warning(double largest, const std::string& what);

}  // namespace geobem::prisms

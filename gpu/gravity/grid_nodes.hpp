#pragma once
// The grid path's sources: the nodes of a prism grid weighted by the
// alternating sums of the densities around them (grid_node_kernels.hpp).
#include <vector>

#include "gpu/gravity/grid_node_kernels.hpp"
#include "gpu/gravity/prism.hpp"

namespace geobem::gravity {

/// The nodes of `grid` with a non-zero weight, layer by layer (upward index
/// slowest, then northing, easting fastest). The weight of node (a, b, c) is
/// Σ (−1)^(da+db+dc)·density(a−1+da, b−1+db, c−1+dc) over da, db, dc ∈ {0, 1},
/// cells outside the grid counting as density 0: the sign each cell's vertex
/// sum gives that corner (Nagy et al. 2000, eq. 11), collected per node. At
/// most (nx+1)(ny+1)(nz+1) nodes, usually far fewer (the weight vanishes
/// wherever the density is constant along any axis around the node).
/// The grid is assumed checked (mesh/prisms check_grid).
std::vector<GridNode> grid_nodes(const PrismGrid& grid);

/// Whether `--path auto` takes the grid path for these stations: every
/// station lies outside the grid's closed bounding box, where its node sums
/// were measured against the general path (RESULTS.md). On the grid's faces
/// and inside it the grid path gives the same limits (station_contact.hpp)
/// with a rounding estimate of its own, and is taken with `--path grid`.
bool grid_path_applies(const PrismGrid& grid, const std::vector<Station>& stations);

}  // namespace geobem::gravity

#pragma once
// Synthetic prism models: spheres of density contrast on a regular grid (the
// test case of Couder-Castañeda et al. 2013) and boxes.
#include <cstddef>
#include <vector>

#include "mesh/prisms/prism_model.hpp"

namespace geobem::prisms {

/// A regular grid: extent in metres and cell counts per axis.
struct GridSpec {
  double west, east, south, north, bottom, top;
  std::size_t cells_e, cells_n, cells_u;
};

/// A sphere of uniform density contrast: centre (m), radius (m), kg/m³.
struct Sphere {
  double easting, northing, upward, radius, density;
};

/// The grid of the paper's synthetic case (Couder-Castañeda et al. 2013):
/// 22 km × 22 km × 8 km, easting and northing 0..22000 m, upward −8000..0 m,
/// with `cells_e × cells_n × cells_u` cells (the paper: 700 × 700 × 50).
GridSpec couder_grid(std::size_t cells_e = 700, std::size_t cells_n = 700, std::size_t cells_u = 50);

/// Seven spheres of different density contrasts inside couder_grid()'s extent.
/// The paper gives the grid and the count of non-zero prisms (251,946) but not
/// the spheres, so these are ours, chosen so that the 700 × 700 × 50 grid has
/// 251,947 non-zero cells (a cell belongs to a sphere when its centre does);
/// (easting, northing, upward of the centre, radius) in m, density in kg/m³:
///   ( 5000,  5000, −2500, 1200, +400)   ( 5500, 16000, −3500, 1150, −300)
///   (11000, 11000, −4000, 1400, +250)   (16500,  5000, −3000, 1000, +500)
///   (17000, 16500, −2000,  900, −250)   (11000,  3000, −5500, 1050, +300)
///   (11000, 19000, −5000,  853, −400)
/// None overlaps another or leaves the grid; their exact volume is
/// 3.9794e10 m³ (251,797 cells of 158,041 m³).
std::vector<Sphere> couder_spheres();

/// A grid over `spec` whose cells take the density of the sphere containing
/// their centre (the first such sphere in the list), zero elsewhere. Throws
/// InputError for an empty or inverted extent, a zero cell count,
/// more than 2^31 cells, or a sphere with a non-positive radius or a
/// non-finite value.
PrismGrid sphere_grid(const GridSpec& spec, const std::vector<Sphere>& spheres);

/// A model of boxes, one prism per box (each checked with check_prism, named
/// "block N" in messages); exact volumes, no grid.
PrismModel block_model(const std::vector<Prism>& boxes);

}  // namespace geobem::prisms

#pragma once
// g_z of a prism layer face by face (the g_z-only path of both layer
// drivers). The vertex sum of Nagy et al. (2000, eq. 11 for g_z) taken edge by
// edge (prism_kernels.hpp) has, for g_z, only terms on edges parallel to
// easting or northing: each prism's g_z is its top face's edge terms minus its
// bottom face's. In a layer every cell has one face on the reference plane,
// and the reference faces of neighbouring cells share their edges with
// opposite signs, so those terms cancel wherever neighbours carry the same
// density and side: the reference plane reduces to the edges where the cell
// weight changes (the layer's rim, coastlines, skipped cells), and each cell
// costs only its surface face, half the transcendental calls of a whole prism
// (4 log1p, 2 atan2 and 4 square roots instead of 8, 4 and 8).
//
// Conventions of prism_fields: station-relative coordinates formed in double
// then rounded to Real (station_relative), unit density without G, g_z
// positive downward. Singular stations follow the same edge terms, so the
// limits are those of prism_fields (g_z is continuous everywhere).
#include <cstdint>
#include <vector>

#include "gpu/core/host_device.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/prism.hpp"
#include "gpu/gravity/prism_kernels.hpp"
#include "gpu/gravity/prism_layer.hpp"
#include "gpu/gravity/rounding_estimate.hpp"

namespace geobem::gravity {

/// g_z edge term of a horizontal edge parallel to easting at station-relative
/// northing y and height z, from east (the larger) to west, size = east − west,
/// r_east, r_west the distances of its ends: y·ln-pair − z·arctan-pair
/// (prism_fields' ln(x + r) and arctan(xy/(zr)) pairs with their factors).
template <typename Real>
GEOBEM_HD inline Real g_z_edge_along_e(Real east, Real west, Real size, Real y, Real z, Real r_east, Real r_west) {
  return y * pair_log(east, west, size, r_east, r_west, y * y + z * z) -
         z * pair_atan(east, west, size, y, z, r_east, r_west);
}

/// g_z edge term of a horizontal edge parallel to northing at station-relative
/// easting x and height z, from north to south: x·ln-pair (the ln(y + r) pairs).
template <typename Real>
GEOBEM_HD inline Real g_z_edge_along_n(Real north, Real south, Real size, Real x, Real z, Real r_north, Real r_south) {
  return x * pair_log(north, south, size, r_north, r_south, x * x + z * z);
}

/// A horizontal face of a layer cell and its weight: density × (+1 if it is
/// the prism's top, −1 if its bottom); weight 0 for an empty cell.
struct LayerFace {
  double west, east, south, north, height, weight;
};

/// g_z (unit density, no G) of a face at the station: the four edge terms
/// with the vertex signs of prism_fields (north, east +; south, west −).
template <typename Real>
GEOBEM_HD inline Real face_g_z(const LayerFace& f, const Station& s) {
  using std::sqrt;
  const Real e = station_relative<Real>(f.east, s.easting), w = station_relative<Real>(f.west, s.easting);
  const Real n = station_relative<Real>(f.north, s.northing), so = station_relative<Real>(f.south, s.northing);
  const Real z = station_relative<Real>(f.height, s.upward);
  const Real size_e = Real(f.east - f.west), size_n = Real(f.north - f.south);
  const Real zz = z * z;
  const Real r_ne = sqrt(e * e + n * n + zz), r_nw = sqrt(w * w + n * n + zz);
  const Real r_se = sqrt(e * e + so * so + zz), r_sw = sqrt(w * w + so * so + zz);
  return (g_z_edge_along_e(e, w, size_e, n, z, r_ne, r_nw) - g_z_edge_along_e(e, w, size_e, so, z, r_se, r_sw)) +
         (g_z_edge_along_n(n, so, size_n, e, z, r_ne, r_se) - g_z_edge_along_n(n, so, size_n, w, z, r_nw, r_sw));
}

/// An edge of the reference plane where the weights of the two cells beside
/// it differ: from `low` to `high` along easting (along_n = 0) or northing
/// (along_n = 1) on the grid line `line` (northing or easting); weight =
/// weight of the cell north (east) of it as its south (west) edge, subtracted
/// from that of the cell south (west) as its north (east) edge.
struct ReferenceEdge {
  double low, high, line, weight;
  int along_n;
};

/// The surface face of a cell with surface height `surface` (NaN or on the
/// reference: weight 0): the top of a cell above the reference, the bottom of
/// one below it.
GEOBEM_HD inline LayerFace surface_face(const LayerGeometry& g, std::int64_t cell, double surface) {
  const std::int64_t i = cell % g.shape_e, j = cell / g.shape_e;
  LayerFace face{easting_line(g, i), easting_line(g, i + 1), northing_line(g, j), northing_line(g, j + 1), surface, 0.0};
  if (surface > g.reference)
    face.weight = g.density_above;
  else if (surface < g.reference)
    face.weight = -g.density_below;
  return face;
}

/// Weight of a cell's reference face: density × (−1 above: the reference is
/// its bottom; +1 below: its top); 0 for an empty cell.
GEOBEM_HD inline double reference_weight(const LayerGeometry& g, double surface) {
  if (surface > g.reference) return -g.density_above;
  if (surface < g.reference) return g.density_below;
  return 0.0;
}

/// The reference-plane edges with a non-zero weight for cells [first, first +
/// count) of the layer (cells outside count as empty, so shares of the cells
/// add up to the whole layer). O(cells) time; as many edges as the rim and
/// the weight changes have.
std::vector<ReferenceEdge> reference_edges(const PrismLayer& layer, std::int64_t first, std::int64_t count);

/// Surface faces of cells `first …` whose heights are at `surface`.
struct LayerFaceView {
  using Item = LayerFace;
  LayerGeometry geometry;
  const double* surface;
  std::int64_t first;
  GEOBEM_HD LayerFace item(std::int64_t index) const {
    return surface_face(geometry, first + index, surface[index]);
  }
};

/// acc[0] += x with the rounding error of the addition kept in acc[1]
/// (Knuth's TwoSum, exact in binary floating point): the surface faces sum to
/// many times the layer's g_z (17 times on the Jacksboro DEM: the reference
/// edges take most of it back), so a plain double sum over 1e5 faces would
/// lose about 1e-12 of the result; compensated, the faces' own rounding is
/// what remains.
GEOBEM_HD inline void compensated_add(double acc[2], double x) {
  const double sum = acc[0] + x, x_part = sum - acc[0];
  acc[1] += (acc[0] - (sum - x_part)) + (x - x_part);
  acc[0] = sum;
}

/// Σ weight · face_g_z over surface faces, compensated: outputs sum and
/// rounding error, g_z = their sum (g_z_rows).
template <typename Real>
struct FaceGzKernel {
  static constexpr int outputs = 2;
  GEOBEM_HD bool wanted(int) const { return true; }
  GEOBEM_HD void add(const LayerFace& face, const Station& station, double acc[2]) const {
    if (face.weight == 0.0) return;  // empty cell (uniform across a warp: one tile item)
    compensated_add(acc, face.weight * static_cast<double>(face_g_z<Real>(face, station)));
  }
};

/// The rounding sums of g (RoundingKernel's g group) over the cells of
/// surface faces (the cell's prism between the face and the reference at
/// `reference`): beside FaceGzKernel, in a pass of its own or in the same
/// one (rounding_pass_apart).
template <typename Real>
struct FaceRoundingKernel {
  static constexpr int outputs = FieldRoundingKernel<Real, true>::outputs;
  using TileSummary = tile_bound_summary<Real>;
  double reference;
  GEOBEM_HD bool wanted(int row) const { return FieldRoundingKernel<Real, true>{}.wanted(row); }
  GEOBEM_HD void add(const LayerFace& f, const Station& station, double acc[outputs]) const {
    if (f.weight == 0.0) return;
    FieldRoundingKernel<Real, true>{}.add(cell(f), station, acc);
  }
  /// The tile bound of the cells' prisms (RoundingKernel::add_tile).
  GEOBEM_HD bool add_tile(const RoundingTile& tile, const Station& station, double acc[outputs]) const {
    return FieldRoundingKernel<Real, true>{}.add_tile(tile, station, acc);
  }
  GEOBEM_HD void summarize(const LayerFace& f, RoundingTile& tile) const {
    if (f.weight != 0.0) FieldRoundingKernel<Real, true>{}.summarize(cell(f), tile);
  }

 private:
  /// The cell's prism between its surface face and the reference.
  GEOBEM_HD Prism cell(const LayerFace& f) const {
    const bool above = f.height > reference;
    return {f.west, f.east, f.south, f.north, above ? reference : f.height, above ? f.height : reference, f.weight};
  }
};

/// Σ weight · edge term over reference-plane edges at height `reference`,
/// compensated as FaceGzKernel.
template <typename Real>
struct ReferenceEdgeGzKernel {
  static constexpr int outputs = 2;
  double reference;
  GEOBEM_HD bool wanted(int) const { return true; }
  GEOBEM_HD void add(const ReferenceEdge& edge, const Station& station, double acc[2]) const {
    using std::sqrt;
    const double along = edge.along_n ? station.northing : station.easting;
    const double across = edge.along_n ? station.easting : station.northing;
    const Real high = station_relative<Real>(edge.high, along), low = station_relative<Real>(edge.low, along);
    const Real size = Real(edge.high - edge.low);
    const Real c = station_relative<Real>(edge.line, across), z = station_relative<Real>(reference, station.upward);
    const Real base = c * c + z * z;
    const Real r_high = sqrt(high * high + base), r_low = sqrt(low * low + base);
    const Real term = edge.along_n ? g_z_edge_along_n(high, low, size, c, z, r_high, r_low)
                                   : g_z_edge_along_e(high, low, size, c, z, r_high, r_low);
    compensated_add(acc, edge.weight * static_cast<double>(term));
  }
};

/// The ten-row sums of the drivers (prism_layer_forward.hpp) with g_z =
/// faces + rim (each two rows per station: sum, rounding error) and the
/// other rows zero.
inline std::vector<double> g_z_rows(const std::vector<double>& faces, const std::vector<double>& rim) {
  const std::size_t n = faces.size() / 2;
  std::vector<double> sums(10 * n, 0.0);
  const std::size_t row = static_cast<std::size_t>(Field::g_z) * n;
  for (std::size_t s = 0; s < n; ++s) sums[row + s] = (faces[s] + rim[s]) + (faces[n + s] + rim[n + s]);
  return sums;
}

}  // namespace geobem::gravity

#pragma once
// Plain data of prism gravity, shared by the compute library (gpu/gravity),
// the model readers (mesh/prisms) and the stages. Units and axes follow
// docs/design.md#units-axes-and-names (Harmonica's conventions): easting, northing, upward in metres.
#include <cstddef>
#include <vector>

namespace geobem::gravity {

/// A right rectangular prism with uniform density: bounds in metres
/// (west < east, south < north, bottom < top), density in kg/m³.
struct Prism {
  double west, east, south, north, bottom, top;
  double density;
};

/// A rectilinear grid of cells with one density per cell. Edges are strictly
/// increasing, in metres (upward: bottom to top); `density` holds
/// (easting_edges.size()-1)·(northing_edges.size()-1)·(upward_edges.size()-1)
/// values in kg/m³, easting fastest, then northing, then upward (bottom layer
/// first) — the cell order of vtkRectilinearGrid / vtkImageData.
struct PrismGrid {
  std::vector<double> easting_edges, northing_edges, upward_edges;
  std::vector<double> density;

  std::size_t cells_e() const { return easting_edges.size() - 1; }
  std::size_t cells_n() const { return northing_edges.size() - 1; }
  std::size_t cells_u() const { return upward_edges.size() - 1; }
  std::size_t cell_count() const { return cells_e() * cells_n() * cells_u(); }
  /// Index into `density` of cell (i_e, i_n, i_u).
  std::size_t index(std::size_t i_e, std::size_t i_n, std::size_t i_u) const {
    return i_e + cells_e() * (i_n + cells_n() * i_u);
  }
};

/// An observation point in metres.
struct Station {
  double easting, northing, upward;
};

/// Newton's gravitational constant, m³ kg⁻¹ s⁻² (CODATA 2018, as Harmonica).
inline constexpr double gravitational_constant = 6.67430e-11;
/// 1 m/s² in mGal and 1 s⁻² in Eötvös.
inline constexpr double si_to_mgal = 1e5;
inline constexpr double si_to_eotvos = 1e9;

}  // namespace geobem::gravity

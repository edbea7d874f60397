#pragma once
// A prism layer as a file (the VTK conventions of docs/design.md#units-axes-and-names): layer.vts, a
// vtkStructuredGrid of shape_e × shape_n × 2 points, the lower sheet at the
// reference and the upper at the surface over the prism centres (the DEM
// nodes), so ParaView shows the terrain block; point arrays `surface` (m, NaN
// where a cell was skipped) and `density` (kg/m³ of the node's prism, 0 for
// an empty one); field data `reference`, `density_above`, `density_below`,
// `west_centre`, `south_centre`, `spacing` (the exact grid the gravity stages
// evaluate), `crs` and `crs_wkt`, and `units`.
#include <filesystem>
#include <string>

#include "gpu/gravity/prism_layer.hpp"

namespace geobem::terrain {

/// A layer with the CRS its coordinates are in.
struct LayerModel {
  gravity::PrismLayer layer;
  std::string crs, crs_wkt;  ///< "EPSG:NNNN" (or a name) and its WKT; empty if unknown
};

/// Writes the layer atomically. Throws std::runtime_error naming the path.
void write_layer_vts(const std::filesystem::path& path, const LayerModel& model);

/// Reads a layer written by write_layer_vts and checks it
/// (gravity::check_prism_layer). Throws std::runtime_error naming the file and
/// the missing or inconsistent array.
LayerModel read_layer_vts(const std::filesystem::path& path);

}  // namespace geobem::terrain

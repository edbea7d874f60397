#pragma once
// A prism layer as a file (the VTK conventions of docs/design.md#units-axes-and-names): layer.vts, a
// vtkStructuredGrid of (shape_e + 1) × (shape_n + 1) × 2 points over the
// prisms' corners, so that ParaView shows one hexahedral cell per prism (per
// DEM node): the lower sheet at the reference, the upper one at the mean
// surface height of the prisms around each corner (a picture of the
// terrain); cell arrays `surface` (m, the prism's flat top, NaN where a cell
// was skipped) and `density` (kg/m³ of the prism, 0 for an empty one); field
// data `reference`, `density_above`, `density_below`, `west_centre`,
// `south_centre`, `spacing` (the exact grid the gravity stages evaluate),
// `crs` and `crs_wkt`, and `units`.
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
/// (gravity::check_prism_layer): the cells' `surface` and the field data; the
/// points are a picture only. Throws std::runtime_error naming the file and
/// the missing or inconsistent array, and for a layer of an earlier version
/// (points over the prism centres) saying to rerun geobem-model --dem.
LayerModel read_layer_vts(const std::filesystem::path& path);

}  // namespace geobem::terrain

#pragma once
// UBC-GIF 3D tensor mesh + model files (the two-file format of the UBC
// Geophysical Inversion Facility, GIF file-format documentation, "3D mesh
// file" and "model file"):
//   mesh:  NE NN NZ                cell counts (easting, northing, vertical)
//          E0 N0 Z0                south-west TOP corner, Z0 = elevation (m, up)
//          NE easting widths       west to east   (`n*w` = n cells of width w)
//          NN northing widths      south to north
//          NZ vertical widths      top to bottom
//   model: NE·NN·NZ values, vertical index fastest (top to bottom), then
//          easting (west to east), then northing (south to north).
// Lines starting with `!` are comments in both files; a UTF-8 byte-order
// mark and CR LF line ends are accepted. A model value of -99999 is UBC's
// no-data value (inactive cells, e.g. air above the topography).
#include <string>

#include "mesh/prisms/prism_model.hpp"

namespace geobem::prisms {

/// UBC-GIF's no-data value of model files.
inline constexpr double ubc_no_data = -99999.0;

/// Reads a UBC-GIF mesh file and its density model file (kg/m³) into a grid
/// model (prisms and grid, zero densities kept). No-data cells (-99999) get
/// density 0, so that they add no mass, and are counted in no_data_cells.
/// The grid's memory is checked before it is allocated. Throws std::runtime_error
/// "FILE:LINE: ..." for a missing file, a token that is not a number, a bad
/// count or width (≤ 0), a wrong number of widths or model values, and
/// "MODEL: cell (i_e, i_n, i_u) ..." for a non-finite density.
PrismModel read_ubc_model(const std::string& mesh_path, const std::string& model_path);

}  // namespace geobem::prisms

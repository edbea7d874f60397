#pragma once
// Prism models as VTK XML files: a rectilinear grid (.vtr) or image (.vti)
// with cell array `density`, or an unstructured grid (.vtu) of axis-aligned
// hexahedra or voxels with cell array `density` (kg/m³).
#include <filesystem>
#include <string>
#include <vector>

#include "mesh/prisms/prism_model.hpp"

namespace geobem::prisms {

/// Reads a .vtr/.vti (grid model: prisms and grid) or .vtu (prism list) with
/// cell array `density`, or another one-component cell array named by
/// `cell_array` whose values then stand in the density's place (the magnetic
/// stage reads `susceptibility`); zero values kept. Throws std::runtime_error
/// naming the file for a missing file, an unreadable or unsupported data
/// set, a missing cell array, a rotated image, decreasing coordinates, a
/// cell that is not an axis-aligned hexahedron/voxel, or a non-finite value
/// (naming the cell).
PrismModel read_vtk_model(const std::string& path, const std::string& cell_array = "density");

/// Writes prisms as a .vtu of VTK_HEXAHEDRON cells (corners that prisms share
/// are one point, numbered in order of first use) with
/// cell array `density` and units field data "density=kg/m^3", atomically.
void write_prism_vtu(const std::filesystem::path& path, const std::vector<Prism>& prisms);

/// Writes a grid model as a .vtr (rectilinear grid, every cell, zero densities
/// included) with coordinate arrays easting, northing, upward, cell array
/// `density` (kg/m³) and units field data,
/// atomically; read_vtk_model reads it back as the same grid. Throws
/// std::runtime_error naming the path when the write fails (write_vtk_xml).
void write_grid_vtr(const std::filesystem::path& path, const PrismGrid& grid);

}  // namespace geobem::prisms

#pragma once
// The magnetized models geobem-magnetic reads: a prism CSV with magnetization
// or susceptibility columns, a UBC-GIF mesh with a susceptibility model (the
// MAG3D convention), or a prism layer with a susceptibility or magnetization
// for its cells above and below the reference.
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "gpu/magnetic/magnetic.hpp"
#include "mesh/terrain/layer_file.hpp"

namespace geobem::magnetic_stage {

/// How prisms without their own magnetization are magnetized: induced by the
/// field from a susceptibility, or a given magnetization (A/m, E, N, U).
struct UniformMagnetization {
  std::optional<double> susceptibility, susceptibility_below;
  std::optional<std::array<double, 3>> magnetization;
  magnetic::InducingField field;
};

/// A prism CSV (header with west,east,south,north,bottom,top and either
/// magnetization_e,magnetization_n,magnetization_u (A/m) or susceptibility
/// (SI), else the uniform choice) as magnetized prisms; prisms without
/// magnetization are dropped. Throws std::runtime_error "FILE:LINE: ..." for
/// a malformed row, a non-box prism, or no magnetization anywhere.
std::vector<magnetic::MagnetizedPrism> read_magnetized_csv(const std::string& path, const UniformMagnetization& uniform);

/// The prisms of a UBC-GIF mesh and model read by read_prism_model whose
/// cell values are susceptibilities (MAG3D .sus), magnetized by the field;
/// zero susceptibilities dropped.
std::vector<magnetic::MagnetizedPrism> induced_prisms(const std::string& mesh, const std::string& model,
                                                      const magnetic::InducingField& field);

/// The cells of a VTK voxel model (.vtr, .vti, or a .vtu of hexahedra, as
/// geobem-gravity reads them) with cell array `susceptibility` (SI),
/// magnetized by the field; zero susceptibilities dropped. Throws
/// std::runtime_error naming the file (read_vtk_model's errors).
std::vector<magnetic::MagnetizedPrism> induced_vtk_prisms(const std::string& path,
                                                          const magnetic::InducingField& field);

/// A layer magnetized by the uniform choice (above the reference:
/// susceptibility or magnetization; below: susceptibility_below, default 0).
/// Throws std::runtime_error when neither is given.
magnetic::MagneticLayer magnetized_layer(const terrain::LayerModel& model, const UniformMagnetization& uniform);

}  // namespace geobem::magnetic_stage

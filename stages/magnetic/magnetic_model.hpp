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
/// field from a susceptibility, or a given magnetization (A/m, E, N, U); and
/// the inducing field as given (intensity nT, inclination and declination in
/// degrees), required only where a susceptibility needs it.
struct UniformMagnetization {
  std::optional<double> susceptibility, susceptibility_below;
  std::optional<std::array<double, 3>> magnetization;
  std::optional<double> field_intensity, inclination, declination;
};

/// The inducing field that the susceptibilities of `what` need. Throws
/// InputError::usage naming the missing options (no field is a default: the
/// main field is the site's).
magnetic::InducingField inducing_field(const UniformMagnetization& uniform, const std::string& what);

/// Magnetized prisms with what their magnetization came from, for the
/// warnings about ignored options and implausible values.
struct MagnetizedPrisms {
  std::vector<magnetic::MagnetizedPrism> prisms;
  /// The model's own values ("magnetization columns", "susceptibility
  /// column", "susceptibilities"); empty when the uniform choice magnetized it.
  std::string own_values;
  bool induced = false;                ///< some magnetization came from a susceptibility
  double largest_susceptibility = 0;   ///< largest |susceptibility| (SI) used, 0 for none
};

/// A prism CSV (header with west,east,south,north,bottom,top and either
/// magnetization_e,magnetization_n,magnetization_u (A/m) or susceptibility
/// (SI), else the uniform choice) as magnetized prisms; prisms without
/// magnetization are dropped. Throws std::runtime_error "FILE:LINE: ..." for
/// a malformed row, a non-box prism, or no magnetization anywhere;
/// InputError::usage when susceptibilities need an inducing field not given.
MagnetizedPrisms read_magnetized_csv(const std::string& path, const UniformMagnetization& uniform);

/// The prisms of a UBC-GIF mesh and model read by read_prism_model whose
/// cell values are susceptibilities (MAG3D .sus), magnetized by the field;
/// zero susceptibilities dropped.
MagnetizedPrisms induced_prisms(const std::string& mesh, const std::string& model,
                                const UniformMagnetization& uniform);

/// The cells of a VTK voxel model (.vtr, .vti, or a .vtu of hexahedra, as
/// geobem-gravity reads them) with cell array `susceptibility` (SI),
/// magnetized by the field; zero susceptibilities dropped. Throws
/// std::runtime_error naming the file (read_vtk_model's errors).
MagnetizedPrisms induced_vtk_prisms(const std::string& path, const UniformMagnetization& uniform);

/// A layer magnetized by the uniform choice (above the reference:
/// susceptibility or magnetization; below: susceptibility_below, default 0).
/// Throws std::runtime_error when neither is given.
magnetic::MagneticLayer magnetized_layer(const terrain::LayerModel& model, const UniformMagnetization& uniform);

/// Susceptibilities above this (SI) draw a warning: rare in rock, and where
/// the induced magnetization, which neglects self-demagnetization, is wrong.
inline constexpr double largest_plausible_susceptibility = 1.0;

}  // namespace geobem::magnetic_stage

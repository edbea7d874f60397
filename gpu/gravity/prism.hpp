#pragma once
// Plain data of prism gravity, shared by the compute library (gpu/gravity),
// the model readers (mesh/prisms) and the stages. Units and axes follow
// DESIGN.md (Harmonica's conventions): easting, northing, upward in metres.

namespace geobem::gravity {

/// A right rectangular prism with uniform density: bounds in metres
/// (west < east, south < north, bottom < top), density in kg/m³.
struct Prism {
  double west, east, south, north, bottom, top;
  double density;
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

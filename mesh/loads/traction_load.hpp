#pragma once
// A prescribed traction on one boundary group, as a user writes it.
#include <array>
#include <string>

namespace geobem::loads {

/// A uniform traction (Pa) on one boundary group.
struct TractionLoad {
  std::string group;
  std::array<double, 3> traction{};
};

/// "GROUP=P:DX,DY,DZ": the traction P d/|d| (Pa), magnitude P along the
/// direction d = (DX, DY, DZ) of any length. |d| is taken with d scaled by its
/// largest component first, so a direction of huge or tiny components
/// (1e300,1e300,0; 1e-310,0,0) is the unit vector it points along, never an
/// overflow to a zero traction. Throws InputError::usage naming the text
/// for a missing '=' or ':', no group or several, a field that is not a
/// finite number (named), or the zero direction.
TractionLoad parse_traction_load(const std::string& text);

}  // namespace geobem::loads

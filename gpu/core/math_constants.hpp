#pragma once
// Mathematical constants for host and device code from one definition
// (std::numbers is C++20; M_PI is a POSIX extension).

namespace geobem {

/// π, rounded to double.
inline constexpr double kPi = 3.14159265358979323846;

}  // namespace geobem

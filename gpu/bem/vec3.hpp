#pragma once
// Small 3-vector for point kernels (host and device).
#include <cmath>

#include "gpu/core/host_device.hpp"

namespace geobem::bem {

struct Vec3 {
  double x = 0.0, y = 0.0, z = 0.0;
  GEOBEM_HD double operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
};
GEOBEM_HD inline Vec3 operator+(Vec3 a, Vec3 b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
GEOBEM_HD inline Vec3 operator-(Vec3 a, Vec3 b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
GEOBEM_HD inline Vec3 operator*(double s, Vec3 a) { return {s * a.x, s * a.y, s * a.z}; }
GEOBEM_HD inline double dot(Vec3 a, Vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
GEOBEM_HD inline Vec3 cross(Vec3 a, Vec3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
GEOBEM_HD inline double norm(Vec3 a) { return sqrt(dot(a, a)); }

}  // namespace geobem::bem

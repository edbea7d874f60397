#include "mesh/surface/mesh_geometry.hpp"

#include <cmath>

namespace geobem::surface {

namespace {
Vector3 cross(const Vector3& u, const Vector3& v) {
  return {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
}
Vector3 minus(const Vector3& u, const Vector3& v) { return {u[0] - v[0], u[1] - v[1], u[2] - v[2]}; }
double norm(const Vector3& u) { return std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]); }
}  // namespace

Vector3 triangle_area_vector(const SurfaceMesh& mesh, int t) {
  const auto& [a, b, c] = mesh.triangles[t];
  return cross(minus(mesh.nodes[b], mesh.nodes[a]), minus(mesh.nodes[c], mesh.nodes[a]));
}

double triangle_area(const SurfaceMesh& mesh, int t) { return 0.5 * norm(triangle_area_vector(mesh, t)); }

Vector3 triangle_normal(const SurfaceMesh& mesh, int t) {
  const Vector3 n = triangle_area_vector(mesh, t);
  const double length = norm(n);
  if (length == 0) return {0, 0, 0};
  return {n[0] / length, n[1] / length, n[2] / length};
}

Vector3 triangle_centroid(const SurfaceMesh& mesh, int t) {
  Vector3 centroid{0, 0, 0};
  for (int corner : mesh.triangles[t])
    for (int a = 0; a < 3; ++a) centroid[a] += mesh.nodes[corner][a] / 3;
  return centroid;
}

double surface_area(const SurfaceMesh& mesh) {
  double area = 0;
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) area += triangle_area(mesh, t);
  return area;
}

double enclosed_volume(const SurfaceMesh& mesh) {
  if (mesh.nodes.empty()) return 0;
  // Coordinates relative to one node of the mesh: the sum is the same for a
  // closed surface, and far from the origin it keeps its digits.
  const Vector3 reference = mesh.nodes.front();
  double six_volume = 0;
  for (const auto& [a, b, c] : mesh.triangles) {
    const Vector3 bc = cross(minus(mesh.nodes[b], reference), minus(mesh.nodes[c], reference));
    const Vector3 x = minus(mesh.nodes[a], reference);
    six_volume += x[0] * bc[0] + x[1] * bc[1] + x[2] * bc[2];
  }
  return six_volume / 6;
}

}  // namespace geobem::surface

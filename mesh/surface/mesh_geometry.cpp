#include "mesh/surface/mesh_geometry.hpp"

#include <cmath>

namespace geobem::surface {

namespace {
Vector3 cross(const Vector3& u, const Vector3& v) {
  return {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
}
Vector3 minus(const Vector3& u, const Vector3& v) { return {u[0] - v[0], u[1] - v[1], u[2] - v[2]}; }
double norm(const Vector3& u) { return std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]); }
double dot(const Vector3& u, const Vector3& v) { return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]; }
/// a + s·u + t·v
Vector3 along(const Vector3& a, double s, const Vector3& u, double t = 0, const Vector3& v = {0, 0, 0}) {
  return {a[0] + s * u[0] + t * v[0], a[1] + s * u[1] + t * v[1], a[2] + s * u[2] + t * v[2]};
}
}  // namespace

double distance_to_triangle(const SurfaceMesh& mesh, int t, const Vector3& p) {
  const Vector3 &a = mesh.nodes[mesh.triangles[t][0]], &b = mesh.nodes[mesh.triangles[t][1]],
                &c = mesh.nodes[mesh.triangles[t][2]];
  const auto distance = [&](const Vector3& q) { return norm(minus(p, q)); };
  const Vector3 ab = minus(b, a), ac = minus(c, a), ap = minus(p, a);
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return distance(a);
  const Vector3 bp = minus(p, b);
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return distance(b);
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return distance(along(a, d1 / (d1 - d3), ab));
  const Vector3 cp = minus(p, c);
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return distance(c);
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return distance(along(a, d2 / (d2 - d6), ac));
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0)
    return distance(along(b, (d4 - d3) / ((d4 - d3) + (d5 - d6)), minus(c, b)));
  const double denominator = 1.0 / (va + vb + vc);
  return distance(along(a, vb * denominator, ab, vc * denominator, ac));
}

double longest_edge(const SurfaceMesh& mesh, int t) {
  const auto& [a, b, c] = mesh.triangles[t];
  return std::fmax(norm(minus(mesh.nodes[b], mesh.nodes[a])),
                   std::fmax(norm(minus(mesh.nodes[c], mesh.nodes[b])), norm(minus(mesh.nodes[a], mesh.nodes[c]))));
}

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

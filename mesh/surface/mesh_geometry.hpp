#pragma once
#include <array>

#include "mesh/surface/surface_mesh.hpp"

namespace geobem::surface {

using Vector3 = std::array<double, 3>;

/// (b − a) × (c − a) of triangle t: twice its area times its unit normal
/// (m²), pointing out of the body for a counter-clockwise triangle.
Vector3 triangle_area_vector(const SurfaceMesh& mesh, int t);

/// Area of triangle t (m²).
double triangle_area(const SurfaceMesh& mesh, int t);

/// Unit normal of triangle t; zero for a degenerate triangle.
Vector3 triangle_normal(const SurfaceMesh& mesh, int t);

/// Distance (m) from `point` to triangle t, by its nearest point (Ericson
/// 2005, "Real-Time Collision Detection", §5.1.5: the Voronoi regions of its
/// corners, edges and face).
double distance_to_triangle(const SurfaceMesh& mesh, int t, const Vector3& point);

/// Longest edge of triangle t (m).
double longest_edge(const SurfaceMesh& mesh, int t);

/// Centroid of triangle t (m).
Vector3 triangle_centroid(const SurfaceMesh& mesh, int t);

/// Total area of the surface (m²).
double surface_area(const SurfaceMesh& mesh);

/// Volume enclosed by a closed, consistently oriented surface (m³), by the
/// divergence theorem with the field (x − r)/3, r any point:
/// V = (1/6) Σ_t (a − r)·((b − r) × (c − r)), r = the first node. Positive
/// when the normals point outward, negative when they point inward.
double enclosed_volume(const SurfaceMesh& mesh);

}  // namespace geobem::surface

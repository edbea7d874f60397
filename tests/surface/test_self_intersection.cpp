// intersecting_triangles(): closed meshes without intersections, pairs of
// triangles whose answer is known by construction (crossing, touching,
// missing by a little, coplanar, sharing a node or an edge), and a random
// battery whose pairs are built to be separated by a plane or to share an
// interior point, at scales over six decades.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

#include "mesh/surface/box_generator.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/self_intersection.hpp"

using namespace geobem::surface;
using Point = std::array<double, 3>;

namespace {

/// A mesh of the two triangles `a` and `b` (their own nodes: none shared).
SurfaceMesh pair(const std::array<Point, 3>& a, const std::array<Point, 3>& b) {
  SurfaceMesh mesh;
  mesh.nodes = {a[0], a[1], a[2], b[0], b[1], b[2]};
  mesh.triangles = {{0, 1, 2}, {3, 4, 5}};
  mesh.group_of_triangle = {0, 0};
  mesh.group_names = {"all"};
  return mesh;
}

/// Triangles (p, a, b) and (p, c, d), sharing the node p.
SurfaceMesh corner_pair(const Point& p, const Point& a, const Point& b, const Point& c, const Point& d) {
  SurfaceMesh mesh;
  mesh.nodes = {p, a, b, c, d};
  mesh.triangles = {{0, 1, 2}, {0, 3, 4}};
  mesh.group_of_triangle = {0, 0};
  mesh.group_names = {"all"};
  return mesh;
}

/// Triangles (p, q, a) and (q, p, b), sharing the edge pq.
SurfaceMesh edge_pair(const Point& p, const Point& q, const Point& a, const Point& b) {
  SurfaceMesh mesh;
  mesh.nodes = {p, q, a, b};
  mesh.triangles = {{0, 1, 2}, {1, 0, 3}};
  mesh.group_of_triangle = {0, 0};
  mesh.group_names = {"all"};
  return mesh;
}

bool intersect(const SurfaceMesh& mesh) { return !intersecting_triangles(mesh).empty(); }

}  // namespace

TEST(SelfIntersection, ClosedMeshesHaveNone) {
  EXPECT_TRUE(intersecting_triangles(generate_box_surface({3, 1, 1}, {0, 0, 0}, 0.25)).empty());
  // A box inside a box (a cavity): two surfaces, no contact.
  SurfaceMesh nested = generate_box_surface({3, 3, 3}, {0, 0, 0}, 0.5);
  const SurfaceMesh inner = generate_box_surface({1, 1, 1}, {1, 1, 1}, 0.5);
  const int offset = static_cast<int>(nested.nodes.size());
  nested.nodes.insert(nested.nodes.end(), inner.nodes.begin(), inner.nodes.end());
  for (auto triangle : inner.triangles) {
    for (int& node : triangle) node += offset;
    nested.triangles.push_back(triangle);
    nested.group_of_triangle.push_back(0);
  }
  EXPECT_TRUE(intersecting_triangles(nested).empty());
  // The inner box pushed through the outer one's face x = 3: named in the check.
  for (std::size_t k = offset; k < nested.nodes.size(); ++k) nested.nodes[k][0] += 1.5;
  const auto pairs = intersecting_triangles(nested, 100);
  EXPECT_FALSE(pairs.empty());
  const MeshCheckReport report = check_surface_mesh(nested);
  EXPECT_NE(report.message().find("self-intersecting surface: triangle"), std::string::npos) << report.message();
}

TEST(SelfIntersection, PairsWithKnownAnswers) {
  const std::array<Point, 3> base{{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}}};
  // Through the base's interior; missing it by 1e-3; one corner on it.
  EXPECT_TRUE(intersect(pair(base, {{{0.5, 0.5, -1}, {0.5, 0.5, 1}, {1.5, -0.5, 0.5}}})));
  EXPECT_FALSE(intersect(pair(base, {{{0.5, 0.5, 1e-3}, {0.5, 0.5, 1}, {1.5, -0.5, 0.5}}})));
  EXPECT_TRUE(intersect(pair(base, {{{0.5, 0.5, 0}, {0.5, 0.5, 1}, {1.5, -0.5, 0.5}}})));
  // Above the base's hypotenuse, outside it, reaching down past its plane.
  EXPECT_FALSE(intersect(pair(base, {{{1.2, 1.2, -1}, {1.2, 1.2, 1}, {3, 3, 0}}})));
  // Coplanar: overlapping, and apart.
  EXPECT_TRUE(intersect(pair(base, {{{1, 1, 0}, {-1, 0.5, 0}, {0.5, -1, 0}}})));
  EXPECT_FALSE(intersect(pair(base, {{{1.5, 1.5, 0}, {3, 1.5, 0}, {1.5, 3, 0}}})));
  // Sharing a node: a fan corner beside the base's; one passing through it.
  const Point p{0, 0, 0}, a{2, 0, 0}, b{0, 2, 0};
  EXPECT_FALSE(intersect(corner_pair(p, a, b, {-1, -1, 1}, {-1, 1, 0})));
  EXPECT_TRUE(intersect(corner_pair(p, a, b, {1, 1, 1}, {1, 1, -1})));
  EXPECT_TRUE(intersect(corner_pair(p, a, b, {1, 0.2, 0}, {0.2, 1, 0})));  // coplanar, inside the corner
  // Sharing an edge: at a right angle, flat, and folded onto each other.
  const Point q{2, 0, 0};
  EXPECT_FALSE(intersect(edge_pair(p, q, {1, 1, 0}, {1, 0, 1})));
  EXPECT_FALSE(intersect(edge_pair(p, q, {1, 1, 0}, {1, -1, 0})));
  EXPECT_TRUE(intersect(edge_pair(p, q, {1, 1, 0}, {1, 0.5, 0})));
}

TEST(SelfIntersection, RandomPairsSeparatedByAPlaneOrSharingAPoint) {
  std::mt19937_64 random(20261129);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), fraction(0.05, 1.0), decades(-3.0, 3.0);
  const auto random_point = [&](double scale, const Point& centre) {
    return Point{centre[0] + scale * unit(random), centre[1] + scale * unit(random), centre[2] + scale * unit(random)};
  };
  int wrong_separated = 0, wrong_sharing = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const double scale = std::pow(10.0, decades(random));
    const Point centre = random_point(10 * scale, {0, 0, 0});
    // Separated: a random plane through the centre, each triangle on its own side.
    Point normal = random_point(1, {0, 0, 0});
    const double length = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
    for (double& c : normal) c /= length;
    std::array<Point, 3> below, above;
    for (int k = 0; k < 3; ++k) {
      Point x = random_point(scale, centre), y = random_point(scale, centre);
      double dx = 0, dy = 0;
      for (int c = 0; c < 3; ++c) {
        dx += normal[c] * (x[c] - centre[c]);
        dy += normal[c] * (y[c] - centre[c]);
      }
      // Moved along the normal to 1e-6 to 1 scales (log-uniform) below and above the plane.
      const double depth = scale * std::pow(10.0, -6.0 * fraction(random)),
                   height = scale * std::pow(10.0, -6.0 * fraction(random));
      for (int c = 0; c < 3; ++c) {
        x[c] -= (dx + depth) * normal[c];
        y[c] -= (dy - height) * normal[c];
      }
      below[k] = x;
      above[k] = y;
    }
    wrong_separated += intersect(pair(below, above));
    // Sharing a point: P inside the first, and the second built around P
    // with positive barycentric weights.
    std::array<Point, 3> first{random_point(scale, centre), random_point(scale, centre), random_point(scale, centre)};
    const double u = fraction(random), v = fraction(random), w = fraction(random), s = u + v + w;
    Point inside{};
    for (int c = 0; c < 3; ++c) inside[c] = (u * first[0][c] + v * first[1][c] + w * first[2][c]) / s;
    const double a = fraction(random), b = fraction(random), d = fraction(random), t = a + b + d;
    const Point q0 = random_point(scale, centre), q1 = random_point(scale, centre);
    Point q2{};
    for (int c = 0; c < 3; ++c) q2[c] = (inside[c] - (a / t) * q0[c] - (b / t) * q1[c]) / (d / t);
    wrong_sharing += !intersect(pair(first, {q0, q1, q2}));
  }
  EXPECT_EQ(wrong_separated, 0);
  EXPECT_EQ(wrong_sharing, 0);
}

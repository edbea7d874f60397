// The box/rod generator against closed forms: element counts, total area,
// the enclosed volume by the divergence theorem, group areas and normals.
#include <gtest/gtest.h>

#include <cmath>

#include "mesh/surface/box_generator.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/mesh_geometry.hpp"

using namespace geobem::surface;

TEST(BoxGenerator, RodCountsForTheRequestedElementSize) {
  // n = ceil(L·√2/h): 3·√2/0.25 = 16.97 → 17, √2/0.25 = 5.66 → 6.
  EXPECT_EQ(box_divisions({3, 1, 1}, 0.25), (std::array<int, 3>{17, 6, 6}));
  const auto rod = generate_box_surface({3, 1, 1}, {0, 0, 0}, 0.25);
  EXPECT_EQ(rod.triangles.size(), 4u * 17 * 6 * 2 + 2u * 6 * 6 * 2);  // 960
  // h = 0.24: 18×6×6, the 1,008-triangle rod of docs/references.md#rod-benchmark.
  EXPECT_EQ(generate_box_surface({3, 1, 1}, {0, 0, 0}, 0.24).triangles.size(), 1008u);
  // Surface nodes of an (nx, ny, nz) lattice: all minus the interior ones.
  EXPECT_EQ(rod.nodes.size(), 18u * 7 * 7 - 16u * 5 * 5);
}

TEST(BoxGenerator, ClosedManifoldOutwardWithAreaAndVolume) {
  const std::array<double, 3> lengths{3, 1, 2}, origin{10, -5, 100};
  const auto mesh = generate_box_surface(lengths, origin, 0.3);
  const auto report = check_surface_mesh(mesh);
  EXPECT_TRUE(report.ok()) << report.message();
  EXPECT_NEAR(surface_area(mesh), 2 * (3 * 1 + 3 * 2 + 1 * 2), 1e-11);
  EXPECT_NEAR(enclosed_volume(mesh), 3 * 1 * 2, 1e-11);
  // The longest edge of every triangle is within the target size.
  for (const auto& tri : mesh.triangles)
    for (int k = 0; k < 3; ++k) {
      const auto &p = mesh.nodes[tri[k]], &q = mesh.nodes[tri[(k + 1) % 3]];
      EXPECT_LE(std::hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]), 0.3 + 1e-12);
    }
}

TEST(BoxGenerator, GroupsAreTheFacesWithOutwardNormals) {
  const std::array<double, 3> lengths{3, 1, 1}, origin{0, 0, 0};
  const auto mesh = generate_box_surface(lengths, origin, 0.5);
  ASSERT_EQ(mesh.group_names, (std::vector<std::string>{"x_min", "x_max", "y_min", "y_max", "z_min", "z_max"}));
  ASSERT_EQ(mesh.group_of_triangle.size(), mesh.triangles.size());
  std::array<double, 6> area{};
  for (int t = 0; t < static_cast<int>(mesh.triangles.size()); ++t) {
    const int g = mesh.group_of_triangle[t];
    const int axis = g / 2;
    const double sign = g % 2 == 0 ? -1 : 1;
    const auto n = triangle_normal(mesh, t);
    for (int a = 0; a < 3; ++a) EXPECT_NEAR(n[a], a == axis ? sign : 0, 1e-14) << "triangle " << t;
    // Every node of the triangle lies on the group's face.
    for (int node : mesh.triangles[t])
      EXPECT_DOUBLE_EQ(mesh.nodes[node][axis], origin[axis] + (g % 2) * lengths[axis]);
    area[g] += triangle_area(mesh, t);
  }
  EXPECT_NEAR(area[0], 1.0, 1e-13);
  EXPECT_NEAR(area[1], 1.0, 1e-13);
  for (int g = 2; g < 6; ++g) EXPECT_NEAR(area[g], 3.0, 1e-13);
}

TEST(BoxGenerator, RefusesBadSizes) {
  EXPECT_THROW(generate_box_surface({3, 1, 1}, {0, 0, 0}, 0), std::invalid_argument);
  EXPECT_THROW(generate_box_surface({3, -1, 1}, {0, 0, 0}, 0.1), std::invalid_argument);
  EXPECT_THROW(generate_box_surface({3, 1, 1}, {0, 0, 0}, 1e-6), std::invalid_argument);
}

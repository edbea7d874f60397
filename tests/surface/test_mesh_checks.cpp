// The mesh checks on broken meshes built by hand, each with its documented
// message, and the orientation fix.
#include <gtest/gtest.h>

#include <cmath>

#include "mesh/surface/box_generator.hpp"
#include "mesh/surface/mesh_checks.hpp"
#include "mesh/surface/mesh_geometry.hpp"

using namespace geobem::surface;

namespace {

/// The unit tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1), outward, one group.
SurfaceMesh tetrahedron() {
  SurfaceMesh mesh;
  mesh.nodes = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  mesh.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  mesh.group_of_triangle = {0, 0, 0, 0};
  mesh.group_names = {"all"};
  return mesh;
}

/// `inner` appended to `outer` as further closed surfaces, in `outer`'s groups.
SurfaceMesh with_surface(SurfaceMesh outer, const SurfaceMesh& inner, bool reverse_inner) {
  const int offset = static_cast<int>(outer.nodes.size());
  outer.nodes.insert(outer.nodes.end(), inner.nodes.begin(), inner.nodes.end());
  for (auto tri : inner.triangles) {
    for (int& n : tri) n += offset;
    if (reverse_inner) std::swap(tri[1], tri[2]);
    outer.triangles.push_back(tri);
    outer.group_of_triangle.push_back(0);
  }
  return outer;
}

/// A box of edge `edge` with its smallest corner at (c, c, c), outward.
SurfaceMesh cube_at(double c, double edge) { return generate_box_surface({edge, edge, edge}, {c, c, c}, 2 * edge); }

bool mentions(const MeshCheckReport& report, const std::string& text) {
  return report.message().find(text) != std::string::npos;
}

}  // namespace

TEST(MeshChecks, TetrahedronIsValidWithItsVolume) {
  const auto mesh = tetrahedron();
  EXPECT_TRUE(check_surface_mesh(mesh).ok()) << check_surface_mesh(mesh).message();
  EXPECT_NEAR(enclosed_volume(mesh), 1.0 / 6, 1e-15);
  EXPECT_NEAR(surface_area(mesh), 1.5 + std::sqrt(3.0) / 2, 1e-15);
}

TEST(MeshChecks, OpenSurface) {
  auto mesh = tetrahedron();
  mesh.triangles.pop_back();
  mesh.group_of_triangle.pop_back();
  const auto report = check_surface_mesh(mesh);
  ASSERT_FALSE(report.ok());
  EXPECT_TRUE(mentions(report, "open surface: edge (1, 2) of triangle 0 belongs to no other triangle"))
      << report.message();
  EXPECT_THROW(orient_outward(mesh), std::runtime_error);
}

TEST(MeshChecks, NonManifoldEdge) {
  // A second tetrahedron hinged on the edge (0, 1): four triangles share it.
  auto mesh = tetrahedron();
  mesh.nodes.push_back({0.5, -1, -1});
  mesh.nodes.push_back({0.5, -1, 0});
  mesh.triangles.insert(mesh.triangles.end(), {{0, 1, 4}, {0, 5, 1}, {0, 4, 5}, {1, 5, 4}});
  mesh.group_of_triangle.resize(mesh.triangles.size(), 0);
  const auto report = check_surface_mesh(mesh);
  EXPECT_TRUE(mentions(report, "non-manifold edge (0, 1): shared by 4 triangles (0, 1, 4, 5)")) << report.message();
}

TEST(MeshChecks, TwoTetrahedraTouchingAtANode) {
  // The tetrahedron and its point reflection through node 0 (reflection
  // reverses orientation, so the copies' triangles are reversed back).
  auto mesh = tetrahedron();
  for (int k = 1; k < 4; ++k) mesh.nodes.push_back({-mesh.nodes[k][0], -mesh.nodes[k][1], -mesh.nodes[k][2]});
  const auto first = mesh.triangles;
  for (auto tri : first) {
    for (int& n : tri)
      if (n > 0) n += 3;
    mesh.triangles.push_back({tri[0], tri[2], tri[1]});
    mesh.group_of_triangle.push_back(0);
  }
  const auto report = check_surface_mesh(mesh);
  EXPECT_EQ(report.message(), "non-manifold node 0: its 6 triangles form separate fans (surfaces touching at one point)");
  // Each tetrahedron alone encloses 1/6 m³ outward.
  EXPECT_NEAR(enclosed_volume(mesh), 1.0 / 3, 1e-15);
}

TEST(MeshChecks, DegenerateTriangleNamesItsNodes) {
  auto mesh = tetrahedron();
  mesh.nodes[3] = {0.5, 0.5, 0};  // on the hypotenuse of the base: three faces collapse
  const auto report = check_surface_mesh(mesh);
  EXPECT_TRUE(mentions(report, "degenerate triangle 3 (nodes 1, 2, 3): area 0 m^2")) << report.message();
}

TEST(MeshChecks, InwardAndInconsistentNormals) {
  auto inward = tetrahedron();
  for (auto& tri : inward.triangles) std::swap(tri[1], tri[2]);
  const auto report = check_surface_mesh(inward);
  EXPECT_TRUE(mentions(report, "normals into the solid: closed surface 0 (containing triangle 0, an outermost "
                               "surface) encloses volume -0.166667 m^3; with the solid in the interior domain it "
                               "bounds solid, so its normals must point outward (positive volume)"))
      << report.message();
  EXPECT_EQ(orient_outward(inward), 4);
  EXPECT_TRUE(check_surface_mesh(inward).ok());

  auto mixed = generate_box_surface({2, 1, 1}, {0, 0, 0}, 0.5);
  for (std::size_t t = 0; t < mixed.triangles.size(); t += 3) std::swap(mixed.triangles[t][1], mixed.triangles[t][2]);
  EXPECT_TRUE(mentions(check_surface_mesh(mixed), "inconsistent orientation: triangles"));
  const int flipped = orient_outward(mixed);
  EXPECT_EQ(flipped, static_cast<int>((mixed.triangles.size() + 2) / 3));
  EXPECT_TRUE(check_surface_mesh(mixed).ok()) << check_surface_mesh(mixed).message();
  EXPECT_NEAR(enclosed_volume(mixed), 2.0, 1e-13);
}

TEST(MeshChecks, MissingGroup) {
  auto mesh = tetrahedron();
  mesh.group_of_triangle[2] = -1;
  EXPECT_TRUE(mentions(check_surface_mesh(mesh), "triangle 2 (nodes 0, 3, 2) is in no boundary group (group id -1, 1 groups)"));
  mesh.group_of_triangle.pop_back();
  EXPECT_TRUE(mentions(check_surface_mesh(mesh), "boundary groups: 3 group ids for 4 triangles"));
}

TEST(MeshChecks, NonFiniteCoordinates) {
  auto mesh = tetrahedron();
  mesh.nodes[2][1] = std::nan("");
  EXPECT_EQ(check_surface_mesh(mesh).message(), "node 2 has a coordinate that is not a finite number");
}

TEST(MeshChecks, RequireThrowsWithTheSource) {
  auto mesh = tetrahedron();
  mesh.triangles[0][0] = 7;
  try {
    require_valid_surface_mesh(mesh, "model.msh");
    FAIL() << "no exception";
  } catch (const std::runtime_error& error) {
    EXPECT_STREQ(error.what(), "model.msh: invalid surface mesh:\ntriangle 0 (nodes 7, 2, 1) refers to node 7 of 4");
  }
}

TEST(MeshOrientation, HollowCubeIsValidAsItIs) {
  // Unit cube with a 0.5 m cavity whose normals point into the cavity (out of the solid).
  auto hollow = with_surface(cube_at(0, 1), cube_at(0.25, 0.5), true);
  ASSERT_TRUE(check_surface_mesh(hollow).ok()) << check_surface_mesh(hollow).message();
  const auto surfaces = closed_surfaces(hollow);
  ASSERT_EQ(surfaces.size(), 2u);
  EXPECT_EQ(surfaces[0].depth, 0);
  EXPECT_EQ(surfaces[1].depth, 1);
  EXPECT_EQ(surfaces[1].parents, std::vector<int>{0});
  EXPECT_NEAR(surfaces[0].enclosed_volume, 1.0, 1e-14);
  EXPECT_NEAR(surfaces[1].enclosed_volume, -0.125, 1e-14);
  EXPECT_EQ(orient_outward(hollow), 0);
  EXPECT_NEAR(enclosed_volume(hollow), 0.875, 1e-14);
  EXPECT_EQ(solid_domain_of(hollow), SolidDomain::interior);
}

TEST(MeshOrientation, ReversedCavityIsFoundAndFixed) {
  auto hollow = with_surface(cube_at(0, 1), cube_at(0.25, 0.5), false);
  const auto report = check_surface_mesh(hollow);
  EXPECT_EQ(report.message(),
            "normals into the solid: closed surface 1 (containing triangle 12, a surface inside closed surface 0) "
            "encloses volume 0.125 m^3; with the solid in the interior domain it bounds a cavity, so its normals "
            "must point into the cavity (negative volume)");
  EXPECT_EQ(orient_outward(hollow), 12);
  EXPECT_TRUE(check_surface_mesh(hollow).ok()) << check_surface_mesh(hollow).message();
  EXPECT_NEAR(enclosed_volume(hollow), 0.875, 1e-14);

  // The whole file inside out: both surfaces turned back.
  for (auto& tri : hollow.triangles) std::swap(tri[1], tri[2]);
  EXPECT_EQ(orient_outward(hollow), 24);
  EXPECT_NEAR(enclosed_volume(hollow), 0.875, 1e-14);
}

TEST(MeshOrientation, NestingAlternatesAndSiblingsShareADepth) {
  // A block with two cavities side by side, and a body (an inclusion) inside the first cavity.
  auto block = generate_box_surface({3, 1, 1}, {0, 0, 0}, 0.5);
  auto mesh = with_surface(block, cube_at(0.2, 0.6), false);
  mesh = with_surface(mesh, generate_box_surface({0.6, 0.6, 0.6}, {2.2, 0.2, 0.2}, 1.0), false);
  mesh = with_surface(mesh, cube_at(0.4, 0.2), false);
  const auto surfaces = closed_surfaces(mesh);
  ASSERT_EQ(surfaces.size(), 4u);
  EXPECT_EQ(surfaces[1].depth, 1);
  EXPECT_EQ(surfaces[2].depth, 1);
  EXPECT_EQ(surfaces[3].depth, 2);
  EXPECT_EQ(surfaces[3].parents, (std::vector<int>{0, 1}));
  orient_outward(mesh);
  ASSERT_TRUE(check_surface_mesh(mesh).ok()) << check_surface_mesh(mesh).message();
  EXPECT_NEAR(enclosed_volume(mesh), 3 - 2 * 0.216 + 0.008, 1e-13);
}

TEST(MeshOrientation, LoneSurfaceAsAnExteriorDomain) {
  // A cavity in an unbounded solid: its normals point into the cavity.
  auto cavity = tetrahedron();
  const auto report = check_surface_mesh(cavity, default_degenerate_tolerance, SolidDomain::exterior);
  EXPECT_TRUE(mentions(report, "with the solid in the exterior domain it bounds a cavity")) << report.message();
  EXPECT_EQ(orient_outward(cavity, SolidDomain::exterior), 4);
  EXPECT_TRUE(check_surface_mesh(cavity, default_degenerate_tolerance, SolidDomain::exterior).ok());
  EXPECT_NEAR(enclosed_volume(cavity), -1.0 / 6, 1e-15);
  EXPECT_EQ(solid_domain_of(cavity), SolidDomain::exterior);
  // Refused as a finite body.
  EXPECT_FALSE(check_surface_mesh(cavity).ok());
}

TEST(MeshOrientation, DomainOfDisagreeingOutermostSurfacesIsUnknown) {
  auto two = with_surface(cube_at(0, 1), cube_at(3, 1), true);
  EXPECT_EQ(solid_domain_of(two), std::nullopt);
  auto open = tetrahedron();
  open.triangles.pop_back();
  EXPECT_THROW(closed_surfaces(open), std::runtime_error);
}

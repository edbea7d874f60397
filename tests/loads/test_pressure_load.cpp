// Pressure on boundary groups: the traction −p n per triangle, whose sum over
// a closed surface vanishes and whose sum over one face is −p × its area
// vector, and the option text's errors.
#include <gtest/gtest.h>

#include "mesh/loads/pressure_load.hpp"
#include "mesh/surface/box_generator.hpp"
#include "mesh/surface/mesh_geometry.hpp"
#include "tests/support/test_files.hpp"

using namespace geobem;
using geobem::test::error_of;

TEST(PressureLoad, TractionPushesIntoTheSolid) {
  // The unit cube with 2 m edges, groups x_min … z_max, normals outward.
  const auto box = surface::generate_box_surface({2, 2, 2}, {0, 0, 0}, 0.5);
  const auto traction = loads::pressure_tractions(box, {loads::parse_pressure_load("x_max=1e6"),
                                                        loads::parse_pressure_load("z_min=-2.5e5")});
  double force_x = 0, force_z = 0;
  for (std::size_t t = 0; t < box.triangles.size(); ++t) {
    const double area = surface::triangle_area(box, static_cast<int>(t));
    const auto& name = box.group_names[box.group_of_triangle[t]];
    if (name == "x_max") {
      EXPECT_DOUBLE_EQ(traction[t][0], -1e6);  // outward normal +x: pushes in −x, into the solid
      EXPECT_EQ(traction[t][1], 0.0);
    } else if (name == "z_min") {
      EXPECT_DOUBLE_EQ(traction[t][2], -2.5e5);  // a suction on the bottom, normal −z
    } else {
      EXPECT_EQ(traction[t], (std::array<double, 3>{0, 0, 0}));
    }
    force_x += traction[t][0] * area;
    force_z += traction[t][2] * area;
  }
  EXPECT_NEAR(force_x, -4e6, 1e-6);
  EXPECT_NEAR(force_z, -1e6, 1e-6);

  // A uniform pressure on the whole closed surface exerts no net force.
  auto one_group = box;
  for (auto& g : one_group.group_of_triangle) g = 0;
  one_group.group_names = {"wall"};
  double net[3] = {0, 0, 0};
  const auto uniform = loads::pressure_tractions(one_group, {{"wall", 1e6}});
  for (std::size_t t = 0; t < box.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) net[k] += uniform[t][k] * surface::triangle_area(box, static_cast<int>(t));
  for (double f : net) EXPECT_NEAR(f, 0.0, 1e-6);
}

TEST(PressureLoad, ErrorsNameTheText) {
  EXPECT_EQ(error_of([] { loads::parse_pressure_load("cavity"); }),
            "pressure 'cavity': expected GROUP=P (P in Pa, positive pushes into the solid)");
  EXPECT_EQ(error_of([] { loads::parse_pressure_load("=1e6"); }), "pressure '=1e6': no group name before '='");
  EXPECT_EQ(error_of([] { loads::parse_pressure_load("cavity=1MPa"); }),
            "pressure 'cavity=1MPa': '1MPa' is not a finite number");
  EXPECT_EQ(error_of([] { loads::parse_pressure_load("cavity=inf"); }),
            "pressure 'cavity=inf': 'inf' is not a finite number");
  const auto box = surface::generate_box_surface({1, 1, 1}, {0, 0, 0}, 1.0);
  EXPECT_EQ(error_of([&] { loads::pressure_tractions(box, {{"wall", 1.0}}); }),
            "pressure on group 'wall': the mesh has no such group (groups: x_min, x_max, y_min, y_max, z_min, z_max)");
  EXPECT_EQ(error_of([&] { loads::pressure_tractions(box, {{"x_min", 1.0}, {"x_min", 2.0}}); }),
            "pressure on group 'x_min' given twice");
}

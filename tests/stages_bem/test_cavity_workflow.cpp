// The cavity-pressure workflow end to end on its default mesh with coarse,
// short CQ steps (options after `--`): receivers and the wall against
// Sharpe's closed form computed here (gpu/bem/cavity_closed_form.hpp, itself
// checked against a numerical inverse Laplace transform), the arrival times
// r/c along the line of receivers, the receivers' point sets in the .pvd,
// and bad receivers refused with nothing written.
#include <gtest/gtest.h>

#include <vtkPointData.h>
#include <vtkPolyData.h>

#include <cmath>

#include "gpu/bem/cavity_closed_form.hpp"
#include "stages/cq_stage/laplace_manifest.hpp"
#include "tests/stages_bem/bem_stage_support.hpp"
#include "tests/support/png_check.hpp"
#include "tests/support/relative_l2.hpp"
#include "tests/support/workflow_command.hpp"

namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::test;

namespace {

const WorkflowCommand workflow{"cavity-pressure"};

// The workflow's rock and load (workflows/cavity-pressure/laplace.ini).
constexpr double young = 50e9, poisson = 0.25, density = 2700, pressure = 1e6, radius = 1.0;

bem::SphericalCavity sharpe() {
  return {radius, pressure, young / (2 * (1 + poisson)), poisson, density};
}

/// The workflow's stages once on a coarse case: the 320-triangle sphere of
/// element size 0.5 m and β = 1.5 (Δt ≈ 0.38 a/c) over 8 a/c, about 22 steps
/// and 12 frequencies, instead of the default's 540 triangles and β = 0.2
/// over 10 a/c; Δt read back from the manifest.
struct CoarseCavity {
  fs::path out = scratch("cavity_workflow");
  double dt = 0;
  CoarseCavity() {
    auto run = run_command(workflow(out, "--only mesh -- --element-size 0.5"));
    EXPECT_EQ(run.exit_code, 0) << run.errors;
    char options[160];
    std::snprintf(options, sizeof options, "--only laplace -- --device cpu --beta 1.5 --duration %.17g",
                  8 * radius / sharpe().p_wave_speed());
    run = run_command(workflow(out, options));
    EXPECT_EQ(run.exit_code, 0) << run.errors;
    dt = cq_stage::read_laplace_manifest(out / "laplace" / "manifest.ini").cq.time_step;
  }
};

const CoarseCavity& coarse_cavity() {
  static const CoarseCavity cavity;
  return cavity;
}

TEST(CavityWorkflow, ReceiversAndWallFollowSharpeAndArriveAtRadiusOverC) {
  const CoarseCavity& cavity = coarse_cavity();
  const auto run = run_command(workflow(cavity.out, "--only time -- --device cpu"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const fs::path result = cavity.out / "time";
  const bem::SphericalCavity exact = sharpe();
  const double c = exact.p_wave_speed();

  const CsvTable probes = read_csv_table((result / "probes.csv").string());
  const std::vector<double> time = column(probes, "time");
  ASSERT_GT(time.size(), 15u);
  std::vector<double> wall_exact;
  for (double t : time) wall_exact.push_back(bem::cavity_radial_displacement(exact, radius, t));
  EXPECT_LT(relative_l2_difference(column(probes, "wall_u_r"), wall_exact), 0.1);
  EXPECT_LT(relative_l2_difference(column(probes, "wall_u_r_closed_form"), wall_exact), 1e-12);

  // Receivers 0-3 at 2a and 5a on the x and y axes, 4-10 on the z axis from 1.5a to 4.5a.
  const CsvTable receivers = read_csv_table((result / "receivers.csv").string());
  const CsvTable points = read_csv_table((result / "receiver_points.csv").string());
  ASSERT_EQ(points.rows.size(), 11u);
  std::vector<double> radii, arrivals;
  for (std::size_t k = 0; k < points.rows.size(); ++k) {
    const double x = points.rows[k][1], y = points.rows[k][2], z = points.rows[k][3];
    const double r = std::sqrt(x * x + y * y + z * z);
    const std::string name = "receiver" + std::to_string(k);
    const auto ux = column(receivers, name + "_u_x"), uy = column(receivers, name + "_u_y"),
               uz = column(receivers, name + "_u_z");
    std::vector<double> radial(time.size()), radial_exact(time.size());
    for (std::size_t n = 0; n < time.size(); ++n) {
      radial[n] = (x * ux[n] + y * uy[n] + z * uz[n]) / r;
      radial_exact[n] = bem::cavity_radial_displacement(exact, r, time[n]);
    }
    EXPECT_LT(largest_relative_difference(column(receivers, name + "_u_r"), radial), 1e-12) << name;
    EXPECT_LT(largest_relative_difference(column(receivers, name + "_u_r_closed_form"), radial_exact), 1e-12) << name;
    // Loosely: 0.38 a/c steps smear the front (BDF2's dissipation) over its travel.
    EXPECT_LT(relative_l2_difference(radial, radial_exact), r < 3 ? 0.2 : 0.35) << name << " at r = " << r;
    if (k < 4) continue;
    // Arrival: where u_r first reaches a quarter of Lamé's static value (linear between steps).
    const double threshold = 0.25 * exact.static_displacement(r);
    double arrival = -1;
    for (std::size_t n = 1; n < time.size() && arrival < 0; ++n)
      if (radial[n] >= threshold)
        arrival = time[n - 1] + (threshold - radial[n - 1]) / (radial[n] - radial[n - 1]) * cavity.dt;
    ASSERT_GT(arrival, 0) << name;
    radii.push_back(r);
    arrivals.push_back(arrival);
  }
  // Along the line the arrival times grow as r/c (an S-wave speed would give 1.7/c).
  double mean_r = 0, mean_t = 0, covariance = 0, variance = 0;
  for (std::size_t j = 0; j < radii.size(); ++j) mean_r += radii[j] / radii.size(), mean_t += arrivals[j] / radii.size();
  for (std::size_t j = 0; j < radii.size(); ++j) {
    covariance += (radii[j] - mean_r) * (arrivals[j] - mean_t);
    variance += (radii[j] - mean_r) * (radii[j] - mean_r);
  }
  EXPECT_NEAR(covariance / variance * c, 1.0, 0.25);

  // The .pvd: the wall (part 0) and the receivers (part 1) of every 2nd
  // step, each part named as ParaView shows its block.
  const std::string pvd = read_text(result / "solution.pvd");
  EXPECT_NE(pvd.find("part=\"0\" name=\"wall\" file=\"solution/step_00010.vtu\""), std::string::npos) << pvd;
  EXPECT_NE(pvd.find("part=\"1\" name=\"receivers\" file=\"receivers/step_00010.vtp\""), std::string::npos) << pvd;
  EXPECT_EQ(pvd.find("receivers/step_00011.vtp"), std::string::npos) << pvd;
  const auto data = read_vtk_xml(result / "receivers" / "step_00010.vtp");
  auto* cloud = vtkPolyData::SafeDownCast(data);
  ASSERT_NE(cloud, nullptr);
  ASSERT_EQ(cloud->GetNumberOfPoints(), 11);
  EXPECT_EQ(cloud->GetNumberOfVerts(), 11);
  vtkDataArray* u = cloud->GetPointData()->GetArray("displacement");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->GetComponent(0, 0), column(receivers, "receiver0_u_x")[10]);

  // The plot stage, where Debian's python3 has matplotlib (scripts/setup.sh installs it).
  if (!plots_can_run()) GTEST_SKIP() << "no matplotlib in /usr/bin/python3 for the plot stage";
  const auto plot = run_command(workflow(cavity.out, "--only plot"));
  ASSERT_EQ(plot.exit_code, 0) << plot.errors;
  expect_plot_png(cavity.out / "cavity.png");
}

TEST(CavityWorkflow, ReceiversInTheCavity) {
  // Its own mesh and a 2-step Laplace stage.
  const auto out = scratch("cavity_workflow_bad");
  auto run = run_command(workflow(out, "--only mesh -- --element-size 0.5"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  run = run_command(workflow(out, "--only laplace -- --device cpu --beta 1.5 --duration 1e-4"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  // A grid across the cavity (the README's, coarser) maps the rock around it:
  // its point in the cavity is left out, counted, and so are three of the
  // four at r = a, which lie just outside the flat facets between the wall's
  // nodes, in the rock but nearer than 0.05 of a facet's longest edge.
  run = run_command(workflow(out, "--only time -- --device cpu --receiver-grid -6,-6,0:6,6,0:13,13,1"));
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_NE(run.errors.find("geobem-time: 4 of 180 receivers of --receiver-line/--receiver-grid lie outside the "
                            "elastic solid or nearer its surface than the receiver quadrature resolves, and are left "
                            "out (the first: --receiver-grid node (5, 6, 0) at (-1, 0, 0) m (0.0123 m from triangle "
                            "196, nearer than 0.05 of its longest edge 0.310231 m, 0.0155 m))"),
            std::string::npos)
      << run.errors;
  const auto points = geobem::read_csv_table((out / "time" / "receiver_points.csv").string());
  ASSERT_EQ(points.rows.size(), 176u);  // receivers.csv's 4, time.ini's line of 7, the grid's 169 less 4
  for (const auto& row : points.rows) EXPECT_GE(std::hypot(row[1], row[2], row[3]), 1.0) << row[0];
  // A receiver of a CSV file is a point given on purpose: refused, nothing written.
  const auto inside = write_text("receivers_inside.csv", "x,y,z\n2,0,0\n0,0,0.5\n");
  run = run_command(workflow(out, "--only time -- --device cpu --receivers " + inside.string() + " --out " +
                                      (out / "time_refused").string()));
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.errors.find("receivers_inside.csv:3 at (0, 0, 0.5) m (inside a cavity) is not inside the elastic "
                            "solid"),
            std::string::npos)
      << run.errors;
  EXPECT_FALSE(fs::exists(out / "time_refused"));
}

}  // namespace

// The pressurized spherical cavity (tests/bem/cavity_case.hpp: a = 1 m,
// granite-like rock, p = 1 MPa) on a Gmsh sphere read from a .vtu written by
// `geobem-mesh --shape sphere:0,0,0,1 --element-size H --domain exterior`:
//   bench_bem cavity cpu|cuda MESH.vtu BETA DURATION [dense|hierarchical [EPS]]
//       (the CQ solver, dense by default; EPS the compression tolerance,
//       hierarchical_settings.hpp's default unless given) relative L2 errors over DURATION (in a/c) against Sharpe's closed form
//       of the mean radial wall displacement over the nodes and of the radial
//       displacement at receivers at 2a and 5a (the largest of three
//       directions), the wall at the last step over Lamé's, and the seconds of
//       each stage; Δt = BETA·h/c with h the smallest longest edge;
//       DURATION > 4 (the wave reaches 5a at 4 a/c)
//   bench_bem cavity-laplace cpu|cuda MESH.vtu
//       the wall's error in the Laplace domain (no time stepping): at
//       s a/c = 0.0057 (the static limit) and the CQ points 1.15, 1.79 − 6.63i
//       (near the wall's ringing) and 36.8 − 0.8i of N = 100, Δt = 0.1 a/c;
//       and the BEM's volume change of the cavity against that of the sphere
//       of radius a and of the sphere of the mesh's enclosed volume
//   bench_bem cavity-cq DT DURATION
//       the time-stepping error alone (no BEM): the BDF2 CQ of Sharpe's exact
//       transfer function s û(r, s) with steps of DT a/c, at the wall, 2a, 5a
// The mesh's own geometry is reported too: its longest edges and the radius of
// the sphere of its enclosed volume.
#include "bench/bem/bench_cavity.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "gpu/core/device.hpp"
#include "gpu/core/seconds_since.hpp"
#include "mesh/surface/mesh_geometry.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "tests/bem/cavity_case.hpp"

namespace geobem::bench {

namespace {

using namespace geobem::bem;
using namespace geobem::test;

/// Radius of the sphere of the mesh's enclosed volume (m).
double volume_sphere_radius(const surface::SurfaceMesh& mesh) {
  return std::cbrt(3 * std::abs(surface::enclosed_volume(mesh)) / (4 * M_PI));
}

/// bench_bem cavity: one time-domain run (run_cavity) and its errors against Sharpe.
int time_domain(ComputeDevice device, const surface::SurfaceMesh& mesh, double beta, double duration, BemSolver solver,
                double tolerance) {
  const BemModel model = cavity_model(mesh);
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed(), a = cavity.radius;
  const double dt = cq_time_step_from_beta(beta, model.smallest_element_size(), c);
  const CqSettings settings{cq_steps_for_duration(duration * a / c, dt), dt};
  std::vector<Vec3> receivers = cavity_receivers(2 * a);
  for (const Vec3& x : cavity_receivers(5 * a)) receivers.push_back(x);
  const auto start = std::chrono::steady_clock::now();
  CqOptions options(device, false);  // progress with an ETA on stderr: long runs
  options.solver = solver;
  if (tolerance > 0) options.hierarchical.tolerance = tolerance;
  const CavityRun run = run_cavity(model, settings, receivers, options);
  const double total = seconds_since(start);
  const CqTimings::Compression& profile = run.timings.compression;
  if (profile.aca_leaves > 0)
    std::fprintf(stderr, "bench_bem: assembly phases: near field %.3f s, ACA %.3f s, factors %.3f s, "
                 "preconditioner %.3f s; ACA leaves %llu (%llu formed dense, %llu of them without ACA), mean rank "
                 "%.2f, largest %d\n",
                 profile.near_field_seconds, profile.aca_seconds, profile.factors_seconds,
                 profile.preconditioner_seconds, static_cast<unsigned long long>(profile.aca_leaves),
                 static_cast<unsigned long long>(profile.dense_leaves),
                 static_cast<unsigned long long>(profile.dense_without_aca), profile.aca_leaves > profile.dense_leaves
                     ? double(profile.rank_sum) / double(profile.aca_leaves - profile.dense_leaves) : 0.0,
                 profile.largest_rank);
  const double wall = relative_l2(run.wall, dt, [&](double t) { return cavity_radial_displacement(cavity, a, t); });
  double at_2a = 0, at_5a = 0;
  for (std::size_t q = 0; q < receivers.size(); ++q) {
    const double r = norm(receivers[q]);
    const double error =
        relative_l2(run.receiver[q], dt, [&](double t) { return cavity_radial_displacement(cavity, r, t); });
    (r < 3 * a ? at_2a : at_5a) = std::max(r < 3 * a ? at_2a : at_5a, error);
  }
  const double largest_edge = *std::max_element(model.longest_edges.begin(), model.longest_edges.end());
  std::printf("case,device,elements,nodes,unknowns,largest_edge_m,mean_edge_m,volume_radius_m,beta,dt_c_over_a,steps,"
              "frequencies,assembly_s,solve_s,receivers_s,transform_s,total_s,wall_l2,receiver_2a_l2,receiver_5a_l2,"
              "wall_end_over_lame\n");
  std::printf("cavity,%s,%zu,%zu,%d,%.4f,%.4f,%.5f,%.3f,%.4f,%d,%d,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%.4f,%.4f,%.4f\n",
              to_string(device).c_str(), model.areas.size(), model.free_nodes.size(), model.unknown_count(),
              largest_edge, mean_edge(model), volume_sphere_radius(mesh), beta, dt * c / a, settings.steps,
              cq_frequency_count(settings),
              run.timings.assembly_seconds, run.timings.solve_seconds, run.receiver_seconds, run.transform_seconds,
              total, wall, at_2a, at_5a, run.wall.back() / cavity.static_displacement(a));
  return 0;
}

/// Volume change of the cavity, −∮ u·n dΓ with n out of the solid (into the
/// cavity), from the nodal values (linear on each flat element).
Complex cavity_volume_change(const BemModel& model, const Complex* u) {
  Complex change;
  for (std::size_t e = 0; e < model.areas.size(); ++e)
    for (int b = 0; b < 3; ++b) {
      const int block = model.node_block[model.triangles[3 * e + b]];
      const Vec3 n = model.normals[e];
      change -= (model.areas[e] / 3) * (n.x * u[3 * block] + n.y * u[3 * block + 1] + n.z * u[3 * block + 2]);
    }
  return change;
}

/// bench_bem cavity-laplace: the wall and the volume change at three CQ points against Sharpe's transform.
int laplace_domain(ComputeDevice device, const surface::SurfaceMesh& mesh) {
  const BemModel model = cavity_model(mesh);
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed(), a = cavity.radius;
  SphericalCavity volume_sphere = cavity;
  volume_sphere.radius = volume_sphere_radius(mesh);
  std::printf("elements,nodes,s_re_a_over_c,s_im_a_over_c,wall_relative_error,volume_change_error,"
              "volume_change_error_volume_sphere\n");
  const struct {
    CqSettings settings;
    std::vector<int> frequencies;
  } samples[] = {{{100, 20 * a / c}, {0}}, {{100, 0.1 * a / c}, {0, 10, 50}}};
  for (const auto& sample : samples) {
    CqTimings timings;
    const LaplaceSolution solution = solve_laplace(model, sample.settings, sample.frequencies, {device, true}, timings);
    const std::vector<Complex> wall = wall_mean_radial(model, solution.values, solution.unknowns);
    for (std::size_t k = 0; k < sample.frequencies.size(); ++k) {
      const Complex s = cq_laplace_point(sample.settings, sample.frequencies[k]);
      const std::complex<double> z(s.re, s.im), bem(wall[k].re, wall[k].im);
      const std::complex<double> exact = z * cavity_radial_displacement_laplace(cavity, a, z);
      const Complex dv = cavity_volume_change(model, &solution.at(0, static_cast<int>(k), 0));
      const std::complex<double> bem_dv(dv.re, dv.im);
      const std::complex<double> sphere_dv = 4 * M_PI * a * a * exact;
      const double av = volume_sphere.radius;
      const std::complex<double> volume_sphere_dv =
          4 * M_PI * av * av * z * cavity_radial_displacement_laplace(volume_sphere, av, z);
      std::printf("%zu,%zu,%.4f,%.4f,%.4e,%.4e,%.4e\n", model.areas.size(), model.free_nodes.size(), s.re * a / c,
                  s.im * a / c, std::abs(bem - exact) / std::abs(exact),
                  std::abs(bem_dv - sphere_dv) / std::abs(sphere_dv),
                  std::abs(bem_dv - volume_sphere_dv) / std::abs(volume_sphere_dv));
    }
  }
  return 0;
}

/// The time-stepping error alone (cq_error_of_sharpe) at the wall, 2a and 5a
/// over DURATION a/c, for steps Δt = DT a/c.
int cq_only(double dt_c_over_a, double duration) {
  const SphericalCavity cavity = cavity_reference();
  const double c = cavity.p_wave_speed(), a = cavity.radius, dt = dt_c_over_a * a / c;
  const CqSettings settings{cq_steps_for_duration(duration * a / c, dt), dt};
  std::printf("dt_c_over_a,steps,wall_l2,receiver_2a_l2,receiver_5a_l2\n%.4f,%d", dt_c_over_a, settings.steps);
  for (double r : {a, 2 * a, 5 * a}) std::printf(",%.4e", cq_error_of_sharpe(r, settings));
  std::printf("\n");
  return 0;
}

}  // namespace

int cavity_benchmark(int argc, char** argv) {
  const std::string mode = argv[1];
  if (mode == "cavity-cq" && argc == 4) return cq_only(std::atof(argv[2]), std::atof(argv[3]));
  const bool solver_named = mode == "cavity" && (argc == 7 || argc == 8);
  const std::string solver = solver_named ? argv[6] : "dense";
  const double tolerance = mode == "cavity" && argc == 8 ? std::atof(argv[7]) : 0.0;
  if (!((mode == "cavity" && (argc == 6 || argc == 7 || (argc == 8 && tolerance > 0 && tolerance <= 0.1)) &&
         std::atof(argv[5]) > 4 && (solver == "dense" || solver == "hierarchical")) ||
        (mode == "cavity-laplace" && argc == 4))) {
    std::fprintf(stderr, "usage: bench_bem cavity cpu|cuda MESH.vtu BETA DURATION_C_OVER_A (> 4) [dense|hierarchical [EPS]] | "
                         "cavity-laplace cpu|cuda MESH.vtu | cavity-cq DT_C_OVER_A DURATION_C_OVER_A\n");
    return 2;
  }
  const ComputeDevice device = resolve_device(parse_device_choice(argv[2]));
  const surface::SurfaceMesh mesh = surface::read_vtk_surface(argv[3]);
  if (mode == "cavity-laplace") return laplace_domain(device, mesh);
  return time_domain(device, mesh, std::atof(argv[4]), std::atof(argv[5]),
                     solver == "hierarchical" ? BemSolver::hierarchical : BemSolver::dense, tolerance);
}

}  // namespace geobem::bench

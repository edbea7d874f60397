// The tunnel-blast workflow end to end on a coarse case (coarse_tunnel.hpp).
// A loaded section of a finite tunnel has no closed form, so the checks are
// what any right answer obeys, each one a wrong load, material, geometry or
// kernel would break: the loaded wall moves out, by less than the static
// plane-strain displacement of a pressurized infinite tunnel (Lamé,
// p a / 2μ); nothing moves before the P wave from the section can arrive
// (distance / c_P); arrivals along the receiver line move out at c_P, not
// c_S; the tunnel is axisymmetric and mirror-symmetric about the section's
// middle, and so are the receivers' displacements.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "tests/stages_bem/bem_stage_support.hpp"
#include "tests/stages_bem/coarse_tunnel.hpp"
#include "tests/support/png_check.hpp"
#include "tests/support/relative_l2.hpp"

namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::test;

namespace {

// The workflow's rock, load and tunnel (laplace.ini, time.ini, tunnel.geo).
constexpr double young = 50e9, poisson = 0.25, density = 2700, pressure = 1e6, positive_phase = 2e-3;
constexpr double radius = 2.5, section_start = -2.5, section_end = 2.5;
const double shear_modulus = young / (2 * (1 + poisson));
const double p_wave_speed = std::sqrt(young * (1 - poisson) / (density * (1 + poisson) * (1 - 2 * poisson)));
const double s_wave_speed = std::sqrt(shear_modulus / density);
constexpr double duration = coarse_tunnel_duration;

/// Distance (m) from a point in the rock to the nearest point of the loaded section.
double section_distance(double x, double y, double z) {
  const double along = x - std::clamp(x, section_start, section_end);
  return std::hypot(along, std::hypot(y, z) - radius);
}

/// The receivers' displacement as read from receivers.csv: u[k][c][n].
struct ReceiverSeries {
  std::vector<double> time;
  std::vector<std::array<double, 3>> points;
  std::vector<std::array<std::vector<double>, 3>> u;
  std::vector<double> magnitude(std::size_t k) const {
    std::vector<double> m(time.size());
    for (std::size_t n = 0; n < time.size(); ++n) m[n] = std::hypot(u[k][0][n], u[k][1][n], u[k][2][n]);
    return m;
  }
};

ReceiverSeries read_receivers(const fs::path& folder) {
  ReceiverSeries series;
  const CsvTable table = read_csv_table((folder / "receivers.csv").string());
  const CsvTable points = read_csv_table((folder / "receiver_points.csv").string());
  series.time = column(table, "time");
  for (const auto& row : points.rows) {
    series.points.push_back({row[1], row[2], row[3]});
    const std::string name = "receiver" + std::to_string(series.u.size());
    series.u.push_back({column(table, name + "_u_x"), column(table, name + "_u_y"), column(table, name + "_u_z")});
  }
  return series;
}

/// The largest of `values` at times t with t_begin <= t < t_end.
double largest_between(const std::vector<double>& time, const std::vector<double>& values, double t_begin,
                       double t_end) {
  double largest = 0;
  for (std::size_t n = 0; n < time.size(); ++n)
    if (time[n] >= t_begin && time[n] < t_end) largest = std::max(largest, std::abs(values[n]));
  return largest;
}

/// The first time |u| reaches a tenth of its largest value (linear between steps).
double first_arrival(const std::vector<double>& time, const std::vector<double>& magnitude) {
  const double threshold = 0.1 * *std::max_element(magnitude.begin(), magnitude.end());
  for (std::size_t n = 1; n < time.size(); ++n)
    if (magnitude[n] >= threshold)
      return time[n - 1] + (threshold - magnitude[n - 1]) / (magnitude[n] - magnitude[n - 1]) * (time[n] - time[n - 1]);
  return -1;
}

TEST(TunnelWorkflow, BlastPushesTheWallOutAndArrivesAtDistanceOverCp) {
  const fs::path out = scratch("tunnel_workflow");
  run_coarse_tunnel(out, "cpu");
  if (HasFatalFailure()) return;
  const fs::path result = out / "time";

  // The loaded section's crown (probe 0, radial = +z) and springline
  // (probe 1, radial = +y) move out through the first half of the positive
  // phase, by less than the plane-strain static p a / (2μ) (62.5 µm): the
  // section is only 2a long and the pulse decays before the rock settles.
  const CsvTable probes = read_csv_table((result / "probes.csv").string());
  const std::vector<double> time = column(probes, "time");
  ASSERT_GT(time.size(), 30u);
  const double lame = pressure * radius / (2 * shear_modulus);
  double wall_peak = 0;
  for (const char* name : {"probe0_u_z", "probe1_u_y"}) {
    const std::vector<double> outward = column(probes, name);
    for (std::size_t n = 0; n < time.size() && time[n] <= 0.5 * positive_phase; ++n)
      EXPECT_GT(outward[n], 0) << name << " at t = " << time[n];
    const double peak = *std::max_element(outward.begin(), outward.end());
    EXPECT_GT(peak, 0.2 * lame) << name;
    EXPECT_LT(peak, lame) << name;
    wall_peak = std::max(wall_peak, peak);
  }
  // The wall 12.5 m along the tunnel from the section (probe 2) and the
  // centre of the end wall (probe 3, 27.5 m) stay still until the P wave can
  // reach them.
  for (const auto& [probe, distance] : {std::pair{"probe2", 12.5}, std::pair{"probe3", 27.5}})
    for (const char* component : {"_u_x", "_u_y", "_u_z"})
      EXPECT_LT(largest_between(time, column(probes, probe + std::string(component)), 0,
                                0.7 * distance / p_wave_speed),
                1e-3 * wall_peak)
          << probe << component;

  // Receivers 0-24 on the line y = 0, z = 10 m from x = -30 to 30 m;
  // 25-249 the grid x = -30..30, y = 5..25 m (2.5 m apart, x fastest) in z = 0.
  const ReceiverSeries receivers = read_receivers(result);
  ASSERT_EQ(receivers.points.size(), 250u);
  const auto line_x = [](int k) { return -30 + 2.5 * k; };
  for (int k = 0; k < 25; ++k) {
    ASSERT_EQ(receivers.points[k], (std::array<double, 3>{line_x(k), 0, 10})) << k;
    ASSERT_EQ(receivers.points[25 + 50 + k], (std::array<double, 3>{line_x(k), 10, 0})) << k;
  }

  std::vector<double> distances, arrivals;
  for (int k = 0; k < 25; ++k) {
    SCOPED_TRACE(testing::Message() << "receiver" << k << " at x = " << line_x(k) << " m");
    const double d = section_distance(line_x(k), 0, 10), p_arrival = d / p_wave_speed;
    const std::vector<double> magnitude = receivers.magnitude(k);
    const auto peak = std::max_element(magnitude.begin(), magnitude.end());
    // Quiet before the P wave: CQ's BDF2 smears the front over a few steps,
    // so "before" ends at 0.7 d/c_P, where receivers 12 m or more away
    // (3 steps or more) are quiet to 1e-2 of their peak.
    if (d >= 12) {
      EXPECT_LT(largest_between(receivers.time, magnitude, 0, 0.7 * p_arrival), 1e-2 * *peak) << "d = " << d;
      EXPECT_GE(receivers.time[peak - magnitude.begin()], p_arrival);
    }
    // The arrival times on the side x >= 0 whose peak the window holds.
    if (line_x(k) >= 0 && p_arrival + positive_phase <= duration) {
      distances.push_back(d);
      arrivals.push_back(first_arrival(receivers.time, magnitude));
    }

    // Axisymmetry: the receiver at (x, 10, 0) moves as the one at (x, 0, 10),
    // rotated by 90° about the tunnel's axis (the mesh is, to 2.5 %); and
    // mirror symmetry about x = 0: u_z is even in x, u_x odd (so 0 but for
    // the mesh's asymmetry above the middle, k = 12, where it is not compared).
    const auto& rotated = receivers.u[25 + 50 + k];
    const auto& mirror = receivers.u[24 - k];
    EXPECT_LT(relative_l2_difference(rotated[1], receivers.u[k][2]), 0.05);
    EXPECT_LT(relative_l2_difference(mirror[2], receivers.u[k][2]), 0.05);
    if (k != 12) {
      std::vector<double> mirrored_x(mirror[0].size());
      std::transform(mirror[0].begin(), mirror[0].end(), mirrored_x.begin(), [](double v) { return -v; });
      EXPECT_LT(relative_l2_difference(rotated[0], receivers.u[k][0]), 0.05);
      EXPECT_LT(relative_l2_difference(mirrored_x, receivers.u[k][0]), 0.05);
    }
  }

  // The arrivals move out at c_P: the slope of arrival time against
  // distance, fitted by least squares, is 1/c_P (c_S would give 1.73/c_P).
  ASSERT_GE(distances.size(), 6u);
  double mean_d = 0, mean_t = 0, covariance = 0, variance = 0;
  for (std::size_t j = 0; j < distances.size(); ++j) {
    mean_d += distances[j] / distances.size();
    mean_t += arrivals[j] / distances.size();
  }
  for (std::size_t j = 0; j < distances.size(); ++j) {
    covariance += (distances[j] - mean_d) * (arrivals[j] - mean_t);
    variance += (distances[j] - mean_d) * (distances[j] - mean_d);
  }
  EXPECT_NEAR(covariance / variance * p_wave_speed, 1.0, 0.15) << "c_S / c_P = " << s_wave_speed / p_wave_speed;

  // The plot stage, where Debian's python3 has matplotlib (scripts/setup.sh installs it).
  if (!plots_can_run()) GTEST_SKIP() << "no matplotlib in /usr/bin/python3 for the plot stage";
  const auto plot = run_command(tunnel_workflow(out, "--only plot"));
  ASSERT_EQ(plot.exit_code, 0) << plot.errors;
  expect_plot_png(out / "tunnel.png");
}

}  // namespace

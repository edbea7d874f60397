// The octant analysis of station_contact.hpp and the octants of each kind of
// model around a station: a list of boxes (through an index of buckets), a
// voxel grid (binary search of its edges), a prism layer (its grid lines).
#include "gpu/gravity/station_contact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "gpu/core/math_constants.hpp"

namespace geobem::gravity {
namespace {

/// ±1: the side of octant o along axis a.
double side(int o, int a) { return (o >> a) & 1 ? 1.0 : -1.0; }

/// Octants in the order the survey side is looked for: +u before −u, then
/// +e, then +n.
constexpr int approach_order[8] = {7, 5, 6, 4, 3, 1, 2, 0};

/// Whether x lies in the closed interval [low, high] on each side: plus,
/// the points just above x (low <= x < high); minus, just below (low < x <= high).
struct Sides {
  bool plus, minus;
};
Sides sides_of(double x, double low, double high) { return {low <= x && x < high, low < x && x <= high}; }

/// The stations that lie on a bound plane of some box: a point can lie on a
/// face, edge or vertex of a box only where one of its coordinates equals one
/// of the box's bounds. The stations' coordinates are sorted per axis (the
/// survey is small beside a model of 10^5-10^6 prisms) and each box bound is
/// looked up among them: O(stations log stations + boxes log stations), no
/// sort of the model's bounds.
std::vector<std::size_t> stations_on_bound_planes(const std::vector<Box>& boxes, const std::vector<Station>& stations) {
  std::vector<double> values[3];
  for (int a = 0; a < 3; ++a) {
    values[a].reserve(stations.size());
    for (const Station& p : stations) values[a].push_back(a == 0 ? p.easting : a == 1 ? p.northing : p.upward);
    std::sort(values[a].begin(), values[a].end());
    values[a].erase(std::unique(values[a].begin(), values[a].end()), values[a].end());
  }
  std::vector<char> hit[3];
  for (int a = 0; a < 3; ++a) hit[a].assign(values[a].size(), 0);
  for (const Box& b : boxes)
    for (int a = 0; a < 3; ++a)
      for (int end = 0; end < 2; ++end) {
        const auto at = std::lower_bound(values[a].begin(), values[a].end(), b[2 * a + end]);
        if (at != values[a].end() && *at == b[2 * a + end]) hit[a][static_cast<std::size_t>(at - values[a].begin())] = 1;
      }
  std::vector<std::size_t> touching;
  for (std::size_t s = 0; s < stations.size(); ++s) {
    const double x[3] = {stations[s].easting, stations[s].northing, stations[s].upward};
    for (int a = 0; a < 3; ++a) {
      const auto at = std::lower_bound(values[a].begin(), values[a].end(), x[a]);
      if (hit[a][static_cast<std::size_t>(at - values[a].begin())]) {
        touching.push_back(s);
        break;
      }
    }
  }
  return touching;
}

/// The boxes whose closed box contains a point (list_station_limits).
class ContactIndex {
 public:
  explicit ContactIndex(const std::vector<Box>& boxes) : boxes_(boxes) {
    const std::size_t n = boxes.size();
    std::int64_t total = 1;
    for (int a = 0; a < 3; ++a) {
      low_[a] = HUGE_VAL;
      high_[a] = -HUGE_VAL;
      std::vector<double> sizes;
      sizes.reserve(n);
      for (const Box& b : boxes) {
        low_[a] = std::min(low_[a], b[2 * a]);
        high_[a] = std::max(high_[a], b[2 * a + 1]);
        sizes.push_back(b[2 * a + 1] - b[2 * a]);
      }
      std::nth_element(sizes.begin(), sizes.begin() + n / 2, sizes.end());
      const double extent = high_[a] - low_[a], median = sizes[n / 2];
      const double wanted = median > 0 ? std::ceil(extent / median) : 1.0;
      cells_[a] = static_cast<std::int64_t>(std::clamp(wanted, 1.0, double(1 << 20)));
      total *= cells_[a];
    }
    // At most about 4 buckets per box: halve the finest axis until then.
    const std::int64_t limit = 4 * static_cast<std::int64_t>(n) + 8;
    while (total > limit) {
      int finest = 0;
      for (int a = 1; a < 3; ++a)
        if (cells_[a] > cells_[finest]) finest = a;
      total /= cells_[finest];
      cells_[finest] = (cells_[finest] + 1) / 2;
      total *= cells_[finest];
    }
    for (int a = 0; a < 3; ++a) step_[a] = cells_[a] > 1 ? (high_[a] - low_[a]) / double(cells_[a]) : 1.0;
    // Two passes over the boxes: counts per bucket, then the members.
    std::vector<std::size_t> count(static_cast<std::size_t>(total) + 1, 0);
    const auto for_each_bucket = [&](const Box& b, const auto& visit) {
      std::int64_t lo[3], hi[3], span = 1;
      for (int a = 0; a < 3; ++a) {
        lo[a] = bucket(a, b[2 * a]);
        hi[a] = bucket(a, b[2 * a + 1]);
        span *= hi[a] - lo[a] + 1;
      }
      if (span > 64) return false;
      for (std::int64_t k = lo[2]; k <= hi[2]; ++k)
        for (std::int64_t j = lo[1]; j <= hi[1]; ++j)
          for (std::int64_t i = lo[0]; i <= hi[0]; ++i) visit(static_cast<std::size_t>(i + cells_[0] * (j + cells_[1] * k)));
      return true;
    };
    for (std::size_t i = 0; i < n; ++i)
      if (!for_each_bucket(boxes[i], [&](std::size_t b) { ++count[b + 1]; })) large_.push_back(i);
    for (std::size_t b = 1; b < count.size(); ++b) count[b] += count[b - 1];
    first_ = count;
    members_.resize(count.back());
    for (std::size_t i = 0; i < n; ++i) for_each_bucket(boxes[i], [&](std::size_t b) { members_[count[b]++] = i; });
  }

  void contacts(const Station& p, std::vector<std::size_t>& out) const {
    out.clear();
    const double x[3] = {p.easting, p.northing, p.upward};
    for (int a = 0; a < 3; ++a)
      if (!(x[a] >= low_[a] && x[a] <= high_[a])) return;
    const std::size_t b = static_cast<std::size_t>(bucket(0, x[0]) + cells_[0] * (bucket(1, x[1]) + cells_[1] * bucket(2, x[2])));
    const auto contains = [&](std::size_t i) {
      const Box& box = boxes_[i];
      for (int a = 0; a < 3; ++a)
        if (!(box[2 * a] <= x[a] && x[a] <= box[2 * a + 1])) return false;
      return true;
    };
    for (std::size_t m = first_[b]; m < first_[b + 1]; ++m)
      if (contains(members_[m])) out.push_back(members_[m]);
    for (const std::size_t i : large_)
      if (contains(i)) out.push_back(i);
    std::sort(out.begin(), out.end());
  }

 private:
  const std::vector<Box>& boxes_;
  double low_[3] = {}, high_[3] = {}, step_[3] = {1, 1, 1};
  std::int64_t cells_[3] = {1, 1, 1};
  std::vector<std::size_t> first_, members_, large_;

  /// The bucket of coordinate x along an axis: monotone in x, so a box's
  /// buckets [bucket(low), bucket(high)] hold every point it contains.
  std::int64_t bucket(int a, double x) const {
    const double k = std::floor((x - low_[a]) / step_[a]);
    return static_cast<std::int64_t>(std::clamp(k, 0.0, double(cells_[a] - 1)));
  }
};

/// The cell of a sorted list of `count` + 1 edges (line(0) … line(count))
/// holding the points just above x (plus) and just below it (minus); −1
/// where there is none.
template <typename Line>
void cells_beside(double x, std::int64_t count, const Line& line, double spacing, std::int64_t cell[2]) {
  cell[0] = cell[1] = -1;  // [0]: minus, [1]: plus
  if (!(x >= line(0) && x <= line(count))) return;
  const double guess = std::floor((x - line(0)) / spacing);
  const std::int64_t k0 = static_cast<std::int64_t>(std::clamp(guess, 0.0, double(count - 1)));
  for (std::int64_t k = std::max<std::int64_t>(0, k0 - 1); k <= std::min(count - 1, k0 + 1); ++k) {
    const Sides s = sides_of(x, line(k), line(k + 1));
    if (s.plus) cell[1] = k;
    if (s.minus) cell[0] = k;
  }
}

/// The cell k of `count` cells between the edges line(0) … line(count)
/// with line(k) < x < line(k + 1); −1 where x is on an edge or outside.
template <typename Line>
std::int64_t cell_strictly_holding(double x, std::int64_t count, const Line& line, double spacing) {
  const double guess = std::floor((x - line(0)) / spacing);
  if (!(guess >= 0 && guess < double(count))) return -1;
  const std::int64_t k = static_cast<std::int64_t>(guess);
  return line(k) < x && x < line(k + 1) ? k : -1;
}

/// Adds `weights` of a box whose closed box contains the station to the
/// octants of the box that hold it; occupied where a weight is nonzero.
template <int Components>
void add_box_to_octants(const Box& box, const Station& p, const std::array<double, Components>& weights,
                        Octants<Components>& octants) {
  const double x[3] = {p.easting, p.northing, p.upward};
  Sides s[3];
  for (int a = 0; a < 3; ++a) s[a] = sides_of(x[a], box[2 * a], box[2 * a + 1]);
  bool occupies = false;
  for (int c = 0; c < Components; ++c) occupies = occupies || weights[c] != 0.0;
  for (int o = 0; o < 8; ++o) {
    bool inside = true;
    for (int a = 0; a < 3; ++a) inside = inside && (((o >> a) & 1) ? s[a].plus : s[a].minus);
    if (!inside) continue;
    for (int c = 0; c < Components; ++c) octants.value[c][o] += weights[c];
    if (occupies) octants.occupied |= 1u << o;
  }
}

}  // namespace

unsigned tensor_entry(int a, int b) {
  if (a > b) std::swap(a, b);
  static constexpr unsigned entries[3][3] = {{entry_ee, entry_en, entry_eu}, {0, entry_nn, entry_nu}, {0, 0, entry_uu}};
  return entries[a][b];
}

bool any_station_in(const Box& box, const std::vector<Station>& stations) {
  return std::any_of(stations.begin(), stations.end(), [&](const Station& p) {
    return box[0] <= p.easting && p.easting <= box[1] && box[2] <= p.northing && p.northing <= box[3] &&
           box[4] <= p.upward && p.upward <= box[5];
  });
}

template <int Components>
bool analyse_octants(const Octants<Components>& octants, StationLimit<Components>& limit) {
  int approach = -1;
  for (const int o : approach_order)
    if (!((octants.occupied >> o) & 1u)) {
      approach = o;
      break;
    }
  bool needed = false;
  for (int c = 0; c < Components; ++c) {
    const double* f = octants.value[c];
    double scale = 0;
    for (int o = 0; o < 8; ++o) scale = std::max(scale, std::abs(f[o]));
    limit.undefined[c] = limit.interior[c] = 0;
    for (int a = 0; a < 3; ++a) limit.shift[c][a] = 0;
    if (scale == 0) continue;
    // Walsh coefficient of the axes in `axes` (bit a: axis a).
    const auto coefficient = [&](unsigned axes) {
      double sum = 0;
      for (int o = 0; o < 8; ++o) {
        double sign = 1;
        for (int a = 0; a < 3; ++a)
          if ((axes >> a) & 1u) sign *= side(o, a);
        sum += sign * f[o];
      }
      return sum / 8;
    };
    const double tolerance = 1e-12 * scale;
    const auto present = [&](unsigned axes) { return std::abs(coefficient(axes)) > tolerance; };
    unsigned undefined = 0;
    if (present(7u)) undefined |= entry_ee | entry_en | entry_eu | entry_nn | entry_nu | entry_uu;  // vertex
    if (present(3u)) undefined |= entry_ee | entry_nn | entry_en;  // edge along upward
    if (present(5u)) undefined |= entry_ee | entry_uu | entry_eu;  // edge along northing
    if (present(6u)) undefined |= entry_nn | entry_uu | entry_nu;  // edge along easting
    for (int a = 0; a < 3; ++a) {
      const double c_a = coefficient(1u << a);
      if (!(std::abs(c_a) > tolerance) || (undefined & tensor_entry(a, a))) continue;
      if (approach < 0) {
        limit.interior[c] |= tensor_entry(a, a);
        undefined |= tensor_entry(a, a);
      } else if (!((approach >> a) & 1)) {
        // T_aa(+) − T_aa(−) = −4π(f(+a) − f(−a)) = −8π c_a.
        limit.shift[c][a] = 8 * kPi * c_a;
        needed = true;
      }
    }
    limit.undefined[c] = undefined;
    needed = needed || undefined != 0;
  }
  return needed;
}

template <int Components>
StationLimits<Components> list_station_limits(const std::vector<Box>& boxes,
                                              const std::vector<std::array<double, Components>>& weights,
                                              const std::vector<Station>& stations) {
  StationLimits<Components> limits;
  Box extent{HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL, HUGE_VAL, -HUGE_VAL};
  for (const Box& b : boxes)
    for (int a = 0; a < 3; ++a) {
      extent[2 * a] = std::min(extent[2 * a], b[2 * a]);
      extent[2 * a + 1] = std::max(extent[2 * a + 1], b[2 * a + 1]);
    }
  if (!any_station_in(extent, stations)) return limits;
  const std::vector<std::size_t> touching = stations_on_bound_planes(boxes, stations);
  if (touching.empty()) return limits;
  const ContactIndex index(boxes);
  std::vector<std::size_t> contacts;
  for (const std::size_t s : touching) {
    index.contacts(stations[s], contacts);
    Octants<Components> octants;
    for (const std::size_t i : contacts) add_box_to_octants<Components>(boxes[i], stations[s], weights[i], octants);
    StationLimit<Components> limit;
    limit.station = s;
    if (analyse_octants(octants, limit)) limits.push_back(limit);
  }
  return limits;
}

StationLimits<1> grid_station_limits(const PrismGrid& grid, const std::vector<Station>& stations) {
  StationLimits<1> limits;
  const std::vector<double>* edges[3] = {&grid.easting_edges, &grid.northing_edges, &grid.upward_edges};
  for (std::size_t s = 0; s < stations.size(); ++s) {
    const double x[3] = {stations[s].easting, stations[s].northing, stations[s].upward};
    std::int64_t cell[3][2];
    bool on_a_plane = false;
    for (int a = 0; a < 3; ++a) {
      const std::vector<double>& e = *edges[a];
      const auto plus = std::upper_bound(e.begin(), e.end(), x[a]) - e.begin() - 1;
      const auto minus = std::lower_bound(e.begin(), e.end(), x[a]) - e.begin() - 1;
      const std::int64_t cells = static_cast<std::int64_t>(e.size()) - 1;
      cell[a][1] = plus >= 0 && plus < cells ? plus : -1;
      cell[a][0] = minus >= 0 && minus < cells ? minus : -1;
      on_a_plane = on_a_plane || cell[a][0] != cell[a][1];
    }
    if (!on_a_plane) continue;
    Octants<1> octants;
    for (int o = 0; o < 8; ++o) {
      const std::int64_t i = cell[0][o & 1], j = cell[1][(o >> 1) & 1], k = cell[2][(o >> 2) & 1];
      if (i < 0 || j < 0 || k < 0) continue;
      const double density = grid.density[grid.index(static_cast<std::size_t>(i), static_cast<std::size_t>(j),
                                                     static_cast<std::size_t>(k))];
      octants.value[0][o] = density;
      if (density != 0.0) octants.occupied |= 1u << o;
    }
    StationLimit<1> limit;
    limit.station = s;
    if (analyse_octants(octants, limit)) limits.push_back(limit);
  }
  return limits;
}

template <int Components>
StationLimits<Components> layer_station_limits(const LayerGeometry& g, const std::vector<double>& surface,
                                               const std::array<double, Components>& weights_above,
                                               const std::array<double, Components>& weights_below,
                                               const std::vector<Station>& stations) {
  StationLimits<Components> limits;
  const auto line_e = [&](std::int64_t k) { return easting_line(g, k); };
  const auto line_n = [&](std::int64_t k) { return northing_line(g, k); };
  for (std::size_t s = 0; s < stations.size(); ++s) {
    const Station& p = stations[s];
    // Strictly inside one column (off its side faces) the eight octants see
    // one cell, whose prism spans the reference to the surface height: they
    // take different values only on its top or bottom plane. Elsewhere every
    // octant has the same value, every Walsh coefficient but c0 vanishes and
    // analyse_octants finds nothing (the occupied octants matter only beside
    // a face), so most stations of a survey above the terrain skip it.
    const std::int64_t column_e = cell_strictly_holding(p.easting, g.shape_e, line_e, g.spacing_e);
    const std::int64_t column_n = cell_strictly_holding(p.northing, g.shape_n, line_n, g.spacing_n);
    if (column_e >= 0 && column_n >= 0) {
      const double height = surface[static_cast<std::size_t>(column_e + g.shape_e * column_n)];
      if (p.upward != height && p.upward != g.reference) continue;
    }
    std::int64_t cell_e[2], cell_n[2];
    cells_beside(p.easting, g.shape_e, line_e, g.spacing_e, cell_e);
    cells_beside(p.northing, g.shape_n, line_n, g.spacing_n, cell_n);
    if (cell_e[1] < 0 && cell_e[0] < 0) continue;
    if (cell_n[1] < 0 && cell_n[0] < 0) continue;
    Octants<Components> octants;
    for (int o = 0; o < 8; ++o) {
      const std::int64_t i = cell_e[o & 1], j = cell_n[(o >> 1) & 1];
      if (i < 0 || j < 0) continue;  // outside the layer: empty
      const std::int64_t cell = i + g.shape_e * j;
      const double height = surface[static_cast<std::size_t>(cell)];
      if (std::isnan(height)) continue;  // a skipped cell: empty
      const bool up = (o >> 2) & 1;
      // Below the terrain surface: ground, not a side the survey sees.
      if (up ? p.upward < height : p.upward <= height) octants.occupied |= 1u << o;
      if (height == g.reference) continue;  // an empty cell
      const Prism prism = layer_prism(g, cell, height);
      const Sides vertical = sides_of(p.upward, prism.bottom, prism.top);
      if (!(up ? vertical.plus : vertical.minus)) continue;
      const auto& weights = height > g.reference ? weights_above : weights_below;
      for (int c = 0; c < Components; ++c) octants.value[c][o] = weights[c];
    }
    StationLimit<Components> limit;
    limit.station = s;
    if (analyse_octants(octants, limit)) limits.push_back(limit);
  }
  return limits;
}

void apply_station_limits(const StationLimits<1>& limits, unsigned mask, std::vector<double>& sums, std::size_t n) {
  for (const StationLimit<1>& limit : limits) apply_station_limit(limit, mask, sums.data(), n);
}

template bool analyse_octants<1>(const Octants<1>&, StationLimit<1>&);
template bool analyse_octants<3>(const Octants<3>&, StationLimit<3>&);
template StationLimits<1> list_station_limits<1>(const std::vector<Box>&, const std::vector<std::array<double, 1>>&,
                                                 const std::vector<Station>&);
template StationLimits<3> list_station_limits<3>(const std::vector<Box>&, const std::vector<std::array<double, 3>>&,
                                                 const std::vector<Station>&);
template StationLimits<1> layer_station_limits<1>(const LayerGeometry&, const std::vector<double>&,
                                                  const std::array<double, 1>&, const std::array<double, 1>&,
                                                  const std::vector<Station>&);
template StationLimits<3> layer_station_limits<3>(const LayerGeometry&, const std::vector<double>&,
                                                  const std::array<double, 3>&, const std::array<double, 3>&,
                                                  const std::vector<Station>&);

}  // namespace geobem::gravity

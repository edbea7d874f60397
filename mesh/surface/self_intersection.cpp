#include "mesh/surface/self_intersection.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace geobem::surface {

namespace {

using Point = std::array<double, 3>;

Point minus(const Point& a, const Point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const Point& a, const Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
double norm(const Point& a) { return std::sqrt(dot(a, a)); }

/// Six times the signed volume of the tetrahedron (a, b, c, d).
double orient(const Point& a, const Point& b, const Point& c, const Point& d) {
  return dot(cross(minus(b, a), minus(c, a)), minus(d, a));
}

/// The sign of `value`, 0 within `zero` of it.
int sign(double value, double zero) { return value > zero ? 1 : value < -zero ? -1 : 0; }

/// A pair under test: its size sets what counts as zero.
struct PairScale {
  double length;  ///< the longest edge of the two triangles
  double volume_zero() const { return 1e-12 * length * length * length; }
  double area_zero() const { return 1e-12 * length * length; }
};

// ---- coplanar triangles: 2D tests in the plane of the largest normal component

using Flat = std::array<double, 2>;

Flat flatten(const Point& p, int drop) {
  return drop == 0 ? Flat{p[1], p[2]} : drop == 1 ? Flat{p[2], p[0]} : Flat{p[0], p[1]};
}

double orient2(const Flat& a, const Flat& b, const Flat& c) {
  return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
}

/// Do the closed segments ab and cd meet?
bool segments_meet(const Flat& a, const Flat& b, const Flat& c, const Flat& d, double zero) {
  const int s1 = sign(orient2(a, b, c), zero), s2 = sign(orient2(a, b, d), zero);
  const int s3 = sign(orient2(c, d, a), zero), s4 = sign(orient2(c, d, b), zero);
  if (s1 * s2 > 0 || s3 * s4 > 0) return false;
  if (s1 != 0 || s2 != 0 || s3 != 0 || s4 != 0) return true;
  // Collinear: the projections onto the line overlap?
  for (int k = 0; k < 2; ++k)
    if (std::max(a[k], b[k]) < std::min(c[k], d[k]) - 1e-12 * std::fabs(b[k] - a[k]) ||
        std::max(c[k], d[k]) < std::min(a[k], b[k]) - 1e-12 * std::fabs(d[k] - c[k]))
      return false;
  return true;
}

/// Is p inside or on the triangle abc?
bool inside(const Flat& p, const Flat& a, const Flat& b, const Flat& c, double zero) {
  const int s1 = sign(orient2(a, b, p), zero), s2 = sign(orient2(b, c, p), zero), s3 = sign(orient2(c, a, p), zero);
  return !((s1 < 0 || s2 < 0 || s3 < 0) && (s1 > 0 || s2 > 0 || s3 > 0));
}

int dropped_axis(const Point& normal) {
  const double x = std::fabs(normal[0]), y = std::fabs(normal[1]), z = std::fabs(normal[2]);
  return x >= y && x >= z ? 0 : y >= z ? 1 : 2;
}

bool coplanar_overlap(const std::array<Point, 3>& t, const std::array<Point, 3>& u, const PairScale& scale) {
  const int drop = dropped_axis(cross(minus(t[1], t[0]), minus(t[2], t[0])));
  std::array<Flat, 3> a, b;
  for (int k = 0; k < 3; ++k) {
    a[k] = flatten(t[k], drop);
    b[k] = flatten(u[k], drop);
  }
  const double zero = scale.area_zero();
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (segments_meet(a[i], a[(i + 1) % 3], b[j], b[(j + 1) % 3], zero)) return true;
  return inside(a[0], b[0], b[1], b[2], zero) || inside(b[0], a[0], a[1], a[2], zero);
}

// ---- triangles with no node in common

/// Does the segment pq meet the triangle abc?
bool segment_meets_triangle(const Point& p, const Point& q, const std::array<Point, 3>& t, const PairScale& scale) {
  const double zero = scale.volume_zero();
  const int sp = sign(orient(t[0], t[1], t[2], p), zero), sq = sign(orient(t[0], t[1], t[2], q), zero);
  if (sp * sq > 0) return false;
  if (sp == 0 && sq == 0) {  // the segment lies in the triangle's plane
    const int drop = dropped_axis(cross(minus(t[1], t[0]), minus(t[2], t[0])));
    const Flat fp = flatten(p, drop), fq = flatten(q, drop);
    std::array<Flat, 3> f;
    for (int k = 0; k < 3; ++k) f[k] = flatten(t[k], drop);
    const double flat_zero = scale.area_zero();
    for (int k = 0; k < 3; ++k)
      if (segments_meet(fp, fq, f[k], f[(k + 1) % 3], flat_zero)) return true;
    return inside(fp, f[0], f[1], f[2], flat_zero);
  }
  // The line pq passes through the triangle when it turns the same way about all three edges.
  const int s1 = sign(orient(p, q, t[0], t[1]), zero), s2 = sign(orient(p, q, t[1], t[2]), zero),
            s3 = sign(orient(p, q, t[2], t[0]), zero);
  return !((s1 < 0 || s2 < 0 || s3 < 0) && (s1 > 0 || s2 > 0 || s3 > 0));
}

bool disjoint_triangles_meet(const std::array<Point, 3>& t, const std::array<Point, 3>& u, const PairScale& scale) {
  const double zero = scale.volume_zero();
  int su[3], st[3];
  for (int k = 0; k < 3; ++k) {
    su[k] = sign(orient(t[0], t[1], t[2], u[k]), zero);
    st[k] = sign(orient(u[0], u[1], u[2], t[k]), zero);
  }
  const auto one_side = [](const int s[3]) { return (s[0] > 0 && s[1] > 0 && s[2] > 0) || (s[0] < 0 && s[1] < 0 && s[2] < 0); };
  if (one_side(su) || one_side(st)) return false;
  if (su[0] == 0 && su[1] == 0 && su[2] == 0) return coplanar_overlap(t, u, scale);
  for (int k = 0; k < 3; ++k)
    if (segment_meets_triangle(t[k], t[(k + 1) % 3], u, scale) || segment_meets_triangle(u[k], u[(k + 1) % 3], t, scale))
      return true;
  return false;
}

// ---- triangles that share nodes

/// Is the direction d inside the corner of a triangle at its node, between
/// its edges e1 and e2 (normal n = e1 × e2)? Within `zero` of a side counts
/// as inside for `slack` > 0 and as outside for `slack` < 0.
bool in_corner(const Point& d, const Point& e1, const Point& e2, const Point& n, double zero, double slack) {
  return dot(cross(e1, d), n) > -slack * zero && dot(cross(d, e2), n) > -slack * zero;
}

/// Triangles (p, a, b) and (p, c, d) that share only the node p.
bool corner_triangles_meet(const Point& p, const Point& a, const Point& b, const Point& c, const Point& d,
                           const PairScale& scale) {
  const Point e1 = minus(a, p), e2 = minus(b, p), f1 = minus(c, p), f2 = minus(d, p);
  const Point n1 = cross(e1, e2), n2 = cross(f1, f2);
  const Point line = cross(n1, n2);
  const double n1_length = norm(n1), n2_length = norm(n2), line_length = norm(line);
  if (line_length <= 1e-12 * n1_length * n2_length) {
    // Coplanar: they overlap when their corners at p share an open wedge,
    // that is when a side of one runs strictly inside the other's corner, or
    // the corners coincide (then the middle of one lies inside the other).
    const double zero1 = 1e-12 * scale.length * scale.length * n1_length,
                 zero2 = 1e-12 * scale.length * scale.length * n2_length;
    const Point middle = {f1[0] / norm(f1) + f2[0] / norm(f2), f1[1] / norm(f1) + f2[1] / norm(f2),
                          f1[2] / norm(f1) + f2[2] / norm(f2)};
    return in_corner(f1, e1, e2, n1, zero1, -1) || in_corner(f2, e1, e2, n1, zero1, -1) ||
           in_corner(middle, e1, e2, n1, zero1, -1) || in_corner(e1, f1, f2, n2, zero2, -1) ||
           in_corner(e2, f1, f2, n2, zero2, -1);
  }
  // The planes share the line through p along `line`; the triangles meet
  // beyond p when that line leaves p into both corners on the same side
  // (along a side of a corner counts: touching).
  const double zero1 = 1e-12 * line_length * scale.length * n1_length,
               zero2 = 1e-12 * line_length * scale.length * n2_length;
  for (const double direction : {1.0, -1.0}) {
    const Point along{direction * line[0], direction * line[1], direction * line[2]};
    if (in_corner(along, e1, e2, n1, zero1, 1) && in_corner(along, f1, f2, n2, zero2, 1)) return true;
  }
  return false;
}

/// Triangles (p, q, a) and (p, q, b) that share the edge pq: they meet
/// beyond it only when folded flat onto each other (a and b on the same side
/// of pq in one plane).
bool edge_triangles_meet(const Point& p, const Point& q, const Point& a, const Point& b, const PairScale& scale) {
  const Point normal = cross(minus(q, p), minus(a, p));
  if (std::fabs(dot(normal, minus(b, p))) > scale.volume_zero()) return false;
  return dot(cross(minus(q, p), minus(b, p)), normal) > 0;
}

// ---- the bounding-volume hierarchy

struct Box {
  Point low{HUGE_VAL, HUGE_VAL, HUGE_VAL}, high{-HUGE_VAL, -HUGE_VAL, -HUGE_VAL};
  void add(const Point& p) {
    for (int k = 0; k < 3; ++k) {
      low[k] = std::min(low[k], p[k]);
      high[k] = std::max(high[k], p[k]);
    }
  }
  void add(const Box& b) {
    add(b.low);
    add(b.high);
  }
  bool overlaps(const Box& b) const {
    for (int k = 0; k < 3; ++k)
      if (high[k] < b.low[k] || b.high[k] < low[k]) return false;
    return true;
  }
};

struct Node {
  Box box;
  int left = -1, right = -1;  ///< children, or -1 for a leaf
  int begin = 0, end = 0;     ///< a leaf's range of `order`
};

class Hierarchy {
 public:
  Hierarchy(const std::vector<Box>& boxes, const std::vector<int>& triangles) : boxes_(boxes), order_(triangles) {
    if (!order_.empty()) build(0, static_cast<int>(order_.size()));
  }

  /// Calls visit(s) for every triangle s whose box overlaps `box`.
  template <class Visit>
  void each_overlapping(const Box& box, Visit visit) const {
    if (nodes_.empty()) return;
    int stack[128], top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node& node = nodes_[stack[--top]];
      if (!node.box.overlaps(box)) continue;
      if (node.left < 0) {
        for (int k = node.begin; k < node.end; ++k)
          if (boxes_[order_[k]].overlaps(box)) visit(order_[k]);
      } else {
        stack[top++] = node.left;
        stack[top++] = node.right;
      }
    }
  }

 private:
  int build(int begin, int end) {
    const int index = static_cast<int>(nodes_.size());
    nodes_.emplace_back();
    Box box, centres;
    for (int k = begin; k < end; ++k) {
      const Box& b = boxes_[order_[k]];
      box.add(b);
      centres.add(Point{0.5 * (b.low[0] + b.high[0]), 0.5 * (b.low[1] + b.high[1]), 0.5 * (b.low[2] + b.high[2])});
    }
    nodes_[index].box = box;
    if (end - begin <= 4) {
      nodes_[index].begin = begin;
      nodes_[index].end = end;
      return index;
    }
    int axis = 0;
    for (int k = 1; k < 3; ++k)
      if (centres.high[k] - centres.low[k] > centres.high[axis] - centres.low[axis]) axis = k;
    const int middle = begin + (end - begin) / 2;
    std::nth_element(order_.begin() + begin, order_.begin() + middle, order_.begin() + end, [&](int a, int b) {
      return boxes_[a].low[axis] + boxes_[a].high[axis] < boxes_[b].low[axis] + boxes_[b].high[axis];
    });
    // Median splits halve the count: the depth stays below 64 for any int count.
    const int left = build(begin, middle), right = build(middle, end);
    nodes_[index].left = left;
    nodes_[index].right = right;
    return index;
  }

  const std::vector<Box>& boxes_;
  std::vector<int> order_;
  std::vector<Node> nodes_;
};

}  // namespace

std::vector<IntersectingPair> intersecting_triangles(const SurfaceMesh& mesh, std::size_t limit) {
  const int count = static_cast<int>(mesh.triangles.size());
  const auto corner = [&](int t, int k) -> const Point& { return mesh.nodes[mesh.triangles[t][k]]; };
  std::vector<Box> boxes(count);
  std::vector<double> longest(count, 0.0);
  std::vector<int> kept;
  for (int t = 0; t < count; ++t) {
    for (int k = 0; k < 3; ++k) {
      boxes[t].add(corner(t, k));
      longest[t] = std::max(longest[t], norm(minus(corner(t, (k + 1) % 3), corner(t, k))));
    }
    const double area = 0.5 * norm(cross(minus(corner(t, 1), corner(t, 0)), minus(corner(t, 2), corner(t, 0))));
    if (area > 1e-14 * longest[t] * longest[t]) kept.push_back(t);
  }
  // Boxes grown by the touching distance, so that touching triangles are candidates.
  for (int t : kept)
    for (int k = 0; k < 3; ++k) {
      boxes[t].low[k] -= 1e-12 * longest[t];
      boxes[t].high[k] += 1e-12 * longest[t];
    }
  const Hierarchy hierarchy(boxes, kept);
  std::vector<IntersectingPair> found;
  for (const int t : kept) {
    std::vector<int> candidates;
    hierarchy.each_overlapping(boxes[t], [&](int s) {
      if (s > t) candidates.push_back(s);
    });
    std::sort(candidates.begin(), candidates.end());
    for (const int s : candidates) {
      const auto& a = mesh.triangles[t];
      const auto& b = mesh.triangles[s];
      int shared = 0, shared_in_a[3], shared_in_b[3];
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j)
          if (a[i] == b[j]) {
            shared_in_a[shared] = i;
            shared_in_b[shared] = j;
            ++shared;
          }
      const PairScale scale{std::max(longest[t], longest[s])};
      bool meet = false;
      if (shared == 0) {
        meet = disjoint_triangles_meet({corner(t, 0), corner(t, 1), corner(t, 2)},
                                       {corner(s, 0), corner(s, 1), corner(s, 2)}, scale);
      } else if (shared == 1) {
        const int i = shared_in_a[0], j = shared_in_b[0];
        meet = corner_triangles_meet(corner(t, i), corner(t, (i + 1) % 3), corner(t, (i + 2) % 3),
                                     corner(s, (j + 1) % 3), corner(s, (j + 2) % 3), scale);
      } else if (shared == 2) {
        const int other_a = 3 - shared_in_a[0] - shared_in_a[1], other_b = 3 - shared_in_b[0] - shared_in_b[1];
        meet = edge_triangles_meet(corner(t, shared_in_a[0]), corner(t, shared_in_a[1]), corner(t, other_a),
                                   corner(s, other_b), scale);
      } else {
        meet = true;  // the same three nodes twice
      }
      if (!meet) continue;
      found.push_back({t, s});
      if (found.size() >= limit) return found;
    }
  }
  return found;
}

}  // namespace geobem::surface

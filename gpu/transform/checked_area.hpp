#pragma once
// Half-cycle areas with their own error estimate, for integrands whose
// smoothness over a half cycle nothing vouches for (a user's expression):
// a pole at ±ib near the axis, a kink, or an integrable singularity at x = 0
// leaves one Gauss panel of the area far off (x/(x² + b²) sin(ωx) with
// b = 0.32, ω = 0.48: the first area 1.5e-5 relative off), and no accelerator
// sees an area's own error. As QUADPACK's QAWF does with its cycles (Piessens
// et al., QUADPACK, 1983, sec. 2.2.4: each cycle integrated to its share of
// the tolerance, the cycles' errors added to the extrapolation's), each panel
// of gauss_area is checked against the sum of the same rule on its two
// halves and bisected where they differ by more than the piece's share of the
// area's allowance. GEOBEM_HD: an explicit stack, no recursion.
#include <cmath>

#include "gpu/core/host_device.hpp"

namespace geobem::transform {

/// Most Gauss panels in one area (the last panel takes what is left).
constexpr int kMaxPanels = 64;
/// Deepest bisection of a panel: 2^-kMaxAreaDepth of its width.
constexpr int kMaxAreaDepth = 96;
/// Most pieces checked in one area; past it each piece left is taken as it is.
constexpr int kMaxAreaPieces = 2048;
/// Share of an area's allowance a piece at x = lower() may take however
/// narrow it is: an integrable singularity there, x^{-a}, has a piece error
/// that falls like w^{1-a}, slower than a share proportional to its width w.
/// Its coarse value's error is then the sum of the differences of all the
/// levels below, a geometric series of ratio r = 2^{a-1} (the differences of
/// two successive levels tell r): difference / (1 - r).
constexpr double kSingularPieceShare = 0.05;

/// The Gauss rule on [left, right]: the value and, in *magnitude, Σ|w f|·half.
/// Out of line: checked_area calls it at three places, and f inlined into
/// each made NVRTC's compile of a Longman kernel twenty times longer.
template <class F, class Rule>
GEOBEM_HD GEOBEM_NOINLINE double gauss_piece(const F& f, const Rule& rule, double left, double right, double* magnitude) {
  const double center = 0.5 * (left + right), half = 0.5 * (right - left);
  double sum = 0.0, absolute = 0.0;
  for (int i = 0; i < rule.order; ++i) {
    const double term = rule.weights[i] * f(center + half * rule.nodes[i]);
    sum += term;
    absolute += fabs(term);
  }
  *magnitude = absolute * fabs(half);
  return half * sum;
}

/// ∫_lo^hi f on gauss_area's panels (f.panel_width), each panel's Gauss value
/// accepted where the same rule on its two halves agrees with it to within
/// 2|difference| <= the piece's share allowance·(width/(hi − lo)), else
/// bisected (down to kMaxAreaDepth levels, kMaxAreaPieces pieces). The value
/// is the accepted pieces' Gauss values, so that an area that needs no
/// bisection is gauss_area's to the last bit; *error receives Σ 2|difference|
/// over the accepted pieces (the difference estimates the coarse value's
/// error: the halves are 2^{2n} times closer where f is smooth, and 2 covers
/// a kink's halves, about a quarter as far off), leaving out differences
/// within the sums' rounding (50 ε Σ|w f|, QUADPACK's floor), which the
/// rounding floor of longman_integrate already holds. Adds the evaluations.
template <class F, class Rule>
GEOBEM_HD double checked_area(const F& f, const Rule& rule, double lo, double hi, double allowance, int& evaluations,
                              double* error) {
  constexpr double kEpsilon = 2.220446049250313e-16;
  struct Piece {
    double left, right, coarse, magnitude;
    double parent_difference;  ///< the difference of the piece it was halved from (0: a panel)
    int depth;
  };
  Piece stack[kMaxAreaDepth + 2];
  double total = 0.0, left = lo;
  int pieces = 0;
  *error = 0.0;
  for (int panel = 0; left < hi; ++panel) {
    const double width = f.panel_width(left);
    const double right = (hi - left <= 1.5 * width || panel == kMaxPanels - 1) ? hi : left + width;
    int top = 0;
    stack[top].left = left;
    stack[top].right = right;
    stack[top].coarse = gauss_piece(f, rule, left, right, &stack[top].magnitude);
    stack[top].parent_difference = 0.0;
    stack[top].depth = 0;
    ++top;
    evaluations += rule.order;
    double panel_total = 0.0;
    while (top > 0) {
      const Piece piece = stack[--top];
      const double middle = 0.5 * (piece.left + piece.right);
      double left_magnitude, right_magnitude;
      const double left_half = gauss_piece(f, rule, piece.left, middle, &left_magnitude);
      const double right_half = gauss_piece(f, rule, middle, piece.right, &right_magnitude);
      evaluations += 2 * rule.order;
      ++pieces;
      // A piece's difference can vanish by accident at a kink inside it (its
      // coarse and halves' errors equal), as |K15 - G7| can: a quarter of
      // its parent's difference, which a kink's halving leaves about as
      // large, is the floor of its estimate (Piessens et al.'s two-level
      // view; where f is smooth the parent's is 2^{2n} times the piece's and
      // costs one more level only where the parent just missed).
      const double difference =
          fmax(2.0 * fabs(left_half + right_half - piece.coarse), 0.25 * piece.parent_difference);
      const double noise = 50.0 * kEpsilon * (piece.magnitude + left_magnitude + right_magnitude);
      const double share = allowance * (piece.right - piece.left) / (hi - lo);
      const double own = 2.0 * fabs(left_half + right_half - piece.coarse);
      const double ratio = own / piece.parent_difference;  // NaN or inf for a panel
      const double singular_error = own / (1.0 - ratio);
      const bool at_singular_end = piece.left == f.lower() && ratio > 0.0 && ratio < 1.0 &&
                                   singular_error <= kSingularPieceShare * allowance;
      const bool last = piece.depth >= kMaxAreaDepth || pieces >= kMaxAreaPieces || !(middle > piece.left) ||
                        !(middle < piece.right);
      if (difference <= share || difference <= noise || at_singular_end || last || !(difference == difference)) {
        panel_total += piece.coarse;
        if (at_singular_end)
          *error += singular_error;
        else if (difference > noise || !(difference == difference))
          *error += difference;
        continue;
      }
      stack[top++] = Piece{middle, piece.right, right_half, right_magnitude, own, piece.depth + 1};
      stack[top++] = Piece{piece.left, middle, left_half, left_magnitude, own, piece.depth + 1};
    }
    total += panel_total;
    left = right;
  }
  return total;
}

}  // namespace geobem::transform

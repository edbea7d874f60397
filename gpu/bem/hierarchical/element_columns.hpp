#pragma once
// The entries the hierarchical path compresses: for collocation point p and
// element e, the 3 × 12 element columns E(p, e) = [K_e0 K_e1 K_e2 w·V_e]
// (hierarchical_layout.hpp) from the same pair integrals as the dense
// assembly (integrate_pair, collocation_pair.hpp), with the columns the system
// does not use set to zero: K_eb of a fixed vertex, V_e of an element that is
// neither fixed nor loaded. Host and device.
#include "gpu/bem/collocation_pair.hpp"

namespace geobem::bem::hierarchical {

template <class Solution>
GEOBEM_HD inline void element_columns(const ModelView& mv, int p, int e, Complex s, const QuadratureTable& table,
                                      double traction_scale, Complex out[3][12]) {
  for (int i = 0; i < 3; ++i)
    for (int c = 0; c < 12; ++c) out[i][c] = Complex();
  DynamicIntegrand<Solution> r;
  if (!integrate_pair(mv, p, e, s, table, r)) return;
  if (r.need_k)
    for (int b = 0; b < 3; ++b) {
      if (mv.node_block[mv.triangles[3 * e + b]] < 0) continue;
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) out[i][3 * b + j] = r.k[b][i][j];
    }
  if (mv.element_block[e] < 0 && mv.element_load_case[e] < 0) return;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) out[i][9 + j] = traction_scale * r.v[i][j];
}

}  // namespace geobem::bem::hierarchical

#pragma once
// The free term of an unbounded solid (docs/references.md#cq-bem, "Free term
// of an exterior problem"). A rigid translation u = e_j with t = 0 in the
// solid turns Somigliana's identity at a boundary point ξ into
//   c(ξ) + PV∫_Γ T0(ξ, y) dΓ_y + ∫_{S_R} T0(ξ, y) dΓ_y = 0,
// normals out of the solid. A bounded solid has no S_R: c + PV∫_Γ T0 = 0. An
// unbounded one is closed by a sphere S_R of radius R → ∞ around ξ, on which
// ∫_{S_R} T0 dΓ = −I for every R (the Kelvin solution's traction over a closed
// surface around its source carries the unit point force), so
//   c(ξ) + PV∫_Γ T0 dΓ = I
// [BrebbiaDominguez1992; Bonnet1999]. On a smooth wall c = I/2
// either way; what changes is the principal value, whose normal now points
// into the cavity.
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/bem/bem_model.hpp"
#include "gpu/core/input_error.hpp"

namespace geobem::bem {

/// Turns the rigid-body sums S0 of the free nodes (9 values per node, [i][j]
/// row-major, as rigid_body_sums_cpu() returns them; the diagonal block of a
/// node row is −S0 plus the bounded dynamic remainder) into S0 − I for an
/// unbounded solid, so that the diagonal carries I − S0 = c + PV Σ ∫T0 λ_a;
/// a bounded solid's sums are left as they are. Host-side, applied once per
/// model before assembly on either backend. Throws InputError when
/// `sums` holds fewer than 9 values per free node.
inline void apply_unbounded_free_term(const BemModel& model, std::vector<double>& sums) {
  const std::size_t nodes = model.free_nodes.size();
  if (sums.size() < 9 * nodes)
    throw InputError("rigid-body sums: " + std::to_string(sums.size()) + " values for " +
                     std::to_string(nodes) + " free nodes (9 each)");
  if (!model.unbounded_solid) return;
  for (std::size_t p = 0; p < nodes; ++p)
    for (int i = 0; i < 3; ++i) sums[9 * p + 4 * i] -= 1.0;
}

}  // namespace geobem::bem

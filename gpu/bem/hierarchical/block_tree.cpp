#include "gpu/bem/hierarchical/block_tree.hpp"
#include "gpu/core/input_error.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>

namespace geobem::bem::hierarchical {

std::vector<BlockLeaf> build_block_tree(const ClusterTree& rows, const ClusterTree& columns, double eta) {
  if (!(eta > 0.0)) throw InputError("admissibility parameter eta = " + std::to_string(eta));
  if (rows.clusters.empty() || columns.clusters.empty()) throw InputError("block tree of an empty tree");
  std::vector<BlockLeaf> leaves;
  std::vector<std::pair<int, int>> stack = {{0, 0}};
  while (!stack.empty()) {
    const auto [t, s] = stack.back();
    stack.pop_back();
    const Cluster &tau = rows.clusters[t], &sigma = columns.clusters[s];
    if (tau.size() == 0 || sigma.size() == 0) continue;
    if (std::min(tau.box.diameter(), sigma.box.diameter()) <= eta * tau.box.distance(sigma.box) &&
        tau.box.distance(sigma.box) > 0.0) {
      leaves.push_back({t, s, true});
      continue;
    }
    if (tau.leaf() && sigma.leaf()) {
      leaves.push_back({t, s, false});
      continue;
    }
    // Children pushed in reverse so that they come off the stack in order.
    const int t_first = tau.leaf() ? t : tau.first_child, t_count = tau.leaf() ? 1 : 2;
    const int s_first = sigma.leaf() ? s : sigma.first_child, s_count = sigma.leaf() ? 1 : 2;
    for (int i = t_count - 1; i >= 0; --i)
      for (int j = s_count - 1; j >= 0; --j) stack.push_back({t_first + i, s_first + j});
  }
  return leaves;
}

}  // namespace geobem::bem::hierarchical

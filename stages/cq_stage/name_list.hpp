#pragma once
// Comma- or semicolon-separated lists of names, as the CQ stages' options
// and the Laplace manifest write them ("x_min,y_min", "a=1:1,0,0;b=2:0,1,0").
// Header-only, so that readers of the manifest (the fuzz harness among them)
// need no more than the manifest's own source.

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "mesh/io/trimmed.hpp"

namespace geobem::cq_stage {

/// The items joined with `separator`.
inline std::string join(const std::vector<std::string>& items, char separator) {
  std::string text;
  for (std::size_t k = 0; k < items.size(); ++k) text += (k ? std::string(1, separator) : "") + items[k];
  return text;
}

/// The items of `text` between separators, blanks trimmed, empty items dropped.
inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(separator, start), text.size());
    std::string item = trimmed(text.substr(start, end - start));
    if (!item.empty()) items.push_back(std::move(item));
    start = end + 1;
  }
  return items;
}

}  // namespace geobem::cq_stage

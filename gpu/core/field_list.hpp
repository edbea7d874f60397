#pragma once
// The `--fields` list every forward-modelling stage takes: "all" or
// comma-separated field names, parsed against the method's own name table.
#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/core/input_error.hpp"

namespace geobem {

/// Indices into names[0..count) of the fields `list` asks for, ascending and
/// each once ("all": every index). Throws InputError::usage naming an
/// unknown entry and listing the expected names.
inline std::vector<int> parse_field_list(const std::string& list, const char* const* names, int count) {
  std::vector<bool> wanted(static_cast<std::size_t>(count), list == "all");
  if (list != "all") {
    std::size_t start = 0;
    while (start <= list.size()) {
      const std::size_t comma = std::min(list.find(',', start), list.size());
      const std::string name = list.substr(start, comma - start);
      int found = -1;
      for (int f = 0; f < count; ++f)
        if (name == names[f]) found = f;
      if (found < 0) {
        std::string expected;
        for (int f = 0; f < count; ++f) expected += (f ? ", " : "") + std::string(names[f]);
        throw InputError::usage("unknown field '" + name + "' (expected all or a comma-separated list of " +
                              expected + ")");
      }
      wanted[static_cast<std::size_t>(found)] = true;
      start = comma + 1;
    }
  }
  std::vector<int> indices;
  for (int f = 0; f < count; ++f)
    if (wanted[static_cast<std::size_t>(f)]) indices.push_back(f);
  return indices;
}

}  // namespace geobem

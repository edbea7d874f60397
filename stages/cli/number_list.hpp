#pragma once
// Comma-separated numbers given to one command-line option ("3,1,1").
#include <cstddef>
#include <string>
#include <vector>

namespace geobem::cli {

/// Parses `text`, the value of --`option`, as exactly `count` finite numbers
/// separated by commas (blanks around them allowed). Throws
/// InputError::usage (exit 2) naming the option, the
/// text and the bad field, with `form` (e.g. "X,Y,Z") as the expected shape.
std::vector<double> parse_number_list(const std::string& option, const std::string& text, std::size_t count,
                                      const std::string& form);

/// The same for non-negative integers no larger than `largest` ("NE,NN").
std::vector<std::size_t> parse_count_list(const std::string& option, const std::string& text, std::size_t count,
                                          const std::string& form, double largest);

}  // namespace geobem::cli

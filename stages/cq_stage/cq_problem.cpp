#include "stages/cq_stage/cq_problem.hpp"

#include <algorithm>
#include <cmath>

#include "stages/cli/number_list.hpp"

namespace geobem::cq_stage {

namespace po = cli::po;

std::string join(const std::vector<std::string>& items, char separator) {
  std::string text;
  for (std::size_t k = 0; k < items.size(); ++k) text += (k ? std::string(1, separator) : "") + items[k];
  return text;
}

std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(separator, start), text.size());
    std::string item = text.substr(start, end - start);
    const auto first = item.find_first_not_of(" \t"), last = item.find_last_not_of(" \t");
    if (first != std::string::npos) items.push_back(item.substr(first, last - first + 1));
    start = end + 1;
  }
  return items;
}

std::vector<bem::GroupCondition> parse_conditions(const ConditionTexts& texts) {
  std::vector<bem::GroupCondition> conditions;
  for (const auto& list : texts.fixed)
    for (const auto& name : split(list, ',')) conditions.push_back({name, true, {0.0, 0.0, 0.0}});
  for (const auto& list : texts.free)
    for (const auto& name : split(list, ',')) conditions.push_back({name, false, {0.0, 0.0, 0.0}});
  for (const auto& text : texts.traction) {
    const auto equals = text.find('='), colon = text.find(':');
    if (equals == std::string::npos || colon == std::string::npos || colon < equals)
      throw po::error("--traction '" + text + "': expected NAME=P:DX,DY,DZ (P in Pa, direction DX,DY,DZ)");
    const auto names = split(text.substr(0, equals), ',');
    if (names.size() != 1) throw po::error("--traction '" + text + "': name one group before '='");
    const std::string& name = names[0];
    const auto magnitude = cli::parse_number_list("traction", text.substr(equals + 1, colon - equals - 1), 1, "P");
    const auto direction = cli::parse_number_list("traction", text.substr(colon + 1), 3, "DX,DY,DZ");
    const double length = std::sqrt(direction[0] * direction[0] + direction[1] * direction[1] + direction[2] * direction[2]);
    if (!(length > 0.0)) throw po::error("--traction '" + text + "': the direction is the zero vector");
    conditions.push_back({name, false,
                          {magnitude[0] * direction[0] / length, magnitude[0] * direction[1] / length,
                           magnitude[0] * direction[2] / length}});
  }
  return conditions;
}

std::vector<double> load_history_values(const std::string& text, const bem::CqSettings& settings) {
  std::vector<double> values(settings.steps + 1, 1.0);
  if (text == "heaviside") return values;
  if (text.rfind("ramp:", 0) == 0) {
    const double rise = cli::parse_number_list("load-history", text.substr(5), 1, "ramp:T")[0];
    if (!(rise > 0.0)) throw po::error("--load-history '" + text + "': the rise time T must be positive (s)");
    for (int n = 0; n <= settings.steps; ++n) values[n] = std::min(n * settings.time_step / rise, 1.0);
    return values;
  }
  throw po::error("--load-history '" + text + "': expected heaviside or ramp:T (T in s)");
}

std::vector<std::string> load_history_texts(const std::vector<std::string>& texts,
                                            const std::vector<std::string>& case_groups) {
  std::string common = "heaviside";
  std::vector<std::string> own(case_groups.size());
  bool common_given = false;
  for (const auto& text : texts) {
    const auto equals = text.find('=');
    if (equals == std::string::npos) {
      if (common_given) throw po::error("--load-history '" + text + "': a history for every case is given twice");
      common = text;
      common_given = true;
      continue;
    }
    const std::string group = text.substr(0, equals);
    const auto it = std::find(case_groups.begin(), case_groups.end(), group);
    if (it == case_groups.end())
      throw po::error("--load-history '" + text + "': group '" + group + "' is not a load case (the load cases: " +
                      join(case_groups, ',') + ")");
    std::string& slot = own[it - case_groups.begin()];
    if (!slot.empty()) throw po::error("--load-history '" + text + "': group '" + group + "' given twice");
    slot = text.substr(equals + 1);
  }
  for (auto& slot : own)
    if (slot.empty()) slot = common;
  return own;
}

}  // namespace geobem::cq_stage

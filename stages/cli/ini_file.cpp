#include "stages/cli/ini_file.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "mesh/io/byte_order_mark.hpp"

namespace geobem::cli {

namespace {

/// A character of a line after escapes, and whether it was escaped (escaped
/// characters are never comments, separators or trimmed blanks).
struct Character {
  char value;
  bool escaped;
};

bool blank(const Character& c) { return !c.escaped && (c.value == ' ' || c.value == '\t'); }

/// The line's characters up to an unescaped `#`, escapes resolved.
std::vector<Character> characters_of(const std::string& line, const std::string& where) {
  std::vector<Character> out;
  for (std::size_t k = 0; k < line.size(); ++k) {
    const char c = line[k];
    if (c == '#') break;
    if (c != '\\') {
      out.push_back({c, false});
      continue;
    }
    if (k + 1 == line.size()) throw std::runtime_error(where + ": a backslash ends the line (write \\\\ for one)");
    const char next = line[++k];
    switch (next) {
      case '\\': case '#': case ' ': out.push_back({next, true}); break;
      case 'n': out.push_back({'\n', true}); break;
      case 'r': out.push_back({'\r', true}); break;
      case 't': out.push_back({'\t', true}); break;
      default:
        throw std::runtime_error(where + ": unknown escape '\\" + std::string(1, next) +
                                 "' (\\# \\\\ \\n \\r \\t and '\\ ' are the escapes; write \\\\ for a backslash)");
    }
  }
  return out;
}

std::string trimmed(std::vector<Character>::const_iterator first, std::vector<Character>::const_iterator last) {
  while (first != last && blank(*first)) ++first;
  while (last != first && blank(*(last - 1))) --last;
  std::string text;
  for (auto c = first; c != last; ++c) text += c->value;
  return text;
}

}  // namespace

std::vector<IniEntry> parse_ini_text(const std::string& text, const std::string& source) {
  std::vector<IniEntry> entries;
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string where = source + ":" + std::to_string(number);
    const std::vector<Character> characters = characters_of(line, where);
    if (trimmed(characters.begin(), characters.end()).empty()) continue;
    auto separator = characters.begin();
    while (separator != characters.end() && (separator->escaped || separator->value != '=')) ++separator;
    const std::string key = trimmed(characters.begin(), separator);
    if (separator == characters.end()) {
      if (key.front() == '[')
        throw std::runtime_error(where + ": sections ('" + key + "') are not part of the syntax: write KEY = VALUE");
      throw std::runtime_error(where + ": expected KEY = VALUE, found '" + key + "'");
    }
    if (key.empty()) throw std::runtime_error(where + ": no key before '='");
    entries.push_back({key, trimmed(separator + 1, characters.end()), number});
  }
  return entries;
}

std::vector<IniEntry> read_ini_file(const std::filesystem::path& path) {
  std::error_code error;
  const auto status = std::filesystem::status(path, error);
  if (error || !std::filesystem::exists(status)) throw std::runtime_error("cannot open '" + path.string() + "'");
  if (!std::filesystem::is_regular_file(status)) throw std::runtime_error("'" + path.string() + "' is not a file");
  const std::uintmax_t size = std::filesystem::file_size(path, error);
  if (error || size > max_ini_file_bytes)
    throw std::runtime_error("'" + path.string() + "' is larger than an options file (" +
                             std::to_string(max_ini_file_bytes) + " bytes at most)");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open '" + path.string() + "'");
  skip_utf8_bom(in);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_ini_text(text.str(), path.string());
}

std::string escape_ini_value(const std::string& value) {
  std::size_t first = 0, last = value.size();
  while (first < last && (value[first] == ' ' || value[first] == '\t')) ++first;
  while (last > first && (value[last - 1] == ' ' || value[last - 1] == '\t')) --last;
  std::string out;
  for (std::size_t k = 0; k < value.size(); ++k) {
    const char c = value[k];
    const bool end_blank = k < first || k >= last;  // trimmed unless escaped
    if (c == '\\' || c == '#') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (end_blank) {
      out += c == ' ' ? "\\ " : "\\t";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace geobem::cli

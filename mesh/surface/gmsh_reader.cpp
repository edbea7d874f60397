#include "mesh/surface/gmsh_reader.hpp"

#include <algorithm>
#include <array>
#include <climits>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "gpu/core/regular_file.hpp"
#include "mesh/io/memory_budget.hpp"
#include "mesh/io/parse_number.hpp"

namespace geobem::surface {

namespace {

/// Nodes per element of the Gmsh element types (Gmsh reference manual,
/// "MSH file format", element types 1–31), and their dimension.
struct ElementType {
  int nodes, dimension;
  const char* name;
};

/// Element types 1 to 31 in order: kElementTypes[type - 1].
constexpr ElementType kElementTypes[] = {
    {2, 1, "2-node line"},           // 1
    {3, 2, "3-node triangle"},       // 2
    {4, 2, "4-node quadrangle"},     // 3
    {4, 3, "4-node tetrahedron"},    // 4
    {8, 3, "8-node hexahedron"},     // 5
    {6, 3, "6-node prism"},          // 6
    {5, 3, "5-node pyramid"},        // 7
    {3, 1, "3-node line"},           // 8
    {6, 2, "6-node triangle"},       // 9
    {9, 2, "9-node quadrangle"},     // 10
    {10, 3, "10-node tetrahedron"},  // 11
    {27, 3, "27-node hexahedron"},   // 12
    {18, 3, "18-node prism"},        // 13
    {14, 3, "14-node pyramid"},      // 14
    {1, 0, "1-node point"},          // 15
    {8, 2, "8-node quadrangle"},     // 16
    {20, 3, "20-node hexahedron"},   // 17
    {15, 3, "15-node prism"},        // 18
    {13, 3, "13-node pyramid"},      // 19
    {9, 2, "9-node triangle"},       // 20
    {10, 2, "10-node triangle"},     // 21
    {12, 2, "12-node triangle"},     // 22
    {15, 2, "15-node triangle"},     // 23
    {15, 2, "15-node triangle"},     // 24
    {21, 2, "21-node triangle"},     // 25
    {4, 1, "4-node line"},           // 26
    {5, 1, "5-node line"},           // 27
    {6, 1, "6-node line"},           // 28
    {20, 3, "20-node tetrahedron"},  // 29
    {35, 3, "35-node tetrahedron"},  // 30
    {56, 3, "56-node tetrahedron"},  // 31
};

std::optional<ElementType> element_type(long long type) {
  if (type < 1 || type > static_cast<long long>(std::size(kElementTypes))) return std::nullopt;
  return kElementTypes[type - 1];
}

constexpr int triangle_type = 2;

/// The lines of a text file split into whitespace-separated tokens, with line
/// numbers for messages; a UTF-8 byte-order mark and CR line ends are accepted.
class MshText {
 public:
  explicit MshText(const std::filesystem::path& path) : name_(path.string()) {
    // The text, and the nodes and triangles it gives (under four times its
    // size), must fit before the whole file is read.
    const std::uint64_t bytes = require_regular_file(path);
    require_memory(bytes > UINT64_MAX / 5 ? UINT64_MAX : 5 * bytes, available_memory_bytes(),
                   name_ + ": reading a mesh file of " + std::to_string(bytes) + " bytes");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(name_ + ": cannot open (" + std::strerror(errno) + ")");
    text_.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (in.bad()) throw std::runtime_error(name_ + ": read error");
    if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) position_ = 3;
  }

  /// The next line's tokens; false at the end of the file.
  bool next_line(std::vector<std::string_view>& tokens) {
    tokens.clear();
    if (position_ >= text_.size()) return false;
    const std::size_t end = std::min(text_.find('\n', position_), text_.size());
    std::string_view line(text_.data() + position_, end - position_);
    position_ = end + 1;
    ++line_number_;
    std::size_t p = 0;
    while (p < line.size()) {
      while (p < line.size() && is_space(line[p])) ++p;
      const std::size_t start = p;
      while (p < line.size() && !is_space(line[p])) ++p;
      if (p > start) tokens.push_back(line.substr(start, p - start));
    }
    last_line_ = line;
    return true;
  }

  /// The next line's tokens; throws "FILE: ends inside WHAT" at the end.
  std::vector<std::string_view> line(const std::string& what) {
    std::vector<std::string_view> tokens;
    if (!next_line(tokens)) throw std::runtime_error(name_ + ": the file ends inside " + what);
    return tokens;
  }

  /// The one token of the next line (a count).
  std::string_view single_token(const std::string& what) {
    const auto tokens = line(what);
    expect_tokens(tokens, 1, "count line of " + what);
    return tokens[0];
  }

  /// The raw text of the last line (CR removed), for $PhysicalNames.
  std::string_view raw_line() const {
    std::string_view line = last_line_;
    while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
    return line;
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw std::runtime_error(name_ + ":" + std::to_string(line_number_) + ": " + message);
  }

  /// Throws unless the line has exactly `count` tokens.
  void expect_tokens(const std::vector<std::string_view>& tokens, std::size_t count, const std::string& what) const {
    if (tokens.size() != count)
      fail(what + ": expected " + std::to_string(count) + " fields, found " + std::to_string(tokens.size()));
  }

  /// A decimal integer in [low, high]; `what` names it in the message.
  long long integer(std::string_view token, long long low, long long high, const std::string& what) const {
    const std::string text(token);
    const bool digits = !text.empty() && text.find_first_not_of("+-0123456789") == std::string::npos;
    errno = 0;
    char* end = nullptr;
    const long long value = digits ? std::strtoll(text.c_str(), &end, 10) : 0;
    if (!digits || end != text.c_str() + text.size() || errno == ERANGE || value < low || value > high)
      fail(what + " '" + text.substr(0, 40) + "' is not an integer from " + std::to_string(low) + " to " +
           std::to_string(high));
    return value;
  }

  /// A finite decimal number.
  double number(std::string_view token, const std::string& what) const {
    const std::string text(token);
    const std::optional<double> value = parse_number(text);
    if (!value || !std::isfinite(*value))
      fail(what + " '" + text.substr(0, 40) + "' is not a finite number");
    return *value;
  }

  /// Skips to the line "$EndNAME" (an unknown section).
  void skip_section(const std::string& section) {
    std::vector<std::string_view> tokens;
    const std::string end = "$End" + section.substr(1);
    while (next_line(tokens))
      if (tokens.size() == 1 && tokens[0] == end) return;
    throw std::runtime_error(name_ + ": section " + section + " has no " + end);
  }

  /// Requires the next line to be "$EndNAME".
  void expect_end(const std::string& section) {
    const auto tokens = line(section);
    const std::string end = "$End" + section.substr(1);
    if (tokens.size() != 1 || tokens[0] != end) fail("expected " + end + " (the counts of " + section + " disagree with its lines)");
  }

  const std::string& name() const { return name_; }
  std::size_t size() const { return text_.size(); }

 private:
  static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

  std::string name_;
  std::string text_;
  std::size_t position_ = 0, line_number_ = 0;
  std::string_view last_line_;
};

/// Tags and counts are positive and below 2^53 here (Gmsh stores them in
/// std::size_t, but its 4.8 reader crashes or wraps on large ones).
constexpr long long max_tag = (1LL << 53);
constexpr long long max_physical_tag = 2147483647;

class MshReader {
 public:
  explicit MshReader(const std::filesystem::path& path) : text_(path) {}

  SurfaceMesh read() {
    std::vector<std::string_view> tokens;
    bool format = false, nodes = false, elements = false;
    while (text_.next_line(tokens)) {
      if (tokens.empty()) continue;
      const std::string section(tokens[0]);
      if (tokens.size() != 1 || section[0] != '$') text_.fail("expected a section such as $Nodes, found '" + section.substr(0, 40) + "'");
      if (!format && section != "$MeshFormat") text_.fail("a Gmsh mesh file starts with $MeshFormat");
      if (section == "$MeshFormat") {
        if (format) text_.fail("a second $MeshFormat");
        read_format();
        format = true;
      } else if (section == "$PhysicalNames") {
        read_physical_names();
      } else if (section == "$Entities" && version4_) {
        read_entities();
      } else if (section == "$PartitionedEntities") {
        text_.fail("partitioned meshes are not supported (save the mesh unpartitioned)");
      } else if (section == "$Nodes") {
        if (nodes) text_.fail("a second $Nodes");
        version4_ ? read_nodes4() : read_nodes2();
        nodes = true;
      } else if (section == "$Elements") {
        if (!nodes) text_.fail("$Elements before $Nodes");
        if (elements) text_.fail("a second $Elements");
        version4_ ? read_elements4() : read_elements2();
        elements = true;
      } else {
        text_.skip_section(section);
      }
    }
    if (!format) throw std::runtime_error(text_.name() + ": empty file (no $MeshFormat)");
    if (!nodes || !elements) throw std::runtime_error(text_.name() + ": no " + std::string(nodes ? "$Elements" : "$Nodes") + " section");
    return finish();
  }

 private:
  void read_format() {
    const auto tokens = text_.line("$MeshFormat");
    text_.expect_tokens(tokens, 3, "$MeshFormat line 'version file-type data-size'");
    const std::string version(tokens[0]);
    if (version == "4.1")
      version4_ = true;
    else if (version != "2.2" && version != "2.1" && version != "2")
      text_.fail("MSH version " + version + " is not supported (2.2 or 4.1; Gmsh: File > Export, Version 4 ASCII)");
    if (tokens[1] != "0")
      text_.fail("binary MSH files are not supported: save the mesh as ASCII (Gmsh: File > Export, "
                 "uncheck 'Save in binary format', or gmsh -save -format msh41 -bin 0)");
    text_.expect_end("$MeshFormat");
  }

  void read_physical_names() {
    const auto count = text_.integer(text_.single_token("$PhysicalNames"), 0, max_physical_tag, "number of physical names");
    for (long long i = 0; i < count; ++i) {
      const auto tokens = text_.line("$PhysicalNames");
      if (tokens.size() < 3) text_.fail("a physical name line reads 'dimension tag \"name\"'");
      const int dimension = static_cast<int>(text_.integer(tokens[0], 0, 3, "physical dimension"));
      const long long tag = text_.integer(tokens[1], 1, max_physical_tag, "physical tag");
      const std::string_view line = text_.raw_line();
      const auto open = line.find('"');
      if (open == std::string_view::npos || line.back() != '"' || line.size() - 1 == open)
        text_.fail("a physical name is written in double quotes");
      if (dimension == 2) names_[tag] = std::string(line.substr(open + 1, line.size() - open - 2));
    }
    text_.expect_end("$PhysicalNames");
  }

  /// 4.1: the physical tags of each surface entity (points, curves and
  /// volumes are read for the structure only).
  void read_entities() {
    auto tokens = text_.line("$Entities");
    text_.expect_tokens(tokens, 4, "$Entities counts 'points curves surfaces volumes'");
    long long counts[4];
    for (int d = 0; d < 4; ++d) counts[d] = text_.integer(tokens[d], 0, max_tag, "entity count");
    for (int dimension = 0; dimension < 4; ++dimension)
      for (long long e = 0; e < counts[dimension]; ++e) {
        tokens = text_.line("$Entities");
        const std::size_t box = dimension == 0 ? 3 : 6;  // a point has X Y Z, others a bounding box
        if (tokens.size() < 2 + box) text_.fail("entity line too short");
        const long long tag = text_.integer(tokens[0], 1, max_physical_tag, "entity tag");
        for (std::size_t k = 1; k <= box; ++k) text_.number(tokens[k], "entity coordinate");
        const long long physical_count =
            text_.integer(tokens[1 + box], 0, static_cast<long long>(tokens.size()), "number of physical tags");
        std::size_t next = 2 + box + static_cast<std::size_t>(physical_count);
        if (tokens.size() < next + (dimension == 0 ? 0 : 1)) text_.fail("entity line too short");
        std::vector<long long> physical;
        for (std::size_t k = 2 + box; k < next; ++k)
          physical.push_back(std::llabs(text_.integer(tokens[k], -max_physical_tag, max_physical_tag, "physical tag")));
        if (dimension > 0) {
          const long long bounding = text_.integer(tokens[next], 0, max_tag, "number of bounding entities");
          text_.expect_tokens(tokens, next + 1 + static_cast<std::size_t>(bounding), "entity line");
          for (std::size_t k = next + 1; k < tokens.size(); ++k)
            text_.integer(tokens[k], -max_physical_tag, max_physical_tag, "bounding entity tag");
        } else {
          text_.expect_tokens(tokens, next, "point entity line");
        }
        if (dimension != 2) continue;
        if (!surface_physical_.emplace(tag, physical).second)
          text_.fail("surface entity " + std::to_string(tag) + " is defined twice");
      }
    text_.expect_end("$Entities");
  }

  void add_node(long long tag, double x, double y, double z) {
    if (mesh_.nodes.size() >= static_cast<std::size_t>(INT_MAX)) text_.fail("more than 2^31 - 1 nodes");
    if (!node_of_tag_.emplace(tag, static_cast<int>(mesh_.nodes.size())).second)
      text_.fail("node " + std::to_string(tag) + " is defined twice");
    mesh_.nodes.push_back({x, y, z});
  }

  /// Caps a declared count by what the file can hold (a line has at least 2 bytes).
  long long declared_count(std::string_view token, const std::string& what) const {
    return text_.integer(token, 0, static_cast<long long>(text_.size() / 2), what);
  }

  void read_nodes2() {
    const long long count = declared_count(text_.single_token("$Nodes"), "number of nodes");
    mesh_.nodes.reserve(static_cast<std::size_t>(count));
    for (long long i = 0; i < count; ++i) {
      const auto tokens = text_.line("$Nodes");
      text_.expect_tokens(tokens, 4, "node line 'tag x y z'");
      const long long tag = text_.integer(tokens[0], 1, max_tag, "node tag");
      add_node(tag, text_.number(tokens[1], "x"), text_.number(tokens[2], "y"), text_.number(tokens[3], "z"));
    }
    text_.expect_end("$Nodes");
  }

  /// 4.1: the first line of $Nodes or $Elements, "blocks ITEMs min-tag
  /// max-tag"; returns the blocks and the ITEMs.
  std::pair<long long, long long> block_counts(const std::string& section, const std::string& item) {
    const auto tokens = text_.line(section);
    text_.expect_tokens(tokens, 4, section + " counts 'blocks " + item + "s min-tag max-tag'");
    const long long blocks = declared_count(tokens[0], "number of " + item + " blocks");
    return {blocks, declared_count(tokens[1], "number of " + item + "s")};
  }

  void read_nodes4() {
    const auto [blocks, total] = block_counts("$Nodes", "node");
    mesh_.nodes.reserve(static_cast<std::size_t>(total));
    for (long long b = 0; b < blocks; ++b) {
      const auto tokens = text_.line("$Nodes");
      text_.expect_tokens(tokens, 4, "node block 'dimension entity parametric count'");
      const int dimension = static_cast<int>(text_.integer(tokens[0], 0, 3, "entity dimension"));
      text_.integer(tokens[1], 1, max_physical_tag, "entity tag");
      const bool parametric = text_.integer(tokens[2], 0, 1, "parametric flag") == 1;
      if (parametric && dimension == 3) text_.fail("parametric nodes on a volume");
      const long long count = declared_count(tokens[3], "nodes in block");
      std::vector<long long> tags(static_cast<std::size_t>(count));
      for (auto& tag : tags) {
        const auto line = text_.line("$Nodes");
        text_.expect_tokens(line, 1, "node tag line");
        tag = text_.integer(line[0], 1, max_tag, "node tag");
      }
      const std::size_t fields = 3 + (parametric ? static_cast<std::size_t>(dimension) : 0);
      for (long long tag : tags) {
        const auto line = text_.line("$Nodes");
        text_.expect_tokens(line, fields, "node coordinates");
        add_node(tag, text_.number(line[0], "x"), text_.number(line[1], "y"), text_.number(line[2], "z"));
      }
    }
    if (static_cast<long long>(mesh_.nodes.size()) != total)
      text_.fail("$Nodes declares " + std::to_string(total) + " nodes, its blocks hold " +
                 std::to_string(mesh_.nodes.size()));
    text_.expect_end("$Nodes");
  }

  /// One element's nodes: each tag must name a node of $Nodes.
  std::array<int, 3> element_nodes(const std::vector<std::string_view>& tokens, std::size_t first, int count,
                                   long long element) {
    std::array<int, 3> triangle{};
    for (int k = 0; k < count; ++k) {
      const long long tag = text_.integer(tokens[first + k], 1, max_tag, "node tag of element " + std::to_string(element));
      const auto found = node_of_tag_.find(tag);
      if (found == node_of_tag_.end())
        text_.fail("element " + std::to_string(element) + " refers to node " + std::to_string(tag) +
                   ", which $Nodes does not define");
      if (k < 3) triangle[k] = found->second;
    }
    return triangle;
  }

  void add_surface_element(long long element, long long type, long long entity, long long physical,
                           const std::vector<std::string_view>& tokens, std::size_t first) {
    if (type != triangle_type)
      text_.fail("element " + std::to_string(element) + " of surface entity " + std::to_string(entity) + " is a " +
                 element_type(type)->name + " (Gmsh type " + std::to_string(type) +
                 "); only 3-node triangles are supported");
    mesh_.triangles.push_back(element_nodes(tokens, first, 3, element));
    physical_of_triangle_.push_back(physical);
  }

  void read_elements2() {
    const long long count = declared_count(text_.single_token("$Elements"), "number of elements");
    for (long long i = 0; i < count; ++i) {
      const auto tokens = text_.line("$Elements");
      if (tokens.size() < 3) text_.fail("element line 'tag type tag-count tags... nodes...' too short");
      const long long element = text_.integer(tokens[0], 1, max_tag, "element tag");
      const long long type = text_.integer(tokens[1], 1, 1000, "element type");
      const auto info = element_type(type);
      if (!info) text_.fail("element " + std::to_string(element) + ": unknown Gmsh element type " + std::to_string(type));
      const long long tag_count = text_.integer(tokens[2], 0, 64, "number of element tags");
      const std::size_t first = 3 + static_cast<std::size_t>(tag_count);
      text_.expect_tokens(tokens, first + static_cast<std::size_t>(info->nodes),
                          "element " + std::to_string(element) + " (" + info->name + ")");
      // Tags: physical, elementary entity, then partitions.
      long long physical = 0, entity = 0;
      for (std::size_t k = 3; k < first; ++k) {
        const long long value = text_.integer(tokens[k], -max_physical_tag, max_physical_tag, "element tag");
        if (k == 3) physical = value;
        if (k == 4) entity = value;
      }
      if (physical < 0) text_.fail("element " + std::to_string(element) + ": negative physical tag");
      if (info->dimension == 2)
        add_surface_element(element, type, entity, physical, tokens, first);
      else
        element_nodes(tokens, first, info->nodes, element);
    }
    text_.expect_end("$Elements");
  }

  void read_elements4() {
    const auto [blocks, total] = block_counts("$Elements", "element");
    long long read = 0;
    for (long long b = 0; b < blocks; ++b) {
      const auto tokens = text_.line("$Elements");
      text_.expect_tokens(tokens, 4, "element block 'dimension entity type count'");
      const int dimension = static_cast<int>(text_.integer(tokens[0], 0, 3, "entity dimension"));
      const long long entity = text_.integer(tokens[1], 1, max_physical_tag, "entity tag");
      const long long type = text_.integer(tokens[2], 1, 1000, "element type");
      const auto info = element_type(type);
      if (!info) text_.fail("unknown Gmsh element type " + std::to_string(type));
      if (info->dimension != dimension)
        text_.fail(std::string("a block of ") + info->name + " elements on an entity of dimension " +
                   std::to_string(dimension));
      const long long count = declared_count(tokens[3], "elements in block");
      long long physical = 0;
      if (dimension == 2) {
        const auto found = surface_physical_.find(entity);
        if (found == surface_physical_.end() && !surface_physical_.empty())
          text_.fail("surface entity " + std::to_string(entity) + " is not in $Entities");
        if (found != surface_physical_.end()) {
          if (found->second.size() > 1)
            text_.fail("surface entity " + std::to_string(entity) + " is in physical groups " +
                       std::to_string(found->second[0]) + " and " + std::to_string(found->second[1]) +
                       ": every triangle must be in exactly one boundary group");
          if (!found->second.empty()) physical = found->second[0];
        }
      }
      for (long long e = 0; e < count; ++e) {
        const auto line = text_.line("$Elements");
        text_.expect_tokens(line, 1 + static_cast<std::size_t>(info->nodes), std::string(info->name) + " line");
        const long long element = text_.integer(line[0], 1, max_tag, "element tag");
        if (dimension == 2)
          add_surface_element(element, type, entity, physical, line, 1);
        else
          element_nodes(line, 1, info->nodes, element);
        ++read;
      }
    }
    if (read != total)
      text_.fail("$Elements declares " + std::to_string(total) + " elements, its blocks hold " + std::to_string(read));
    text_.expect_end("$Elements");
  }

  /// Groups: the physical tags of the triangles, in tag order.
  SurfaceMesh finish() {
    std::map<long long, int> group_of_physical;
    for (long long physical : physical_of_triangle_)
      if (physical > 0) group_of_physical.emplace(physical, 0);
    for (auto& [physical, group] : group_of_physical) {
      group = static_cast<int>(mesh_.group_names.size());
      const auto name = names_.find(physical);
      mesh_.group_names.push_back(name != names_.end() && !name->second.empty() ? name->second
                                                                                 : "physical_" + std::to_string(physical));
    }
    mesh_.group_of_triangle.reserve(physical_of_triangle_.size());
    for (long long physical : physical_of_triangle_)
      mesh_.group_of_triangle.push_back(physical > 0 ? group_of_physical.at(physical) : -1);
    return std::move(mesh_);
  }

  MshText text_;
  bool version4_ = false;
  SurfaceMesh mesh_;
  std::unordered_map<long long, int> node_of_tag_;
  std::map<long long, std::string> names_;                     ///< physical names of dimension 2
  std::map<long long, std::vector<long long>> surface_physical_;  ///< 4.1 surface entity → physical tags
  std::vector<long long> physical_of_triangle_;
};

}  // namespace

SurfaceMesh read_gmsh_surface(const std::filesystem::path& path) {
  if (!std::filesystem::is_regular_file(path)) throw std::runtime_error(path.string() + ": no such file");
  return MshReader(path).read();
}

}  // namespace geobem::surface

#include "mesh/io/vtk_xml_check.hpp"

#include <expat.h>
#include <sys/mman.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cfloat>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "gpu/core/regular_file.hpp"
#include "mesh/io/memory_budget.hpp"
#include "mesh/io/parse_number.hpp"

namespace geobem {

namespace {

/// The largest extent value (either sign) the check accepts: 2^30.
constexpr long long max_extent = 1LL << 30;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// ---------------------------------------------------------------- XML tree

struct Element {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<std::size_t> children;
  unsigned long line = 0;
  std::size_t content_begin = 0, content_end = 0;  ///< inline character data, raw bytes

  const std::string* attribute(const char* key) const {
    for (const auto& [k, v] : attributes)
      if (k == key) return &v;
    return nullptr;
  }
};

/// Bounds that keep a hostile header from costing time: VTK files have a few
/// dozen elements, nested five deep.
constexpr std::size_t max_elements = 100000, max_depth = 32;

struct Document {
  std::vector<Element> elements;  ///< elements[0] is the root
  bool appended = false;
  bool appended_base64 = false;
  std::size_t appended_begin = 0;  ///< first byte after the '_' marker
};

class XmlReader {
 public:
  XmlReader(std::string_view bytes, const std::string& name) : bytes_(bytes), name_(name) {}

  Document parse() {
    std::unique_ptr<XML_ParserStruct, decltype(&XML_ParserFree)> parser(XML_ParserCreate("UTF-8"), XML_ParserFree);
    if (!parser) throw std::runtime_error(name_ + ": cannot create an XML parser");
    parser_ = parser.get();
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &XmlReader::on_start, &XmlReader::on_end);
    XML_SetStartDoctypeDeclHandler(parser_, &XmlReader::on_doctype);
    XML_SetEntityDeclHandler(parser_, &XmlReader::on_entity);
    constexpr std::size_t chunk = 1 << 20;
    std::size_t fed = 0;
    do {
      const std::size_t length = std::min(chunk, bytes_.size() - fed);
      const bool last = fed + length == bytes_.size();
      if (XML_Parse(parser_, bytes_.data() + fed, static_cast<int>(length), last) != XML_STATUS_OK) {
        if (!error_.empty()) throw std::runtime_error(name_ + ": " + error_);
        if (document_.appended) break;
        throw std::runtime_error(name_ + ": line " + std::to_string(XML_GetCurrentLineNumber(parser_)) +
                                 ": not well-formed XML (" + XML_ErrorString(XML_GetErrorCode(parser_)) + ")");
      }
      fed += length;
    } while (fed < bytes_.size());
    if (document_.elements.empty()) throw std::runtime_error(name_ + ": empty file (no XML element)");
    return std::move(document_);
  }

 private:
  void fail(const std::string& message) {
    if (error_.empty()) error_ = "line " + std::to_string(XML_GetCurrentLineNumber(parser_)) + ": " + message;
    XML_StopParser(parser_, XML_FALSE);
  }

  static void on_start(void* user, const XML_Char* name, const XML_Char** attributes) {
    auto& self = *static_cast<XmlReader*>(user);
    if (!self.error_.empty() || self.document_.appended) return;
    if (std::strcmp(name, "AppendedData") == 0) return self.start_appended(attributes);
    if (self.document_.elements.size() >= max_elements)
      return self.fail("more than " + std::to_string(max_elements) + " XML elements");
    if (self.stack_.size() >= max_depth) return self.fail("XML nested deeper than " + std::to_string(max_depth));
    if (self.stack_.empty() && !self.document_.elements.empty()) return self.fail("a second root element");
    Element element;
    element.name = name;
    for (const XML_Char** a = attributes; *a; a += 2) element.attributes.emplace_back(a[0], a[1]);
    element.line = XML_GetCurrentLineNumber(self.parser_);
    element.content_begin =
        static_cast<std::size_t>(XML_GetCurrentByteIndex(self.parser_) + XML_GetCurrentByteCount(self.parser_));
    element.content_end = element.content_begin;
    const std::size_t index = self.document_.elements.size();
    if (!self.stack_.empty()) self.document_.elements[self.stack_.back()].children.push_back(index);
    self.document_.elements.push_back(std::move(element));
    self.stack_.push_back(index);
  }

  static void on_end(void* user, const XML_Char*) {
    auto& self = *static_cast<XmlReader*>(user);
    if (!self.error_.empty() || self.document_.appended || self.stack_.empty()) return;
    Element& element = self.document_.elements[self.stack_.back()];
    const auto end = static_cast<std::size_t>(XML_GetCurrentByteIndex(self.parser_));
    if (end > element.content_begin) element.content_end = end;  // an empty-element tag has no content
    self.stack_.pop_back();
  }

  static void on_doctype(void* user, const XML_Char*, const XML_Char*, const XML_Char*, int) {
    static_cast<XmlReader*>(user)->fail("a DOCTYPE declaration (VTK files have none)");
  }

  static void on_entity(void* user, const XML_Char*, int, const XML_Char*, int, const XML_Char*, const XML_Char*,
                        const XML_Char*, const XML_Char*) {
    static_cast<XmlReader*>(user)->fail("an entity declaration (VTK files have none)");
  }

  /// VTK's appended data is not XML: stop at its start tag, as VTK does, and
  /// find the '_' that precedes the data.
  void start_appended(const XML_Char** attributes) {
    std::string encoding = "base64";
    for (const XML_Char** a = attributes; *a; a += 2)
      if (std::strcmp(a[0], "encoding") == 0) encoding = a[1];
    if (encoding != "raw" && encoding != "base64")
      return fail("AppendedData encoding '" + encoding + "' (expected raw or base64)");
    std::size_t position =
        static_cast<std::size_t>(XML_GetCurrentByteIndex(parser_) + XML_GetCurrentByteCount(parser_));
    while (position < bytes_.size() && is_space(bytes_[position]))
      ++position;
    if (position >= bytes_.size() || bytes_[position] != '_')
      return fail("AppendedData does not start with '_'");
    document_.appended = true;
    document_.appended_base64 = encoding == "base64";
    document_.appended_begin = position + 1;
    XML_StopParser(parser_, XML_FALSE);
  }

  std::string_view bytes_;
  const std::string& name_;
  XML_Parser parser_ = nullptr;
  Document document_;
  std::vector<std::size_t> stack_;
  std::string error_;
};

// ------------------------------------------------------------- value types

enum class Kind { Signed, Unsigned, Float, String };

struct WordType {
  const char* name;
  std::size_t size;
  Kind kind;
};

constexpr WordType word_types[] = {
    {"Int8", 1, Kind::Signed},     {"UInt8", 1, Kind::Unsigned},  {"Int16", 2, Kind::Signed},
    {"UInt16", 2, Kind::Unsigned}, {"Int32", 4, Kind::Signed},    {"UInt32", 4, Kind::Unsigned},
    {"Int64", 8, Kind::Signed},    {"UInt64", 8, Kind::Unsigned}, {"Float32", 4, Kind::Float},
    {"Float64", 8, Kind::Float},   {"String", 1, Kind::String}};

/// What the decoded values of one array add up to.
struct ArrayStats {
  std::uint64_t values = 0;   ///< words (numbers) or strings
  std::uint64_t bytes = 0;    ///< decoded bytes
  std::int64_t min = 0, max = 0, first = 0, last = 0;
  bool nondecreasing = true;
  bool beyond_int64 = false;  ///< an unsigned value over 2^63 − 1
};

/// Collects values in file order: binary words (byte-swapped as needed) or
/// parsed ASCII integers.
class ValueSink {
 public:
  ValueSink(const WordType& type, bool swap) : type_(type), swap_(swap) {}

  void bytes(const unsigned char* data, std::size_t count) {
    stats_.bytes += count;
    if (type_.kind == Kind::String) {
      for (std::size_t i = 0; i < count; ++i)
        if (data[i] == 0) ++stats_.values;
      return;
    }
    if (type_.kind == Kind::Float) {
      stats_.values += (carry_size_ + count) / type_.size;
      carry_size_ = (carry_size_ + count) % type_.size;
      return;
    }
    for (std::size_t i = 0; i < count; ++i) {
      carry_[carry_size_++] = data[i];
      if (carry_size_ < type_.size) continue;
      carry_size_ = 0;
      integer_word();
    }
  }

  void integer(std::int64_t value, bool beyond_int64 = false) {
    stats_.beyond_int64 |= beyond_int64;
    if (stats_.values == 0) {
      stats_.min = stats_.max = stats_.first = value;
    } else {
      stats_.nondecreasing &= value >= stats_.last;
      stats_.min = std::min(stats_.min, value);
      stats_.max = std::max(stats_.max, value);
    }
    stats_.last = value;
    ++stats_.values;
  }
  void other_value() { ++stats_.values; }
  void string_end() { ++stats_.values; }

  const ArrayStats& stats() const { return stats_; }

 private:
  void integer_word() {
    unsigned char word[8];
    for (std::size_t b = 0; b < type_.size; ++b) word[b] = carry_[swap_ ? type_.size - 1 - b : b];
    std::uint64_t bits = 0;
    for (std::size_t b = 0; b < type_.size; ++b) bits |= static_cast<std::uint64_t>(word[b]) << (8 * b);
    if (type_.kind == Kind::Signed) {
      const unsigned shift = static_cast<unsigned>(64 - 8 * type_.size);
      integer(static_cast<std::int64_t>(bits << shift) >> shift);
    } else {
      integer(bits > static_cast<std::uint64_t>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(bits),
              bits > static_cast<std::uint64_t>(INT64_MAX));
    }
  }

  const WordType& type_;
  bool swap_;
  unsigned char carry_[8] = {};
  std::size_t carry_size_ = 0;
  ArrayStats stats_;
};

// ------------------------------------------------------------ byte sources

/// The encoded bytes of one array: raw file bytes or base64 text, read as
/// VTK does (a compressed array's header is its own base64 stream).
class ByteSource {
 public:
  ByteSource(std::string_view bytes, std::size_t position, bool base64)
      : bytes_(bytes), position_(position), base64_(base64) {}

  /// Reads exactly `count` bytes or returns false.
  bool read(unsigned char* out, std::size_t count) {
    if (count == 0) return true;
    if (!base64_) {
      if (position_ > bytes_.size() || bytes_.size() - position_ < count) return false;
      std::memcpy(out, bytes_.data() + position_, count);
      position_ += count;
      return true;
    }
    for (std::size_t i = 0; i < count; ++i) {
      if (buffered_ == used_ && !decode_group()) return false;
      out[i] = group_[used_++];
    }
    return true;
  }

  /// Ends a base64 stream: the rest of its last group is padding.
  void end_stream() {
    used_ = buffered_ = 0;
    padded_ = false;
  }

  /// Bytes that could still be read (an upper bound for base64).
  std::uint64_t remaining() const {
    const std::uint64_t left = position_ < bytes_.size() ? bytes_.size() - position_ : 0;
    return base64_ ? left / 4 * 3 + (buffered_ - used_) : left;
  }

  const std::string& error() const { return error_; }

 private:
  static int sextet(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  }

  bool decode_group() {
    if (padded_) {
      error_ = "base64 data continue after padding";
      return false;
    }
    if (position_ > bytes_.size() || bytes_.size() - position_ < 4) return false;
    const char* c = bytes_.data() + position_;
    int value[4];
    int padding = 0;
    for (int k = 0; k < 4; ++k) {
      value[k] = sextet(c[k]);
      if (c[k] == '=' && k >= 2) {
        value[k] = 0;
        ++padding;
      } else if (value[k] < 0 || padding > 0) {
        error_ = "'" + std::string(1, c[k]) + "' is not base64";
        return false;
      }
    }
    const std::uint32_t bits = (value[0] << 18) | (value[1] << 12) | (value[2] << 6) | value[3];
    group_[0] = static_cast<unsigned char>(bits >> 16);
    group_[1] = static_cast<unsigned char>(bits >> 8);
    group_[2] = static_cast<unsigned char>(bits);
    buffered_ = 3 - padding;
    used_ = 0;
    padded_ = padding > 0;
    position_ += 4;
    return buffered_ > 0;
  }

  std::string_view bytes_;
  std::size_t position_;
  bool base64_;
  unsigned char group_[3] = {};
  std::size_t buffered_ = 0, used_ = 0;
  bool padded_ = false;
  std::string error_;
};

// ------------------------------------------------------------ the checker

std::uint64_t parse_count(const std::string& text, const std::string& what) {
  const char* p = text.c_str();
  while (*p == ' ') ++p;
  if (*p < '0' || *p > '9') throw std::runtime_error(what + " '" + text + "' is not a non-negative integer");
  errno = 0;
  char* end = nullptr;
  const unsigned long long value = std::strtoull(p, &end, 10);
  while (*end == ' ') ++end;
  if (*end != '\0' || errno == ERANGE) throw std::runtime_error(what + " '" + text + "' is not a non-negative integer");
  return value;
}

std::vector<long long> parse_integers(const std::string& text, std::size_t count, const std::string& what) {
  std::vector<long long> values;
  const char* p = text.c_str();
  char* end = nullptr;
  for (;;) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') ++p;
    if (*p == '\0') break;
    errno = 0;
    const long long value = std::strtoll(p, &end, 10);
    if (end == p || errno == ERANGE || std::llabs(value) > (1LL << 40))
      throw std::runtime_error(what + " '" + text + "': expected " + std::to_string(count) + " integers");
    values.push_back(value);
    p = end;
  }
  if (values.size() != count)
    throw std::runtime_error(what + " '" + text + "': expected " + std::to_string(count) + " integers");
  return values;
}

class Checker {
 public:
  Checker(std::string_view bytes, const std::string& name, std::uint64_t budget)
      : bytes_(bytes), name_(name), budget_(budget) {}

  void run() {
    document_ = XmlReader(bytes_, name_).parse();
    const Element& root = document_.elements[0];
    const std::string type = check_root(root);
    const Element& data_set = data_set_of(root, type);
    std::optional<std::array<long long, 6>> whole_extent;
    if (type == "ImageData" || type == "RectilinearGrid" || type == "StructuredGrid")
      whole_extent = extent(data_set, "WholeExtent", std::nullopt);

    if (type == "ImageData")
      for (const auto& [key, count] : {std::pair<const char*, std::size_t>{"Origin", 3}, {"Spacing", 3}, {"Direction", 9}})
        if (const std::string* text = data_set.attribute(key)) finite_numbers(data_set, key, *text, count);

    std::size_t piece_index = 0;
    for (std::size_t child : data_set.children) {
      const Element& element = document_.elements[child];
      if (element.name == "FieldData") {
        check_field_data(element);
      } else if (element.name == "Piece") {
        piece_ = piece_index++;
        check_piece(type, element, whole_extent);
      }
    }
    if (piece_index == 0) fail(data_set, "no <Piece>");
  }

 private:
  [[noreturn]] void fail(const Element& element, const std::string& message) const {
    throw std::runtime_error(name_ + ": line " + std::to_string(element.line) + ": " + message);
  }

  static std::string attribute_or(const Element& element, const char* key, const char* fallback) {
    const std::string* value = element.attribute(key);
    return value ? *value : fallback;
  }

  /// <VTKFile>: a serial data set type, its byte order, header type and
  /// compressor (kept for the arrays); returns the type.
  std::string check_root(const Element& root) {
    if (root.name != "VTKFile") fail(root, "root element <" + root.name + ">, expected <VTKFile>");
    const std::string type = attribute_or(root, "type", "");
    static const char* const types[] = {"ImageData", "RectilinearGrid", "StructuredGrid", "UnstructuredGrid",
                                        "PolyData"};
    bool known = false;
    for (const char* t : types) known |= type == t;
    if (!known)
      fail(root, "VTKFile type '" + type +
                     "' is not a serial VTK data set (ImageData, RectilinearGrid, StructuredGrid, "
                     "UnstructuredGrid, PolyData)");
    const std::string order = attribute_or(root, "byte_order", "LittleEndian");
    if (order != "LittleEndian" && order != "BigEndian")
      fail(root, "byte_order '" + order + "' (expected LittleEndian or BigEndian)");
    swap_ = order == "BigEndian";
    const std::string header = attribute_or(root, "header_type", "UInt32");
    if (header != "UInt32" && header != "UInt64") fail(root, "header_type '" + header + "' (expected UInt32 or UInt64)");
    header_bytes_ = header == "UInt64" ? 8 : 4;
    if (const std::string* compressor = root.attribute("compressor")) {
      if (*compressor != "vtkZLibDataCompressor")
        fail(root, "compressor '" + *compressor + "' (only vtkZLibDataCompressor, zlib, is accepted)");
      compressed_ = true;
    }
    return type;
  }

  /// The one child of the root named by the type.
  const Element& data_set_of(const Element& root, const std::string& type) const {
    const Element* data_set = nullptr;
    for (std::size_t child : root.children) {
      const Element& element = document_.elements[child];
      if (element.name != type) continue;
      if (data_set) fail(element, "a second <" + type + "> element");
      data_set = &element;
    }
    if (!data_set) fail(root, "no <" + type + "> element");
    return *data_set;
  }

  /// <FieldData>: arrays that declare their own number of tuples.
  void check_field_data(const Element& field_data) {
    for (std::size_t a : field_data.children) {
      const Element& array = document_.elements[a];
      const std::string* tuples = array.attribute("NumberOfTuples");
      if (!tuples) fail(array, "FieldData array without NumberOfTuples");
      check_array(array, "FieldData", try_count(array, *tuples, "NumberOfTuples"));
    }
  }

  std::uint64_t try_count(const Element& element, const std::string& text, const std::string& what) const {
    try {
      return parse_count(text, what);
    } catch (const std::runtime_error& error) {
      fail(element, error.what());
    }
  }

  std::array<long long, 6> extent(const Element& element, const char* key,
                                  const std::optional<std::array<long long, 6>>& whole) const {
    const std::string* text = element.attribute(key);
    if (!text) fail(element, std::string("<") + element.name + "> without " + key);
    std::vector<long long> values;
    try {
      values = parse_integers(*text, 6, key);
    } catch (const std::runtime_error& error) {
      fail(element, error.what());
    }
    std::array<long long, 6> result;
    // VTK keeps extents in int and loops to the upper end inclusive: every
    // value within ±2^30 keeps the ends, their difference and the loop's
    // last increment inside int32.
    for (int k = 0; k < 6; ++k)
      if (values[k] < -max_extent || values[k] > max_extent)
        fail(element, std::string(key) + " '" + *text + "': " + std::to_string(values[k]) + " lies outside ±" +
                          std::to_string(max_extent) + " (VTK's extents are 32-bit integers)");
    for (int a = 0; a < 3; ++a) {
      result[2 * a] = values[2 * a];
      result[2 * a + 1] = values[2 * a + 1];
      if (values[2 * a] > values[2 * a + 1])
        fail(element, std::string(key) + " '" + *text + "': axis " + std::to_string(a) + " runs from " +
                          std::to_string(values[2 * a]) + " down to " + std::to_string(values[2 * a + 1]));
      if (whole && (values[2 * a] < (*whole)[2 * a] || values[2 * a + 1] > (*whole)[2 * a + 1]))
        fail(element, std::string(key) + " '" + *text + "' lies outside the WholeExtent");
    }
    return result;
  }

  /// An attribute of `count` finite decimal numbers (VTK reads a failed one as 0).
  void finite_numbers(const Element& element, const char* key, const std::string& text, std::size_t count) const {
    std::size_t found = 0, p = 0;
    while (p < text.size()) {
      if (is_space(text[p])) {
        ++p;
        continue;
      }
      const std::size_t end = std::min(text.find_first_of(" \t\r\n", p), text.size());
      const std::string token = text.substr(p, end - p);
      if (!is_decimal_number(token.c_str()) || !std::isfinite(std::strtod(token.c_str(), nullptr)))
        fail(element, std::string(key) + " '" + text + "': '" + token + "' is not a finite number");
      ++found;
      p = end;
    }
    if (found != count)
      fail(element, std::string(key) + " '" + text + "': expected " + std::to_string(count) + " numbers");
  }

  const Element* child(const Element& parent, const char* name) const {
    const Element* found = nullptr;
    for (std::size_t c : parent.children) {
      const Element& element = document_.elements[c];
      if (element.name != name) continue;
      if (found) fail(element, std::string("a second <") + name + "> in one piece");
      found = &element;
    }
    return found;
  }

  std::uint64_t count_attribute(const Element& element, const char* key) const {
    const std::string* text = element.attribute(key);
    return text ? try_count(element, *text, key) : 0;
  }

  /// The points and cells of a piece: from its Extent (and the points along
  /// each axis) in a structured data set, from its NumberOf... attributes
  /// otherwise.
  struct PieceSize {
    std::uint64_t points = 0, cells = 0;
    std::array<std::uint64_t, 3> axis_points{};
  };

  PieceSize piece_size(const std::string& type, const Element& piece,
                       const std::optional<std::array<long long, 6>>& whole_extent) const {
    PieceSize size;
    if (whole_extent) {
      const auto e = extent(piece, "Extent", whole_extent);
      size.points = size.cells = 1;
      for (int a = 0; a < 3; ++a) {
        size.axis_points[a] = static_cast<std::uint64_t>(e[2 * a + 1] - e[2 * a]) + 1;
        if (!multiply_checked(size.points, size.axis_points[a], size.points)) fail(piece, "Extent has too many points");
        if (size.axis_points[a] > 1) size.cells *= size.axis_points[a] - 1;
      }
      return size;
    }
    size.points = count_attribute(piece, "NumberOfPoints");
    if (type == "UnstructuredGrid") {
      size.cells = count_attribute(piece, "NumberOfCells");
    } else {
      for (const char* key : {"NumberOfVerts", "NumberOfLines", "NumberOfStrips", "NumberOfPolys"}) {
        const std::uint64_t n = count_attribute(piece, key);
        if (__builtin_add_overflow(size.cells, n, &size.cells)) fail(piece, "too many cells");
      }
    }
    return size;
  }

  void check_piece(const std::string& type, const Element& piece,
                   const std::optional<std::array<long long, 6>>& whole_extent) {
    const PieceSize size = piece_size(type, piece, whole_extent);
    points_ = size.points;
    const std::string where = "piece " + std::to_string(piece_);

    if (const Element* data = child(piece, "PointData"))
      for (std::size_t a : data->children) check_array(document_.elements[a], "PointData", size.points);
    if (const Element* data = child(piece, "CellData"))
      for (std::size_t a : data->children) check_array(document_.elements[a], "CellData", size.cells);
    check_piece_points(type, piece, size, where);
    check_piece_cells(type, piece, size.cells, where);
  }

  /// The point coordinates: three axis arrays of a rectilinear grid, one
  /// array of 3-vectors of the others but an image (which has none).
  void check_piece_points(const std::string& type, const Element& piece, const PieceSize& size,
                          const std::string& where) {
    if (type == "RectilinearGrid") {
      const Element* coordinates = child(piece, "Coordinates");
      if (!coordinates) fail(piece, where + " has no <Coordinates>");
      if (coordinates->children.size() != 3) fail(*coordinates, "<Coordinates> needs 3 arrays (x, y, z)");
      for (int a = 0; a < 3; ++a)
        check_array(document_.elements[coordinates->children[a]], "Coordinates", size.axis_points[a], 1);
    } else if (type != "ImageData") {
      const Element* point_element = child(piece, "Points");
      if (size.points > 0 && !point_element)
        fail(piece, where + " has " + std::to_string(size.points) + " points but no <Points>");
      if (point_element) {
        if (point_element->children.size() != 1) fail(*point_element, "<Points> needs exactly one array");
        check_array(document_.elements[point_element->children[0]], "Points", size.points, 3);
      }
    }
  }

  /// The cells of an unstructured grid (<Cells>) or of poly data (<Verts>,
  /// <Lines>, <Strips>, <Polys>, each as many as its NumberOf... attribute).
  void check_piece_cells(const std::string& type, const Element& piece, std::uint64_t cells, const std::string& where) {
    if (type == "UnstructuredGrid") {
      const Element* cell_element = child(piece, "Cells");
      if (cells > 0 && !cell_element) fail(piece, where + " has " + std::to_string(cells) + " cells but no <Cells>");
      if (cell_element) check_cell_arrays(*cell_element, cells, true);
    } else if (type == "PolyData") {
      for (const char* key : {"Verts", "Lines", "Strips", "Polys"}) {
        const std::uint64_t n = count_attribute(piece, (std::string("NumberOf") + key).c_str());
        const Element* cell_element = child(piece, key);
        if (n > 0 && !cell_element)
          fail(piece, where + " has " + std::to_string(n) + " " + key + " but no <" + key + ">");
        if (cell_element) check_cell_arrays(*cell_element, n, false);
      }
    }
  }

  /// The arrays of a cell element (<Cells>, <Polys>, ...).
  struct CellArrays {
    const Element *offsets = nullptr, *connectivity = nullptr, *types = nullptr;
  };

  /// The arrays of a cell element by name, each at most once; any other
  /// array fails.
  CellArrays cell_arrays_of(const Element& cells_element, bool with_types) const {
    CellArrays found;
    for (std::size_t c : cells_element.children) {
      const Element& array = document_.elements[c];
      const std::string array_name = attribute_or(array, "Name", "");
      // VTK 9.1 leaks the first of two arrays of one name here.
      const auto take = [&](const Element*& slot) {
        if (slot) fail(array, "array '" + array_name + "' appears twice in <" + cells_element.name + ">");
        slot = &array;
      };
      if (array_name == "offsets")
        take(found.offsets);
      else if (array_name == "connectivity")
        take(found.connectivity);
      else if (array_name == "types" && with_types)
        take(found.types);
      else if (array_name == "faces" || array_name == "faceoffsets")
        fail(array, "polyhedron cells (array '" + array_name + "') are not accepted");
      else
        fail(array, "unknown array '" + array_name + "' in <" + cells_element.name + ">");
    }
    return found;
  }

  /// offsets (one per cell, non-decreasing, ≥ 0), connectivity (as many ids
  /// as the last offset says, each naming a point of the piece), and for an
  /// unstructured grid the cell types.
  void check_cell_arrays(const Element& cells_element, std::uint64_t cells, bool with_types) {
    const auto [offsets, connectivity, types] = cell_arrays_of(cells_element, with_types);
    if (cells == 0) return;
    if (!offsets || !connectivity || (with_types && !types))
      fail(cells_element, "<" + cells_element.name + "> needs arrays connectivity, offsets" +
                              (with_types ? ", types" : ""));
    if (attribute_or(*offsets, "type", "") != attribute_or(*connectivity, "type", ""))
      fail(*connectivity, "connectivity and offsets have different types");
    const ArrayStats offset_stats = check_array(*offsets, cells_element.name, cells, 1);
    if (offset_stats.beyond_int64 || offset_stats.min < 0 || !offset_stats.nondecreasing)
      fail(*offsets, "cell offsets must be non-negative and never decrease");
    const ArrayStats ids = check_array(*connectivity, cells_element.name, static_cast<std::uint64_t>(offset_stats.last), 1);
    if (ids.values > 0 && (ids.beyond_int64 || ids.min < 0 || static_cast<std::uint64_t>(ids.max) >= points_))
      fail(*connectivity, "connectivity names point " +
                              std::to_string(ids.beyond_int64 ? INT64_MAX : (ids.min < 0 ? ids.min : ids.max)) +
                              ", but the piece has " + std::to_string(points_) + " points (ids 0 to " +
                              std::to_string(points_) + " - 1)");
    if (types) check_array(*types, cells_element.name, cells, 1);
  }

  ArrayStats check_array(const Element& array, const std::string& section, std::uint64_t tuples,
                         std::optional<std::uint64_t> required_components = std::nullopt) {
    if (array.name != "DataArray" && array.name != "Array")
      fail(array, "<" + array.name + "> inside <" + section + ">, expected <DataArray>");
    const std::string array_name = attribute_or(array, "Name", "");
    const std::string label =
      section + " array '" + array_name + "'" + (section == "FieldData" ? "" : " (piece " + std::to_string(piece_) + ")");
    const WordType& type = word_type(array, label);
    const std::uint64_t component_count = components(array, label, required_components);
    std::uint64_t values = 0, bytes = 0;
    if (!multiply_checked(tuples, component_count, values) || !multiply_checked(values, type.size, bytes))
      fail(array, label + ": " + std::to_string(tuples) + " tuples of " + std::to_string(component_count) +
                      " components overflow 64 bits");
    if (type.kind != Kind::String) add_to_memory(array, label, bytes, true);

    ValueSink sink(type, swap_);
    // VTK's reader dereferences a missing format attribute (seen crashing under fuzzing), so it is required.
    if (!array.attribute("format")) fail(array, label + ": no format attribute (expected ascii, binary or appended)");
    try {
      read_values(array, type, values, type.kind == Kind::String ? std::nullopt : std::optional<std::uint64_t>(bytes),
                  sink);
    } catch (const std::runtime_error& error) {
      fail(array, label + ": " + error.what());
    }
    if (sink.stats().values != values)
      fail(array, label + ": " + std::to_string(sink.stats().values) + " values for " + std::to_string(tuples) +
                      " tuples of " + std::to_string(component_count) + " component(s)");
    if (type.kind == Kind::String) add_to_memory(array, label, sink.stats().bytes, false);
    return sink.stats();
  }

  const WordType& word_type(const Element& array, const std::string& label) const {
    const std::string type_name = attribute_or(array, "type", "");
    for (const WordType& t : word_types)
      if (type_name == t.name) return t;
    fail(array, label + ": type '" + type_name +
                    "' (expected Int8, UInt8, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float32, Float64 or "
                    "String)");
  }

  /// NumberOfComponents (1 when absent): not 0, and `required` when given.
  std::uint64_t components(const Element& array, const std::string& label,
                           std::optional<std::uint64_t> required) const {
    const std::uint64_t count = count_attribute(array, "NumberOfComponents");
    const std::uint64_t component_count = array.attribute("NumberOfComponents") ? count : 1;
    if (component_count == 0) fail(array, label + ": NumberOfComponents 0");
    if (required && component_count != *required)
      fail(array, label + ": " + std::to_string(component_count) + " components, expected " +
                      std::to_string(*required));
    return component_count;
  }

  /// Adds an array's decoded bytes to those of the arrays before it and
  /// checks the sum (and with `array_too` the array's own bytes first)
  /// against the memory budget.
  void add_to_memory(const Element& array, const std::string& label, std::uint64_t bytes, bool array_too) {
    total_bytes_ += bytes;
    try {
      if (array_too) require_memory(bytes, budget_, label);
      require_memory(total_bytes_, budget_, "the arrays up to " + label);
    } catch (const std::runtime_error& error) {
      fail(array, error.what());
    }
  }

  /// The array's values, read as its format says (ascii, binary inline or
  /// appended), into `sink`; `bytes`: the decoded bytes it must hold (none
  /// for strings). Throws std::runtime_error.
  void read_values(const Element& array, const WordType& type, std::uint64_t values,
                   std::optional<std::uint64_t> bytes, ValueSink& sink) const {
    const std::string format = *array.attribute("format");
    if (format == "ascii") {
      read_ascii(array, type, values, sink);
    } else if (format == "binary") {
      std::size_t position = array.content_begin;
      while (position < array.content_end && is_space(bytes_[position]))
        ++position;
      ByteSource source(bytes_.substr(0, array.content_end), position, true);
      read_binary(source, type, bytes, sink);
    } else if (format == "appended") {
      if (!document_.appended) throw std::runtime_error("format appended, but the file has no <AppendedData>");
      const std::string* offset_text = array.attribute("offset");
      if (!offset_text) throw std::runtime_error("appended array without offset");
      const std::uint64_t offset = parse_count(*offset_text, "offset");
      if (offset >= bytes_.size() - document_.appended_begin)
        throw std::runtime_error("offset " + *offset_text + " lies beyond the end of the file");
      ByteSource source(bytes_, document_.appended_begin + offset, document_.appended_base64);
      read_binary(source, type, bytes, sink);
    } else {
      throw std::runtime_error("format '" + format + "' (expected ascii, binary or appended)");
    }
  }

  /// Whitespace-separated tokens that VTK's istream parsing reads in full:
  /// decimal numbers of the array's type, finite and in its range.
  void read_ascii(const Element& array, const WordType& type, std::uint64_t expected, ValueSink& sink) const {
    // VTK parses up to the first markup (writers put InformationKey elements after the values).
    std::string_view text = bytes_.substr(array.content_begin, array.content_end - array.content_begin);
    text = text.substr(0, text.find('<'));
    std::uint64_t index = 0;
    std::size_t p = 0;
    char token[80];
    while (p < text.size()) {
      if (is_space(text[p])) {
        ++p;
        continue;
      }
      std::size_t end = p;
      while (end < text.size() && !is_space(text[end])) ++end;
      const std::size_t length = end - p;
      const std::string shown(text.substr(p, std::min<std::size_t>(length, 40)));
      const std::string where = "value " + std::to_string(index) + " '" + shown + "'";
      if (index >= expected && type.kind != Kind::String)
        throw std::runtime_error("more than the " + std::to_string(expected) + " values expected");
      if (length >= sizeof token) throw std::runtime_error(where + " is not a number");
      std::memcpy(token, text.data() + p, length);
      token[length] = '\0';
      p = end;
      ++index;
      if (type.kind == Kind::Float)
        read_ascii_float(token, where, type, sink);
      else
        read_ascii_integer(token, where, type, sink);
    }
  }

  /// A finite decimal number within the range of Float32 or Float64.
  static void read_ascii_float(const char* token, const std::string& where, const WordType& type, ValueSink& sink) {
    if (!is_decimal_number(token)) throw std::runtime_error(where + " is not a finite decimal number");
    errno = 0;
    const double value = std::strtod(token, nullptr);
    const bool overflow = !std::isfinite(value) || (type.size == 4 && std::fabs(value) > FLT_MAX);
    if (overflow) throw std::runtime_error(where + " overflows " + std::string(type.name));
    sink.other_value();
  }

  /// A decimal integer within the range of the type (a String's characters:
  /// codes from -128 to 255, 0 ending a string).
  static void read_ascii_integer(const char* token, const std::string& where, const WordType& type,
                                 ValueSink& sink) {
    const bool digits = token[token[0] == '+' || token[0] == '-'] != '\0' &&
                        std::strspn(token + (token[0] == '+' || token[0] == '-'), "0123456789") ==
                            std::strlen(token + (token[0] == '+' || token[0] == '-'));
    if (!digits || (type.kind == Kind::Unsigned && token[0] == '-'))
      throw std::runtime_error(where + " is not an integer of type " + type.name);
    errno = 0;
    if (type.kind == Kind::Unsigned) {
      const unsigned long long value = std::strtoull(token, nullptr, 10);
      const unsigned long long limit = type.size == 8 ? UINT64_MAX : (1ULL << (8 * type.size)) - 1;
      if (errno == ERANGE || value > limit) throw std::runtime_error(where + " is out of the range of " + type.name);
      sink.integer(value > static_cast<unsigned long long>(INT64_MAX) ? INT64_MAX : static_cast<std::int64_t>(value),
                   value > static_cast<unsigned long long>(INT64_MAX));
      return;
    }
    const long long value = std::strtoll(token, nullptr, 10);
    // VTK reads 8-bit values (String's characters too) through a short.
    const long long limit = type.size == 8 ? INT64_MAX : (1LL << (8 * type.size - 1)) - 1;
    if (errno == ERANGE || value > limit || value < -limit - 1)
      throw std::runtime_error(where + " is out of the range of " + type.name);
    if (type.kind == Kind::String) {
      if (value < -128 || value > 255) throw std::runtime_error(where + " is not a character code");
      if (value == 0) sink.string_end();
    } else {
      sink.integer(value);
    }
  }

  /// "data end inside the WHAT", with the base64 decoder's reason if any.
  static std::runtime_error short_read(const ByteSource& source, const char* what) {
    return std::runtime_error(std::string("data end inside the ") + what +
                              (source.error().empty() ? "" : " (" + source.error() + ")"));
  }

  std::uint64_t header_word(ByteSource& source, const char* what) const {
    unsigned char word[8];
    if (!source.read(word, header_bytes_)) throw short_read(source, what);
    std::uint64_t value = 0;
    for (std::size_t b = 0; b < header_bytes_; ++b)
      value |= static_cast<std::uint64_t>(word[swap_ ? header_bytes_ - 1 - b : b]) << (8 * b);
    return value;
  }

  /// The decoded size a header declares: the bytes the piece needs
  /// (`expected`, none for strings), within the memory budget, whole values.
  void check_declared_size(std::uint64_t total, const WordType& type, std::optional<std::uint64_t> expected) const {
    if (expected && total != *expected)
      throw std::runtime_error("its header declares " + std::to_string(total) + " bytes, the piece needs " +
                               std::to_string(*expected));
    require_memory(total, budget_, "its data");
    if (total % type.size != 0) throw std::runtime_error("its size is not a multiple of the value size");
  }

  /// A binary array: [byte count][data], or with zlib [blocks, block size,
  /// last block size, compressed sizes...][compressed blocks]. `expected`:
  /// the decoded bytes the piece needs (none for strings).
  void read_binary(ByteSource& source, const WordType& type, std::optional<std::uint64_t> expected,
                   ValueSink& sink) const {
    if (compressed_)
      read_compressed(source, type, expected, sink);
    else
      read_uncompressed(source, type, expected, sink);
  }

  void read_uncompressed(ByteSource& source, const WordType& type, std::optional<std::uint64_t> expected,
                         ValueSink& sink) const {
    const std::uint64_t total = header_word(source, "size header");
    check_declared_size(total, type, expected);
    if (total > source.remaining()) throw std::runtime_error("declares " + std::to_string(total) + " bytes, the file holds fewer");
    std::vector<unsigned char> buffer(1 << 16);
    for (std::uint64_t left = total; left > 0;) {
      const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(left, buffer.size()));
      if (!source.read(buffer.data(), n)) throw short_read(source, "data");
      sink.bytes(buffer.data(), n);
      left -= n;
    }
  }

  /// The zlib header of a compressed array, checked against the piece and
  /// the file.
  struct CompressionHeader {
    std::uint64_t blocks = 0, block_size = 0, last_size = 0;
    std::vector<std::uint64_t> compressed_sizes;
  };

  CompressionHeader read_compression_header(ByteSource& source, const WordType& type,
                                            std::optional<std::uint64_t> expected) const {
    const std::uint64_t blocks = header_word(source, "compression header");
    const std::uint64_t block_size = header_word(source, "compression header");
    const std::uint64_t last_size = header_word(source, "compression header");
    if (blocks > source.remaining() / header_bytes_)
      throw std::runtime_error("compression header declares " + std::to_string(blocks) +
                               " blocks, more than the file could hold");
    if (blocks > 0 && (block_size == 0 || last_size > block_size))
      throw std::runtime_error("compression header: block size " + std::to_string(block_size) +
                               ", last block size " + std::to_string(last_size));
    std::uint64_t total = 0;
    if (blocks > 0 && (!multiply_checked(blocks - 1, block_size, total) ||
                       __builtin_add_overflow(total, last_size ? last_size : block_size, &total)))
      throw std::runtime_error("compression header declares more than 2^64 bytes");
    check_declared_size(total, type, expected);
    CompressionHeader header{blocks, block_size, last_size, std::vector<std::uint64_t>(static_cast<std::size_t>(blocks))};
    std::uint64_t compressed_total = 0;
    for (auto& size : header.compressed_sizes) {
      size = header_word(source, "compression header");
      if (__builtin_add_overflow(compressed_total, size, &compressed_total))
        throw std::runtime_error("compressed block sizes overflow");
    }
    source.end_stream();
    if (compressed_total > source.remaining())
      throw std::runtime_error("compressed blocks of " + std::to_string(compressed_total) +
                               " bytes, the file holds fewer");
    return header;
  }

  void read_compressed(ByteSource& source, const WordType& type, std::optional<std::uint64_t> expected,
                       ValueSink& sink) const {
    const CompressionHeader header = read_compression_header(source, type, expected);
    std::vector<unsigned char> buffer, block;
    for (std::uint64_t b = 0; b < header.blocks; ++b) {
      const std::uint64_t size = b + 1 == header.blocks && header.last_size ? header.last_size : header.block_size;
      // zlib expands at most 1032:1, so a larger declared size is a lie that
      // must not be allocated (string arrays have no size to compare with).
      if (size / 1032 > header.compressed_sizes[b] + 1)
        throw std::runtime_error("compressed block " + std::to_string(b) + " of " +
                                 std::to_string(header.compressed_sizes[b]) + " bytes cannot inflate to the " +
                                 std::to_string(size) + " bytes its header declares");
      buffer.resize(static_cast<std::size_t>(header.compressed_sizes[b]));
      if (!source.read(buffer.data(), buffer.size())) throw short_read(source, "compressed data");
      block.resize(static_cast<std::size_t>(size));
      uLongf produced = static_cast<uLongf>(size);
      uLong consumed = static_cast<uLong>(buffer.size());
      const int status = uncompress2(block.data(), &produced, buffer.data(), &consumed);
      if (status != Z_OK || produced != size)
        throw std::runtime_error("compressed block " + std::to_string(b) + " does not inflate to its " +
                                 std::to_string(size) + " bytes (zlib: " + zError(status) + ")");
      sink.bytes(block.data(), block.size());
    }
  }

  std::string_view bytes_;
  const std::string& name_;
  std::uint64_t budget_;
  Document document_;
  bool swap_ = false, compressed_ = false;
  std::size_t header_bytes_ = 4;
  std::uint64_t points_ = 0, total_bytes_ = 0;
  std::size_t piece_ = 0;
};

/// A read-only mapping of a whole file.
class MappedFile {
 public:
  explicit MappedFile(const std::filesystem::path& path) {
    const RegularFile file(path);
    size_ = static_cast<std::size_t>(file.size());
    if (size_ > 0) {
      void* data = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, file.descriptor(), 0);
      if (data == MAP_FAILED) throw std::runtime_error(path.string() + ": cannot map (" + std::strerror(errno) + ")");
      data_ = static_cast<const char*>(data);
    }
  }
  ~MappedFile() {
    if (data_) ::munmap(const_cast<char*>(data_), size_);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  std::string_view bytes() const { return {data_ ? data_ : "", size_}; }

 private:
  const char* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace

void check_vtk_xml(std::string_view bytes, const std::string& name, std::uint64_t memory_budget_bytes) {
  Checker(bytes, name, memory_budget_bytes).run();
}

void check_vtk_xml_file(const std::filesystem::path& path) {
  const MappedFile file(path);
  check_vtk_xml(file.bytes(), path.string(), available_memory_bytes());
}

}  // namespace geobem

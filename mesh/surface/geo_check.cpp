#include "mesh/surface/geo_check.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace geobem::surface {

namespace {

// Why a keyword or command is refused, in the message's words: "'NAME' ... it REASON".
constexpr const char* kRunsPrograms = "runs a program";
constexpr const char* kReadsFiles = "reads other files, file names or the environment";
constexpr const char* kWritesFiles = "writes files";
constexpr const char* kEndsGmsh = "ends Gmsh, and the stage with it";
constexpr const char* kOnelab = "reads or sets ONELAB parameters";
constexpr const char* kViews = "works on post-processing views, plugins or the graphical interface";
constexpr const char* kMeshes = "meshes or changes a mesh while the file is read (geobem-mesh meshes the geometry)";
constexpr const char* kMachine = "depends on the machine, the clock or chance (identical runs must give one mesh)";
constexpr const char* kModels = "creates or names whole models";
constexpr const char* kStructures = "defines structures or name spaces";

/// Gmsh 4.8's keywords (Parser/Gmsh.l; `[tT]` matches either letter) that a
/// geometry file may use.
constexpr const char* kAcceptedKeywords[] = {
    "Abs", "Acos", "Affine", "ArcCos", "ArcSin", "ArcTan", "ArcTan2", "Asin", "Atan", "Atan2", "BSpline", "Bezier",
    "Box", "Block", "BooleanCoherence", "BooleanCommon", "BooleanCut", "BooleanDifference", "BooleanFragments",
    "BooleanFuse", "BooleanIntersection", "BooleanSection", "BooleanUnion", "BoundingBox", "Call", "CatmullRom",
    "Ceil", "CenterOfMass", "Chamfer", "Characteristic", "Circle", "Coherence", "Compound", "Cone", "Coordinates",
    "Cos", "Cosh", "Curve", "Cylinder", "Degenerated", "Delete", "Dilate", "Disk", "Ellipse", "Ellipsis",
    "Ellipsoid", "Elliptic", "Else", "ElseIf", "EndFor", "EndIf", "Error", "Euclidian", "Exists", "Exp", "Extrude",
    "Fabs", "Field", "Fillet", "Find", "Floor", "Fmod", "For", "Function", "GMSH_MAJOR_VERSION",
    "GMSH_MINOR_VERSION", "GMSH_PATCH_VERSION", "GeoEntity", "Hide", "Hole", "Hypot", "If", "In", "Intersect",
    "Knots", "Layers", "Length", "LinSpace", "Line", "List", "Log", "Log10", "LogSpace", "LowerCase", "LowerCaseIn",
    "MPI_Rank", "MPI_Size", "Macro", "Mass", "MatrixOfInertia", "Max", "MeshAlgorithm", "MeshSize",
    "MeshSizeFromBoundary", "Min", "Modulo", "N2S", "NameToString", "Nurbs", "Order", "Parametric", "Parent",
    "Periodic", "Physical", "Pi", "Plane", "Point", "PolarSphere", "Printf", "Quadric", "Quad[tT]ri[aA]dd[vV]erts",
    "Quad[tT]ri[nN]o[nN]ew[vV]erts", "Recomb[lL]aterals", "Recombine", "Rectangle", "Recursive", "Return",
    "ReverseMesh", "Reverse", "Rotate", "Round", "Ruled", "S2N", "ScaleLastLayer", "SetFactory", "SetTag",
    "SetMaxTag", "Sewing", "Show", "Sin", "Sinh", "Smoother", "Sphere", "Spline", "Split", "Sprintf", "Sqrt", "Str",
    "StrCat", "StrChoice", "StrCmp", "StrFind", "StrLen", "StrPrefix", "StrReplace", "StrSub", "StringToName",
    "Surface", "Symmetry", "SyncModel", "Tan", "Tanh", "TestLevel", "ThickSolid", "ThruSections", "Torus",
    "Transf[qQ]uad[tT]ri", "Transfinite", "Translate", "Unique", "UpperCase", "Using", "Volume", "Warning", "Wedge",
    "Wire",
    // The "new" tags (numbers to the grammar).
    "newreg", "newp", "newl", "newc", "newll", "news", "newsl", "newv", "newf",
};

/// Gmsh 4.8's other keywords, refused, by why.
struct RefusedKeywords {
  const char* refusal;
  std::initializer_list<const char*> patterns;
};
const RefusedKeywords kRefusedKeywords[] = {
    {kRunsPrograms, {"OnelabRun"}},
    {kReadsFiles, {"AbsolutePath", "CurrentDir", "CurrentDirectory", "CurrentFileName", "DirName", "FileExists",
                   "FixRelativePath", "GetEnv", "GmshExecutableName", "ListFromFile", "ShapeFromFile", "StrRelative"}},
    {kEndsGmsh, {"Abort", "Exit"}},
    {kOnelab, {"CodeName", "DefineConstant", "DefineNumber", "DefineString", "GetForced", "GetForcedStr", "GetNumber",
               "GetString", "GetStringValue", "GetValue", "OnelabAction", "SetNumber", "SetString",
               "UndefineConstant"}},
    {kViews, {"Alias", "AliasWithOptions", "Catenary", "Color", "ColorTable", "Combine", "CopyOptions", "Draw",
              "INTERPOLATION_SCHEME", "Levelset", "Plugin", "SetChanged", "Slide", "T2", "T3", "TIME",
              "TextAttributes", "UnsplitWindow"}},
    {kMeshes, {"AdaptMesh", "Betti", "ClassifySurfaces", "Cohomology", "CreateGeometry", "CreateTopology", "Homology",
               "RecombineMesh", "RefineMesh", "RelocateMesh", "ReorientMesh", "RenumberMeshNodes",
               "RenumberMeshElements", "SetPartition"}},
    {kMachine, {"Cpu", "Memory", "Rand", "Today", "TotalMemory"}},
    {kModels, {"NewModel"}},
    {kStructures, {"Append", "DimNameSpace", "NameStruct", "Struct"}},
};

/// Names Gmsh's grammar compares as commands ("NAME ARGUMENT;"): refused
/// wherever they stand, with a reason; any other command is refused as one.
struct Command {
  const char* name;
  const char* refusal;
};
constexpr Command kCommands[] = {
    {"Include", kReadsFiles}, {"Merge", kReadsFiles}, {"MergeWithBoundingBox", kReadsFiles},
    {"Print", kWritesFiles}, {"Save", kWritesFiles}, {"CreateDir", kWritesFiles},
    {"System", kRunsPrograms}, {"SystemCall", kRunsPrograms}, {"NonBlockingSystemCall", kRunsPrograms},
    {"SendToServer", kOnelab}, {"SetName", kModels}, {"Sleep", kMachine},
    {"OptimizeMesh", kMeshes}, {"Remesh", kMeshes}, {"SetOrder", kMeshes}, {"PartitionMesh", kMeshes},
    {"SplitMesh", kMeshes}, {"SetCurrentWindow", kViews}, {"SplitCurrentWindowHorizontal", kViews},
    {"SplitCurrentWindowVertical", kViews}, {"View", kViews}, {"Mesh", kMeshes},
};

/// Words the accepted commands take that the lexer leaves as names.
constexpr const char* kWords[] = {"Loop",        "Duplicata", "Boundary", "CombinedBoundary", "PointsOf",
                                  "Progression", "Bump",      "Beta",     "Power",            "Index",
                                  "Left",        "Right",     "Alternate", "AlternateLeft",   "AlternateRight"};

/// Option categories whose options a file may set (Mesh.MeshSizeMax = 1;).
constexpr const char* kOptionCategories[] = {"Mesh", "Geometry"};

/// Mesh size fields a file may make (Field[1] = Distance;): none of them
/// reads a file, runs a program or needs a post-processing view.
constexpr const char* kFieldTypes[] = {
    "Attractor", "AttractorAnisoCurve", "AutomaticMeshSizeField", "Ball", "BoundaryLayer", "Box", "Constant",
    "Curvature", "Cylinder", "Distance", "Frustum", "Gradient", "IntersectAniso", "Laplacian", "LonLat", "MathEval",
    "MathEvalAniso", "Max", "MaxEigenHessian", "Mean", "Min", "MinAniso", "Octree", "Param", "Restrict", "Threshold"};

template <class Table>
bool listed(const Table& table, std::string_view name) {
  for (const char* entry : table)
    if (name == entry) return true;
  return false;
}

/// Does `name` match a keyword pattern ("Quad[tT]ri": a class in brackets)?
bool matches(const char* pattern, std::string_view name) {
  std::size_t at = 0;
  for (const char* p = pattern; *p; ++p, ++at) {
    if (at >= name.size()) return false;
    if (*p == '[') {
      bool found = false;
      for (++p; *p != ']'; ++p) found = found || *p == name[at];
      if (!found) return false;
    } else if (*p != name[at]) {
      return false;
    }
  }
  return at == name.size();
}

/// Why Gmsh's keyword `name` is refused; nullptr when it is accepted or no keyword.
const char* keyword_refusal(std::string_view name) {
  for (const auto& group : kRefusedKeywords)
    for (const char* pattern : group.patterns)
      if (matches(pattern, name)) return group.refusal;
  return nullptr;
}

bool is_keyword(std::string_view name) {
  if (keyword_refusal(name)) return true;
  for (const char* pattern : kAcceptedKeywords)
    if (matches(pattern, name)) return true;
  return false;
}

enum class Kind { Name, Keyword, Number, String, Punct };

struct Token {
  Kind kind;
  std::string text;
  int line;
};

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

class GeoChecker {
 public:
  GeoChecker(const std::string& text, const std::string& name) : text_(text), name_(name) {}

  void check() {
    if (text_.size() > kMaxGeoFileBytes)
      throw std::runtime_error(name_ + ": " + std::to_string(text_.size()) + " bytes, more than the " +
                               std::to_string(kMaxGeoFileBytes >> 20) + " MiB a .geo geometry file may have");
    tokenize();
    match_brackets();
    find_statements_and_variables();
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      if (tokens_[i].kind == Kind::Keyword) check_keyword(i);
      if (tokens_[i].kind == Kind::Name) check_name(i);
    }
  }

 private:
  [[noreturn]] void fail(int line, const std::string& message) const {
    throw std::runtime_error(name_ + ":" + std::to_string(line) + ": " + message);
  }
  [[noreturn]] void refuse(const Token& token, const char* reason) const {
    fail(token.line, "'" + token.text + "' is not accepted: it " + reason +
                         "; geobem reads a .geo file as geometry only (docs/readers.md)");
  }

  // Gmsh.l: blanks, /* */ and // comments, "..." and '...' strings (no
  // escapes, at most 1023 characters), numbers, names, operators.
  void tokenize() {
    int line = 1;
    std::size_t at = 0;
    const std::size_t size = text_.size();
    while (at < size) {
      const char c = text_[at];
      if (c == '\n') {
        ++line, ++at;
      } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f') {
        ++at;
      } else if (c == '/' && at + 1 < size && text_[at + 1] == '*') {
        at = skip_block_comment(at, line);
      } else if (c == '/' && at + 1 < size && text_[at + 1] == '/') {
        at = std::min(text_.find('\n', at), size);
      } else if (c == '"' || c == '\'') {
        at = lex_string(at, line);
      } else if (is_digit(c) || (c == '.' && at + 1 < size && is_digit(text_[at + 1]))) {
        at = lex_number(at, line);
      } else if (is_alpha(c)) {
        at = lex_word(at, line);
      } else {
        at = lex_operator(at, line);
      }
    }
  }

  [[noreturn]] void byte_error(int line, unsigned char c) const {
    char hex[8];
    std::snprintf(hex, sizeof hex, "0x%02X", c);
    fail(line, std::string("byte ") + hex + " outside a string or comment: not a Gmsh .geo text");
  }

  /// The /* comment at `at`: its lines are added to `line`; returns the index after it.
  std::size_t skip_block_comment(std::size_t at, int& line) const {
    const std::size_t end = text_.find("*/", at + 2);
    if (end == std::string::npos) fail(line, "a /* comment that does not end");
    line += count_lines(at, end);
    return end + 2;
  }

  /// The "..." or '...' string at `at`: its lines are added to `line`;
  /// returns the index after it.
  std::size_t lex_string(std::size_t at, int& line) {
    const std::size_t end = text_.find(text_[at], at + 1);
    if (end == std::string::npos) fail(line, "a string that does not end");
    if (end - at - 1 > 1023) fail(line, "a string longer than Gmsh's 1023 characters");
    if (text_.find('\0', at) < end) byte_error(line, 0);
    tokens_.push_back({Kind::String, text_.substr(at, end + 1 - at), line});
    line += count_lines(at, end);
    return end + 1;
  }

  std::size_t skip_digits(std::size_t at) const {
    while (at < text_.size() && is_digit(text_[at])) ++at;
    return at;
  }

  /// The number at `at`: digits, an optional fraction and an optional
  /// exponent (an 'e' without digits after it is left to the next token).
  std::size_t lex_number(std::size_t at, int line) {
    const std::size_t start = at, size = text_.size();
    at = skip_digits(at);
    if (at < size && text_[at] == '.') at = skip_digits(at + 1);
    if (at < size && (text_[at] == 'e' || text_[at] == 'E')) {
      std::size_t exponent = at + 1;
      if (exponent < size && (text_[exponent] == '+' || text_[exponent] == '-')) ++exponent;
      if (exponent < size && is_digit(text_[exponent])) at = skip_digits(exponent);
    }
    tokens_.push_back({Kind::Number, text_.substr(start, at - start), line});
    return at;
  }

  /// The name or keyword at `at`.
  std::size_t lex_word(std::size_t at, int line) {
    const std::size_t start = at;
    while (at < text_.size() && (is_alpha(text_[at]) || is_digit(text_[at]))) ++at;
    std::string word = text_.substr(start, at - start);
    const Kind kind = is_keyword(word) ? Kind::Keyword : Kind::Name;
    tokens_.push_back({kind, std::move(word), line});
    return at;
  }

  /// The operator or punctuation at `at` (the longest of Gmsh's); a control
  /// or non-ASCII byte, or a character the language has no use for, fails.
  std::size_t lex_operator(std::size_t at, int line) {
    const char c = text_[at];
    if (static_cast<unsigned char>(c) >= 127 || (static_cast<unsigned char>(c) < 32))
      byte_error(line, static_cast<unsigned char>(c));
    static const char* const operators[] = {"...", "+=", "-=", "*=", "/=", "::", "||", "&&", "++",
                                            "--",  "==", "!=", "<=", ">=", ">>", "<<"};
    std::string op(1, c);
    for (const char* candidate : operators)
      if (text_.compare(at, std::strlen(candidate), candidate) == 0) {
        op = candidate;
        break;
      }
    if (op.size() == 1 && std::strchr("{}()[],;.:=+-*/%^#~<>!?&|", c) == nullptr)
      fail(line, std::string("character '") + c + "' is not part of Gmsh's .geo language");
    tokens_.push_back({Kind::Punct, op, line});
    return at + op.size();
  }

  int count_lines(std::size_t from, std::size_t to) const {
    int lines = 0;
    for (std::size_t k = from; k < to; ++k) lines += text_[k] == '\n';
    return lines;
  }

  bool is(std::size_t i, Kind kind, std::string_view text = {}) const {
    return i < tokens_.size() && tokens_[i].kind == kind && (text.empty() || tokens_[i].text == text);
  }
  bool punct(std::size_t i, std::string_view text) const { return is(i, Kind::Punct, text); }

  /// match_[i]: the index of the bracket closing (or opening) the one at i;
  /// tokens_.size() when there is none.
  void match_brackets() {
    match_.assign(tokens_.size(), tokens_.size());
    std::vector<std::size_t> open;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      if (tokens_[i].kind != Kind::Punct || tokens_[i].text.size() != 1) continue;
      const char c = tokens_[i].text[0];
      if (c == '(' || c == '[' || c == '{') open.push_back(i);
      if ((c == ')' || c == ']' || c == '}') && !open.empty()) {
        const char opener = tokens_[open.back()].text[0];
        if ((c == ')') != (opener == '(') || (c == ']') != (opener == '[')) continue;  // Gmsh reports it
        match_[i] = open.back();
        match_[open.back()] = i;
        open.pop_back();
      }
    }
  }

  /// Is the name at i followed by an assignment: [~{..}]* [ [..] | (..) ] then = += -= *= /= ++ --?
  bool assignment_follows(std::size_t i) const {
    std::size_t j = i + 1;
    while (punct(j, "~") && punct(j + 1, "{") && match_[j + 1] < tokens_.size()) j = match_[j + 1] + 1;
    if ((punct(j, "[") || punct(j, "(")) && match_[j] < tokens_.size()) j = match_[j] + 1;
    for (const char* op : {"=", "+=", "-=", "*=", "/=", "++", "--"})
      if (punct(j, op)) return true;
    return false;
  }

  /// Statement starts (after ';', ')', '}', EndFor, EndIf, Else, Return, a
  /// macro's name, and the file's start: every place a Gmsh statement can
  /// begin), and the variables: names assigned at a statement start, loop
  /// variables and macro names.
  void find_statements_and_variables() {
    starts_.assign(tokens_.size(), false);
    bool start = true;
    for (std::size_t i = 0; i < tokens_.size(); ++i) {
      const Token& t = tokens_[i];
      starts_[i] = start;
      const bool after_macro = i > 0 && (is(i - 1, Kind::Keyword, "Macro") || is(i - 1, Kind::Keyword, "Function"));
      if (t.kind == Kind::Name && ((start && assignment_follows(i)) || is(i - 1, Kind::Keyword, "For") || after_macro))
        variables_.insert(t.text);
      start = punct(i, ";") || punct(i, ")") || punct(i, "}") ||
              (t.kind == Kind::Keyword &&
               (t.text == "EndFor" || t.text == "EndIf" || t.text == "Else" || t.text == "Return")) ||
              (after_macro && (t.kind == Kind::Name || t.kind == Kind::String));
    }
  }

  /// Is the '[' closed at index i (a ']') the bracket of Field[...]?
  bool closes_field_index(std::size_t i) const {
    return punct(i, "]") && match_[i] < tokens_.size() && match_[i] > 0 && is(match_[i] - 1, Kind::Keyword, "Field");
  }

  void check_keyword(std::size_t i) const {
    const Token& t = tokens_[i];
    if (const char* refusal = keyword_refusal(t.text)) refuse(t, refusal);
    if (t.text == "Delete" && !(punct(i + 1, "{") || punct(i + 1, ";") || is(i + 1, Kind::Keyword, "Field")))
      fail(t.line, "'Delete " + (i + 1 < tokens_.size() ? tokens_[i + 1].text : std::string()) +
                       "' is not accepted: only Delete { entities }, Delete; in a boolean operation and Delete Field[N] "
                       "are (others delete models, meshes, variables, options or files)");
    if ((t.text == "Printf" || t.text == "Error" || t.text == "Warning") && punct(i + 1, "(") &&
        match_[i + 1] < tokens_.size() && (punct(match_[i + 1] + 1, ">") || punct(match_[i + 1] + 1, ">>")))
      refuse({Kind::Keyword, t.text + "(...) >", t.line}, kWritesFiles);
  }

  /// A name next to a '.': an option or a field's attribute after it (Mesh.X,
  /// Field[1].X) or an option category before it (Mesh.). True when the name
  /// is one of those and accepted; fails when it is one and refused; false
  /// when no '.' touches it.
  bool check_dotted_name(std::size_t i) const {
    const Token& t = tokens_[i];
    if (i > 0 && punct(i - 1, ".")) {  // an option's or a field's attribute: Mesh.X, Field[1].X
      if (i > 1 && (closes_field_index(i - 2) ||
                    (tokens_[i - 2].kind == Kind::Name && listed(kOptionCategories, tokens_[i - 2].text))))
        return true;
      fail(t.line, "'." + t.text + "': only options of the Mesh and Geometry categories and of mesh size fields "
                   "(Field[N]." + t.text + ") may be set; structures are not accepted");
    }
    if (punct(i + 1, ".")) {
      if (listed(kOptionCategories, t.text)) return true;
      fail(t.line, "'" + t.text + ".': options of the " + t.text +
                       " category are not accepted (only Mesh. and Geometry. options)");
    }
    return false;
  }

  void check_name(std::size_t i) const {
    const Token& t = tokens_[i];
    if (check_dotted_name(i)) return;
    if (t.text == "Background" || t.text == "BoundaryLayer") {
      if (is(i + 1, Kind::Keyword, "Field")) return;
      fail(t.line, "'" + t.text + "' is accepted only as " + t.text + " Field = N (a background mesh reads a view)");
    }
    if (listed(kWords, t.text)) return;
    if (is(i - 1, Kind::Keyword, "Macro") || is(i - 1, Kind::Keyword, "Function")) return;  // a macro's name
    if (i > 1 && punct(i - 1, "=") && closes_field_index(i - 2)) {
      if (listed(kFieldTypes, t.text)) return;
      fail(t.line, "mesh size field type '" + t.text + "' is not accepted (it may read files, run programs or use "
                   "views); accepted: Distance, Threshold, MathEval, Box, Ball, Cylinder, Frustum, Min, Max, Restrict "
                   "and the other fields of docs/readers.md");
    }
    for (const auto& command : kCommands)
      if (t.text == command.name) refuse(t, command.refusal);
    const bool argument_follows = is(i + 1, Kind::String) || is(i + 1, Kind::Number) || is(i + 1, Kind::Name);
    if ((starts_[i] && !assignment_follows(i)) || argument_follows)
      fail(t.line, "'" + t.text + "' starts a command, not an assignment: geobem accepts geometry, mesh size, "
                   "loop and assignment statements only (docs/readers.md)");
    if (!variables_.count(t.text))
      fail(t.line, "unknown name '" + t.text + "': not a variable this file assigns, nor a geometry command geobem "
                   "accepts");
  }

  const std::string& text_;
  const std::string& name_;
  std::vector<Token> tokens_;
  std::vector<std::size_t> match_;
  std::vector<bool> starts_;
  std::set<std::string> variables_;
};

}  // namespace

void check_geo_text(const std::string& text, const std::string& name) { GeoChecker(text, name).check(); }

}  // namespace geobem::surface

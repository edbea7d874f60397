#pragma once
// A Gmsh .geo file is a program: Gmsh's parser (4.8, Debian 12's libgmsh)
// runs shell commands (SystemCall), writes files (Printf > FILE, Save,
// Print, CreateDir, Delete File), reads others (Include, Merge,
// ShapeFromFile, ListFromFile, GetEnv) and exits the process (Exit, Abort)
// as it reads. geobem reads a .geo file as geometry only: check_geo_text()
// tokenizes the text as Gmsh's lexer does (Parser/Gmsh.l) and accepts it
// only when every keyword is one of an allow-list of the geometry,
// expression, loop and mesh-size commands a geometry needs, and every other
// name is a variable the file assigns, an option of the Mesh or Geometry
// categories, a mesh size field of an allowed type, or one of the words
// those commands take (Loop, Duplicata, Progression, ...). A statement that
// starts with a name and is not an assignment is a command and refused,
// whatever its name (so a command a later Gmsh adds is refused too). What
// the check cannot bound (a loop's length, a mesh's size) is bounded where
// Gmsh runs: in a child process with CPU-time and memory limits
// (gmsh_geometry.hpp). docs/readers.md lists what is accepted.
#include <cstddef>
#include <string>

namespace geobem::surface {

/// The largest .geo file read (bytes): a geometry script, not data.
constexpr std::size_t kMaxGeoFileBytes = 16u << 20;

/// Checks the .geo text `text` (`name` in messages). Throws
/// std::runtime_error "NAME:LINE: ..." naming the first command, keyword or
/// name it refuses and why, or a lexical error (a NUL or non-ASCII byte
/// outside strings and comments, an unterminated string or comment, a string
/// longer than Gmsh's 1023 characters, a text over kMaxGeoFileBytes).
void check_geo_text(const std::string& text, const std::string& name);

}  // namespace geobem::surface

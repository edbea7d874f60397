// Gmsh files that crashed libgmsh 4.8 or were misread by it (an element node
// tag of -1 or 2^31, a $PhysicalNames line replaced by a number, a 22-digit
// node tag, tag 2^32 + 1 read as 1): each must end in an error naming the
// file and line. A byte-order mark and CRLF line ends are accepted; binary
// files are refused with the way out.
#include <gtest/gtest.h>

#include <string>

#include "mesh/surface/read_surface_mesh.hpp"
#include "tests/support/test_files.hpp"
#include "tests/surface/mesh_texts.hpp"

using geobem::surface::read_surface_mesh;
using namespace geobem::test;

namespace {

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

std::string msh_error(const std::string& name, const std::string& text) {
  const auto path = write_text(name, text);
  return error_of([&] { read_surface_mesh(path); });
}

/// The 4.1 cube with the last node tag of its first element replaced by `tag`.
std::string with_element_node_tag(const std::string& text, const std::string& tag) {
  const auto block = text.find('\n', text.find("$Elements\n") + 10);  // end of the counts line
  const auto first = text.find('\n', block + 1) + 1;                    // after the block header
  const auto end = text.find('\n', first);
  const auto last_space = text.rfind(' ', end);
  return text.substr(0, last_space + 1) + tag + text.substr(end);
}

}  // namespace

TEST(HostileMsh, ElementNodeTagsOutOfRange) {
  const std::string text = msh41(cube());
  for (const std::string tag : {"-1", "2147483648", "4294967297", "1234567890123456789012"}) {
    const std::string error = msh_error("tag.msh", with_element_node_tag(text, tag));
    EXPECT_NE(error.find("tag.msh:"), std::string::npos) << tag << ": " << error;
    if (tag == "2147483648" || tag == "4294967297")
      EXPECT_NE(error.find("refers to node " + tag + ", which $Nodes does not define"), std::string::npos) << error;
    else
      EXPECT_NE(error.find("node tag of element 1 '" + tag + "' is not an integer from 1 to"), std::string::npos)
          << error;
  }
}

TEST(HostileMsh, NodeTagsAreNeverWrapped) {
  // Node 1 redefined as 2^32 + 1: the triangles naming node 1 must not find it.
  const std::string text = msh41(cube());
  const std::string edited = replaced(text, "\n1\n2\n", "\n4294967297\n2\n");
  const std::string error = msh_error("wrap.msh", edited);
  EXPECT_NE(error.find("refers to node 1, which $Nodes does not define"), std::string::npos) << error;
  const std::string twice = msh_error("twice.msh", replaced(text, "\n1\n2\n", "\n2\n2\n"));
  EXPECT_NE(twice.find("node 2 is defined twice"), std::string::npos) << twice;
}

TEST(HostileMsh, PhysicalNameReplacedByANumber) {
  const std::string text = msh41(cube());
  const std::string error = msh_error("names.msh", replaced(text, "2 1 \"x_min\"", "12"));
  EXPECT_NE(error.find("names.msh:6: a physical name line reads 'dimension tag \"name\"'"), std::string::npos)
      << error;
}

TEST(HostileMsh, CountsThatDisagreeWithTheLines) {
  const std::string text = msh22(cube());
  const std::string error = msh_error("count.msh", replaced(text, "$Nodes\n8\n", "$Nodes\n9\n"));
  EXPECT_NE(error.find("count.msh:"), std::string::npos) << error;
  const std::string huge = msh_error("huge.msh", replaced(text, "$Nodes\n8\n", "$Nodes\n99999999999\n"));
  EXPECT_NE(huge.find("number of nodes '99999999999' is not an integer from 0 to"), std::string::npos) << huge;
  const std::string nan = msh_error("nan.msh", replaced(text, "\n1 0 0 0\n", "\n1 nan 0 0\n"));
  EXPECT_NE(nan.find("x 'nan' is not a finite number"), std::string::npos) << nan;
}

TEST(HostileMsh, BomAndCrlfAcceptedBinaryAndOtherVersionsRefused) {
  std::string crlf;
  for (char c : msh41(cube())) {
    if (c == '\n') crlf += '\r';
    crlf += c;
  }
  const auto mesh = read_surface_mesh(write_text("bom.msh", "\xEF\xBB\xBF" + crlf));
  EXPECT_EQ(mesh.triangles.size(), 12u);
  EXPECT_EQ(mesh.group_names, cube().group_names);
  const std::string binary = msh_error("binary.msh", replaced(msh41(cube()), "4.1 0 8", "4.1 1 8"));
  EXPECT_NE(binary.find("binary MSH files are not supported: save the mesh as ASCII"), std::string::npos) << binary;
  const std::string version = msh_error("v40.msh", replaced(msh41(cube()), "4.1 0 8", "4 0 8"));
  EXPECT_NE(version.find("MSH version 4 is not supported"), std::string::npos) << version;
}

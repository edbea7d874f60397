// The .geo check in front of Gmsh's parser: geometry files of both kernels
// with loops, macros, lists, mesh size fields and options pass; every command
// that runs a program, writes or reads another file, ends Gmsh, meshes while
// reading or talks to ONELAB or views is refused at its line with the reason,
// and so is any other statement that is not an assignment (a command a later
// Gmsh might add), an unknown name, a field type that reads files, options
// outside Mesh and Geometry, and text that is not a .geo script.
#include <gtest/gtest.h>

#include <string>

#include "mesh/surface/geo_check.hpp"
#include "tests/support/test_files.hpp"

using geobem::surface::check_geo_text;
using geobem::test::error_of;

namespace {

std::string refusal(const std::string& text) {
  return error_of([&] { check_geo_text(text, "model.geo"); });
}

}  // namespace

TEST(GeoCheck, GeometryFilesPass) {
  const char* const accepted[] = {
      // OpenCASCADE: a block with a cavity, booleans, boundaries, physical groups, options.
      "SetFactory(\"OpenCASCADE\");\na = 1.0;\nBox(1) = {-4*a, -4*a, -4*a, 8*a, 8*a, 8*a};\nSphere(2) = {0, 0, 0, a};\n"
      "BooleanDifference(3) = { Volume{1}; Delete; }{ Volume{2}; Delete; };\ns() = Boundary{ Volume{3}; };\n"
      "Physical Surface(\"outer\") = {s(0):s(5)};\nPhysical Surface(\"cavity\", 7) = {s(6)};\n"
      "Mesh.MeshSizeMax = a / 2;\nGeometry.Tolerance = 1e-9;\nMeshSize{ PointsOf{ Volume{3}; } } = a / 4;\n",
      // Built-in kernel: a macro, loops, lists, conditions, extrusion, transfinite curves, comments.
      "/* corners */\nlc = 0.25;\nMacro Corner\n  p = newp;\n  Point(p) = {x, y, 0, lc};\n  corners[k] = p;\nReturn\n"
      "k = 0;\nFor i In {0:3}\n  x = (i == 1 || i == 2) ? 1 : 0; y = (i >= 2) ? 1 : 0;\n  Call Corner;\n  k += 1;\n"
      "EndFor\nFor (0:3)\nEndFor\nFor i In {0:3}\n  Line(i + 1) = {corners[i], corners[(i + 1) % 4]};\nEndFor\n"
      "Curve Loop(1) = {1, 2, 3, 4};\nPlane Surface(1) = {1};\nout[] = Extrude {0, 0, 1} { Surface{1}; Layers{4}; };\n"
      "If (#out[] > 2)\n  Physical Surface(\"top\") = {out[0]};\nElseIf (#out[] == 0)\n  Printf(\"none\");\nElse\n"
      "  Printf(\"%g entities\", #out[]);\nEndIf\nTransfinite Curve {1, 2} = 5 Using Progression 1.1;\n"
      "Rotate {{0, 0, 1}, {0, 0, 0}, Pi/4} { Duplicata { Point{1}; } }\nname = StrCat(\"a\", Sprintf(\"%g\", 2));\n"
      "v~{2} = 3; // a numbered variable\nw[] = {};\nw[] += {1};\n",
      // Mesh size fields of the accepted types, a background field.
      "Point(1) = {0, 0, 0};\nField[1] = Distance;\nField[1].PointsList = {1};\nField[2] = Threshold;\n"
      "Field[2].InField = 1;\nField[2].SizeMin = 0.1;\nField[3] = MathEval;\nField[3].F = \"1 + x\";\n"
      "Field[4] = Min;\nField[4].FieldsList = {2, 3};\nBackground Field = 4;\nDelete Field[3];\n",
  };
  for (const char* text : accepted) EXPECT_EQ(refusal(text), "") << text;
}

TEST(GeoCheck, CommandsThatReachOutsideAreRefusedWithTheirReason) {
  struct Case {
    std::string text;
    std::string message;
  };
  const Case cases[] = {
      {"SystemCall \"touch /tmp/x\";", "model.geo:1: 'SystemCall' is not accepted: it runs a program"},
      {"x = 1;\nSystem \"ls\";", "model.geo:2: 'System' is not accepted: it runs a program"},
      {"NonBlockingSystemCall \"ls\";", "'NonBlockingSystemCall' is not accepted: it runs a program"},
      {"OnelabRun(\"solver\");", "'OnelabRun' is not accepted: it runs a program"},
      {"Printf(\"%g\", 1) > \"/tmp/x\";", "'Printf(...) >' is not accepted: it writes files"},
      {"Printf(\"a\") >> \"log\";", "'Printf(...) >' is not accepted: it writes files"},
      {"Save \"/tmp/x.msh\";", "'Save' is not accepted: it writes files"},
      {"Print \"x.png\";", "'Print' is not accepted: it writes files"},
      {"CreateDir \"d\";", "'CreateDir' is not accepted: it writes files"},
      {"Merge \"x.msh\";", "'Merge' is not accepted: it reads other files"},
      {"Include \"x.geo\";", "'Include' is not accepted: it reads other files"},
      {"MergeWithBoundingBox \"x\";", "'MergeWithBoundingBox' is not accepted: it reads other files"},
      {"SetFactory(\"OpenCASCADE\");\nv() = ShapeFromFile(\"x.step\");", "model.geo:2: 'ShapeFromFile' is not accepted"},
      {"l() = ListFromFile(\"x.txt\");", "'ListFromFile' is not accepted: it reads other files"},
      {"h = GetEnv(\"HOME\");", "'GetEnv' is not accepted: it reads other files, file names or the environment"},
      {"d = DirName(\"x\");", "'DirName' is not accepted"},
      {"Exit;", "'Exit' is not accepted: it ends Gmsh, and the stage with it"},
      {"Abort;", "'Abort' is not accepted: it ends Gmsh"},
      {"Delete Model;", "'Delete Model' is not accepted: only Delete { entities }"},
      {"Delete File \"x\";", "'Delete File' is not accepted"},
      {"Plugin(Smooth).Run;", "'Plugin' is not accepted: it works on post-processing views, plugins"},
      {"DefineConstant[ a = 1 ];", "'DefineConstant' is not accepted: it reads or sets ONELAB parameters"},
      {"Mesh 2;", "'Mesh' is not accepted: it meshes or changes a mesh while the file is read"},
      {"RefineMesh;", "'RefineMesh' is not accepted: it meshes"},
      {"Sleep 100;", "'Sleep' is not accepted: it depends on the machine, the clock or chance"},
      {"r = Rand(1);", "'Rand' is not accepted: it depends on the machine"},
      {"View \"v\" { ST(0,0,0,1,0,0,0,1,0){1,2,3}; };", "'View' is not accepted: it works on post-processing views"},
      {"Save = 1;", "'Save' is not accepted: it writes files"},
      {"If (1)\n  Save \"x\";\nEndIf", "model.geo:2: 'Save' is not accepted"},
      // A command Gmsh 4.8 does not have, or a later one: any statement that is not an assignment.
      {"Frobnicate \"x\";", "model.geo:1: 'Frobnicate' starts a command, not an assignment"},
      {"x = 1;\nx \"file\";", "model.geo:2: 'x' starts a command, not an assignment"},
      {"Frobnicate(3);", "'Frobnicate' starts a command, not an assignment"},
      {"Field[1] = Structured;", "mesh size field type 'Structured' is not accepted"},
      {"Field[1] = ExternalProcess;", "mesh size field type 'ExternalProcess' is not accepted"},
      {"Background Mesh View[0];", "'Background' is accepted only as Background Field = N"},
      {"General.Terminal = 1;", "'General.': options of the General category are not accepted"},
      {"Solver.Executable0 = \"sh\";", "'Solver.': options of the Solver category are not accepted"},
      {"Geometry.Color.Points = {1, 2, 3};", "'Color' is not accepted"},
      {"x = 1;\ny = x.z;", "model.geo:2: 'x.': options of the x category are not accepted"},
      {"p[0] = 1;\ny = p[0].x;", "model.geo:2: '.x': only options of the Mesh and Geometry categories"},
      {"y = z + 1;", "unknown name 'z': not a variable this file assigns"},
  };
  for (const auto& c : cases) {
    const std::string message = refusal(c.text);
    EXPECT_NE(message.find(c.message), std::string::npos) << c.text << "\n -> " << message;
    EXPECT_EQ(message.rfind("model.geo:", 0), 0u) << message;
  }
}

TEST(GeoCheck, TextThatIsNoGeoScriptIsRefusedAtItsLine) {
  struct Case {
    std::string text;
    std::string message;
  };
  const Case cases[] = {
      {"$MeshFormat\n2.2 0 8\n$EndMeshFormat\n", "model.geo:1: character '$' is not part of Gmsh's .geo language"},
      {"x = 1;\n/* open\n\n", "model.geo:2: a /* comment that does not end"},
      {"/* a\n b */ s = \"open;\n", "model.geo:2: a string that does not end"},
      {"s = \"" + std::string(1024, 'a') + "\";", "a string longer than Gmsh's 1023 characters"},
      {std::string("x = 1;\ny = \0;", 13), "model.geo:2: byte 0x00 outside a string or comment"},
      {"x = 1; // caf\xC3\xA9\ny = \xC3\xA9;", "model.geo:2: byte 0xC3 outside a string or comment"},
      {"x = 1;\n\x7F", "model.geo:2: byte 0x7F"},
      {"x = @;", "character '@' is not part of Gmsh's .geo language"},
  };
  for (const auto& c : cases) {
    const std::string message = refusal(c.text);
    EXPECT_NE(message.find(c.message), std::string::npos) << c.text.substr(0, 60) << "\n -> " << message;
  }
  // Line numbers count the lines inside comments and strings; UTF-8 inside them is text.
  EXPECT_EQ(refusal("/* one\ntwo */ s = \"three\nfour \xC3\xA9\";\nExit;"),
            "model.geo:4: 'Exit' is not accepted: it ends Gmsh, and the stage with it; geobem reads a .geo file as "
            "geometry only (docs/readers.md)");
  EXPECT_NE(refusal(std::string(geobem::surface::kMaxGeoFileBytes + 1, ' ')).find("more than the 16 MiB"),
            std::string::npos);
}

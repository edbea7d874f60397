// Untrusted input handed to third-party parsers, as a hostile user would
// hand it to the stages: Gmsh .geo scripts and shapes (geobem-mesh), DEMs
// through GDAL (geobem-model) and expressions (geobem-integrate). Every case
// is a confined run (confined_run.hpp: exit 1 or 2 with a clear message, no
// signal, within 60 s under 4 GiB, nothing written or left, no other file of
// the folder touched; a planted secret is never opened, a sentinel never
// made); where a case could reach the network, no connection reaches a
// socket listening on the address it names.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <set>

#include "tests/stages_faults/confined_run.hpp"
#include "tests/support/raster_files.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

/// A TCP socket listening on 127.0.0.1 at a free port: whether anything connected.
class Listener {
 public:
  Listener() : fd_(::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof address;
    ::bind(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address);
    ::listen(fd_, 8);
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&address), &size);
    port_ = ntohs(address.sin_port);
  }
  ~Listener() { ::close(fd_); }
  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  std::string url(const std::string& path) const { return "http://127.0.0.1:" + std::to_string(port_) + path; }
  bool reached() const { return ::accept(fd_, nullptr, nullptr) >= 0; }

 private:
  int fd_;
  int port_ = 0;
};

// ---- Gmsh: .geo scripts and shapes ----------------------------------------

TEST_F(UntrustedInput, GeoScriptsRunNothingAndTouchNoOtherFile) {
  const std::string sentinel = sentinel_.string(), secret = secret_.string();
  const struct {
    const char* name;
    std::string text, message;
  } cases[] = {
      {"system.geo", "SystemCall \"touch " + sentinel + "\";\n", ":1: 'SystemCall' is not accepted: it runs a program"},
      {"printf.geo", "x = 1;\nPrintf(\"%g\", x) > \"" + sentinel + "\";\n", ":2: 'Printf(...) >' is not accepted"},
      {"save.geo", "SetFactory(\"OpenCASCADE\");\nSphere(1) = {0,0,0,1};\nSave \"" + sentinel + "\";\n",
       ":3: 'Save' is not accepted: it writes files"},
      {"merge.geo", "Merge \"" + secret + "\";\n", ":1: 'Merge' is not accepted: it reads other files"},
      {"include.geo", "Include \"" + secret + "\";\n", ":1: 'Include' is not accepted"},
      {"exit.geo", "Point(1) = {0,0,0};\nExit;\n", ":2: 'Exit' is not accepted: it ends Gmsh"},
      {"command.geo", "Shell \"touch " + sentinel + "\";\n", ":1: 'Shell' starts a command, not an assignment"},
  };
  for (const auto& c : cases) {
    const auto input = file(c.name, c.text);
    expect_refused({"geobem-mesh", "--input", input.string(), "--output", (folder_ / "mesh.vtu").string()}, 1,
                   input.string() + c.message, folder_ / "mesh.vtu", {c.name});
  }
}

TEST_F(UntrustedInput, AnEndlessGeoScriptEndsAtItsCpuLimit) {
  const auto input = file("loop.geo", "x = 0;\nFor i In {1:1e15}\n  x = x + 1;\nEndFor\n");
  expect_refused({"geobem-mesh", "--gmsh-cpu-limit", "1", "--input", input.string(), "--output",
                  (folder_ / "mesh.vtu").string()},
                 1, "the script used more than 1 s of CPU time while Gmsh read it", folder_ / "mesh.vtu",
                 {"loop.geo"});
}

TEST_F(UntrustedInput, AMshFileNamedGeoIsReadAsMshAndAFifoIsNotWaitedOn) {
  // An element node tag of -1: libgmsh 4.8 crashed on it.
  const auto input = file("renamed.geo", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n1\n1 0 0 0\n$EndNodes\n"
                                         "$Elements\n1\n1 2 0 -1 1 1\n$EndElements\n");
  expect_refused({"geobem-mesh", "--input", input.string(), "--output", (folder_ / "mesh.vtu").string()}, 1,
                 input.string() + ":", folder_ / "mesh.vtu", {"renamed.geo"});
  const auto fifo = folder_ / "fifo.geo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused({"geobem-mesh", "--input", fifo.string(), "--output", (folder_ / "mesh.vtu").string()}, 1,
                 fifo.string() + ": not a regular file", folder_ / "mesh.vtu", {"fifo.geo"});
}

TEST_F(UntrustedInput, AGeoFileIsMeshedWithoutItsOptSidecar) {
  // Gmsh merges FILE.opt beside FILE as a script of its own: never read.
  const auto input = file("sphere.geo", "SetFactory(\"OpenCASCADE\");\nSphere(1) = {0, 0, 0, 1};\n");
  file("sphere.geo.opt", "SystemCall \"touch " + sentinel_.string() + "\";\n");
  FolderWatch watch(folder_);
  const ConfinedRun run = run_confined({"geobem-mesh", "-q", "--input", input.string(), "--element-size", "0.5",
                                        "--output", (folder_ / "sphere.vtu").string()});
  EXPECT_EQ(run.exit_code, 0) << run.errors;
  EXPECT_TRUE(fs::exists(folder_ / "sphere.vtu"));
  const auto touched = watch.touched();
  EXPECT_EQ(touched.count("sphere.geo.opt"), 0u);
  expect_only(touched, {"sphere.geo"}, folder_ / "sphere.vtu");
}

TEST_F(UntrustedInput, AShapeTooFineToMeshIsRefusedBeforeGmshRuns) {
  expect_refused({"geobem-mesh", "--shape", "sphere:0,0,0,1000", "--element-size", "0.01", "--output",
                  (folder_ / "mesh.vtu").string()},
                 2, "about 2.9e+11 triangles, more than the 2000000 geobem-mesh makes; give an element size of at "
                    "least 3.81 m",
                 folder_ / "mesh.vtu", {});
}

// ---- DEMs through GDAL ----------------------------------------------------

TEST_F(UntrustedInput, DemFormatsThatReferToOtherFilesOrTheNetworkAreRefused) {
  const Listener listener;
  const auto vrt = file("raw.vrt", "<VRTDataset rasterXSize=\"4\" rasterYSize=\"4\"><SRS>EPSG:32616</SRS>"
                                   "<GeoTransform>500000, 10, 0, 4000000, 0, -10</GeoTransform>"
                                   "<VRTRasterBand dataType=\"Byte\" band=\"1\" subClass=\"VRTRawRasterBand\">"
                                   "<SourceFilename relativetoVRT=\"1\">secret.txt</SourceFilename>"
                                   "<ImageOffset>0</ImageOffset><PixelOffset>1</PixelOffset><LineOffset>4</LineOffset>"
                                   "</VRTRasterBand></VRTDataset>\n");
  const auto wms = file("service.xml", "<GDAL_WMS><Service name=\"WMS\"><ServerUrl>" + listener.url("/wms") +
                                           "</ServerUrl><Layers>x</Layers></Service><DataWindow><UpperLeftX>-180"
                                           "</UpperLeftX><UpperLeftY>90</UpperLeftY><LowerRightX>180</LowerRightX>"
                                           "<LowerRightY>-90</LowerRightY><SizeX>256</SizeX><SizeY>128</SizeY>"
                                           "</DataWindow></GDAL_WMS>\n");
  const fs::path out = folder_ / "model";
  expect_refused({"geobem-model", "--dem", vrt.string(), "--out", out.string()}, 1,
                 "format 'Virtual Raster' (GDAL driver VRT) is not read as a DEM", out, {"raw.vrt"});
  expect_refused({"geobem-model", "--dem", wms.string(), "--out", out.string()}, 1, "(GDAL driver WMS)", out,
                 {"service.xml"});
  const std::string remote = "/vsicurl/" + listener.url("/dem.tif");
  expect_refused({"geobem-model", "--dem", remote, "--out", out.string()}, 1,
                 remote + ": GDAL virtual file systems and URLs are not read", out, {});
  EXPECT_FALSE(listener.reached());
}

TEST_F(UntrustedInput, CrsOnlyByCodeOrWktNamingNoFile) {
  const Listener listener;
  const auto dem = folder_ / "dem.tif";
  write_uniform_raster(dem, "GTiff", 4, 4, {-84.3, 0.001, 0.0, 36.6, 0.0, -0.001}, 4326, 300.0);
  const std::string grid_wkt = crs_naming_grid_file(secret_.string());
  const fs::path out = folder_ / "model";
  for (const auto& [crs, message] : std::vector<std::pair<std::string, std::string>>{
           {listener.url("/crs"), "give EPSG:NNNN or WKT text (URLs, file names and PROJ strings are not read)"},
           {secret_.string(), "give EPSG:NNNN or WKT text"},
           {"+proj=utm +zone=16 +nadgrids=" + secret_.string(), "give EPSG:NNNN or WKT text"},
           {grid_wkt, "the CRS refers to a grid or parameter file (PARAMETERFILE): not read"}})
    expect_refused({"geobem-model", "--dem", dem.string(), "--crs", crs, "--out", out.string()}, 2, message, out,
                   {"dem.tif"});
  EXPECT_FALSE(listener.reached());
}

TEST_F(UntrustedInput, DemSizesPixelsAndHeightsAreBounded) {
  const auto geotiff = [&](const std::string& name, int nx, int ny, double pixel, double height,
                           const char* const* options) {
    const auto path = folder_ / name;
    write_uniform_raster(path, "GTiff", nx, ny, {500000.0, pixel, 0.0, 4000000.0, 0.0, -pixel}, 32616, height, options);
    return path;
  };
  // A sparse GeoTIFF of about 100 KB declaring 30,000 x 30,000 nodes.
  const char* sparse_options[] = {"SPARSE_OK=TRUE", "TILED=YES", nullptr};
  const auto sparse = geotiff("sparse.tif", 30000, 30000, 10.0, std::nan(""), sparse_options);
  EXPECT_LT(fs::file_size(sparse), 1u << 20);
  const auto huge_pixel = geotiff("huge_pixel.tif", 4, 4, 1e200, 100.0, nullptr);
  const auto infinite = geotiff("infinite.tif", 4, 4, 10.0, std::numeric_limits<double>::infinity(), nullptr);
  const fs::path out = folder_ / "model";
  expect_refused({"geobem-model", "--dem", sparse.string(), "--out", out.string()}, 1,
                 "a DEM of 30000 x 30000 nodes needs 36000000000 bytes", out, {"sparse.tif"});
  expect_refused({"geobem-model", "--dem", huge_pixel.string(), "--out", out.string()}, 1,
                 "pixel 1e+200 x -1e+200: pixel sizes must be finite", out, {"huge_pixel.tif"});
  expect_refused({"geobem-model", "--dem", infinite.string(), "--out", out.string()}, 1,
                 "height inf m at row 0, column 0: not a height on Earth", out, {"infinite.tif"});
}

// ---- Expressions ------------------------------------------------------------

TEST_F(UntrustedInput, ExpressionsBeyondTheirBoundsAreUsageErrors) {
  const auto repeated = [](const std::string& unit, int count) {
    std::string text;
    for (int k = 0; k < count; ++k) text += unit;
    return text;
  };
  const fs::path out = folder_ / "integral.csv";
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {repeated("(", 20000) + "x" + repeated(")", 20000), "longer than 4096 characters (40001)"},
           {"x" + repeated("+x", 39999), "longer than 4096 characters (79999)"},
           {repeated("(", 100) + "x" + repeated(")", 100), "nested deeper than 100 levels"},
           {"x" + repeated("+x", 1000), "more than 1000 terms (numbers and names)"},
           {"0x10*x", "hexadecimal numbers are not accepted"}})
    expect_refused({"geobem-integrate", "adaptive", "--device", "cpu", "--lower", "0", "--upper", "1",
                    "--integrand-expression", text, "--output", out.string()},
                   2, message, out, {});
}

}  // namespace

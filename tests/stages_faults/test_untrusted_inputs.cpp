// Untrusted input handed to third-party parsers, as a hostile user would
// hand it to the stages: Gmsh .geo scripts and shapes (geobem-mesh), DEMs
// through GDAL (geobem-model) and expressions (geobem-integrate). Every case
// runs the stage under a 4 GiB address-space limit and a 60 s watchdog and
// asserts: the exit status (1 or 2) with a clear message, no signal, within
// 60 s, no output written and nothing left beside it, and, watched with
// inotify, no file of the folder opened, created or changed other than the
// input and the output's own (a planted secret is never opened, a sentinel
// never made); where a case could reach the network, no connection reaches
// a socket listening on the address it names.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <gdal_priv.h>
#include <netinet/in.h>
#include <ogr_spatialref.h>
#include <signal.h>
#include <sys/inotify.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <set>
#include <thread>

#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

const std::string bin = GEOBEM_BIN_DIR;

struct ConfinedRun {
  int exit_code = -1;  ///< -1 when a signal ended it
  int signal = 0;
  double seconds = 0;
  std::string errors;
};

/// Runs bin/ARGS[0] under a 4 GiB address-space limit, killed after 60 s.
ConfinedRun run_confined(const std::vector<std::string>& args) {
  const auto errors = scratch("stderr.txt");
  const auto begin = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid == 0) {
    const rlimit four_gib{4ull << 30, 4ull << 30};
    ::setrlimit(RLIMIT_AS, &four_gib);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(::open(errors.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 2);
    std::vector<char*> argv;
    const std::string program = bin + "/" + args[0];
    argv.push_back(const_cast<char*>(program.c_str()));
    for (std::size_t i = 1; i < args.size(); ++i) argv.push_back(const_cast<char*>(args[i].c_str()));
    argv.push_back(nullptr);
    ::execv(program.c_str(), argv.data());
    ::_exit(127);
  }
  ConfinedRun run;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() - begin > std::chrono::seconds(60)) ::kill(pid, SIGKILL);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  if (WIFEXITED(status)) run.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
  run.errors = read_text(errors);
  return run;
}

/// The names in a folder that are opened, created, changed, moved or removed
/// while it lives (inotify; the folder itself, not its subfolders).
class FolderWatch {
 public:
  explicit FolderWatch(const fs::path& folder) : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {
    ::inotify_add_watch(fd_, folder.c_str(),
                        IN_OPEN | IN_CREATE | IN_MODIFY | IN_ATTRIB | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE);
  }
  ~FolderWatch() { ::close(fd_); }
  FolderWatch(const FolderWatch&) = delete;
  FolderWatch& operator=(const FolderWatch&) = delete;

  /// Names touched since the last call, and whether each was only opened.
  std::map<std::string, bool> touched() {
    alignas(inotify_event) char buffer[1 << 16];
    std::map<std::string, bool> names;
    for (ssize_t got; (got = ::read(fd_, buffer, sizeof buffer)) > 0;)
      for (char* at = buffer; at < buffer + got;) {
        const auto* event = reinterpret_cast<const inotify_event*>(at);
        if (event->len > 0) {
          const auto [it, fresh] = names.emplace(event->name, true);
          it->second = it->second && (event->mask & IN_OPEN);
        }
        at += sizeof(inotify_event) + event->len;
      }
    return names;
  }

 private:
  int fd_;
};

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

class UntrustedInput : public ::testing::Test {
 protected:
  void SetUp() override {
    folder_ = scratch("case");
    fs::create_directories(folder_);
    secret_ = folder_ / "secret.txt";
    std::ofstream(secret_) << "secret-0123456789\n";
    fs::permissions(secret_, fs::perms::owner_read | fs::perms::owner_write);
    sentinel_ = folder_ / "sentinel";
  }

  fs::path file(const std::string& name, const std::string& text) const {
    std::ofstream(folder_ / name, std::ios::binary) << text;
    return folder_ / name;
  }

  /// Runs the stage and asserts a refusal: `exit_code` with `message` in
  /// stderr, no signal, within 60 s, no `output`, no temporary left, and no
  /// name of the folder touched but `inputs` and the output's own.
  void expect_refused(const std::vector<std::string>& args, int exit_code, const std::string& message,
                      const fs::path& output, const std::set<std::string>& inputs) {
    SCOPED_TRACE(args.back());
    FolderWatch watch(folder_);
    const ConfinedRun run = run_confined(args);
    EXPECT_EQ(run.signal, 0) << run.errors;
    EXPECT_EQ(run.exit_code, exit_code) << run.errors;
    EXPECT_LT(run.seconds, 60.0);
    EXPECT_NE(run.errors.find(message), std::string::npos) << run.errors;
    EXPECT_FALSE(fs::exists(output));
    EXPECT_TRUE(leftovers(folder_).empty()) << leftovers(folder_).front();
    expect_only(watch.touched(), inputs, output);
  }

  /// Every touched name is an input, opened only, or the output's own (the
  /// output, its options record, lock and temporaries, which carry its name).
  void expect_only(const std::map<std::string, bool>& touched, const std::set<std::string>& inputs,
                   const fs::path& output) const {
    for (const auto& [name, only_opened] : touched) {
      if (inputs.count(name)) {
        EXPECT_TRUE(only_opened) << name << " was changed";
        continue;
      }
      const bool output_own = name.find(output.stem().string()) != std::string::npos;
      EXPECT_TRUE(output_own) << "the stage touched " << name;
    }
    EXPECT_FALSE(fs::exists(sentinel_));
    EXPECT_EQ(touched.count("secret.txt"), 0u);
  }

  fs::path folder_, secret_, sentinel_;
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
  {
    GDALAllRegister();
    GDALDataset* data = GetGDALDriverManager()->GetDriverByName("GTiff")->Create(dem.c_str(), 4, 4, 1, GDT_Float32,
                                                                                 nullptr);
    double gt[6] = {-84.3, 0.001, 0.0, 36.6, 0.0, -0.001};
    data->SetGeoTransform(gt);
    OGRSpatialReference wgs84;
    wgs84.importFromEPSG(4326);
    data->SetSpatialRef(&wgs84);
    data->GetRasterBand(1)->Fill(300.0);
    GDALClose(data);
  }
  const std::string grid_wkt =
      "BOUNDCRS[SOURCECRS[GEOGCRS[\"NAD27\",DATUM[\"North American Datum 1927\",ELLIPSOID[\"Clarke 1866\","
      "6378206.4,294.978698213898]],CS[ellipsoidal,2],AXIS[\"lat\",north],AXIS[\"lon\",east],ANGLEUNIT[\"degree\","
      "0.0174532925199433]]],TARGETCRS[GEOGCRS[\"WGS 84\",DATUM[\"World Geodetic System 1984\",ELLIPSOID[\"WGS 84\","
      "6378137,298.257223563]],CS[ellipsoidal,2],AXIS[\"lat\",north],AXIS[\"lon\",east],ANGLEUNIT[\"degree\","
      "0.0174532925199433]]],ABRIDGEDTRANSFORMATION[\"grid\",METHOD[\"NTv2\"],PARAMETERFILE[\"Latitude and "
      "longitude difference file\",\"" + secret_.string() + "\"]]]";
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
  GDALAllRegister();
  OGRSpatialReference utm;
  utm.importFromEPSG(32616);
  const auto geotiff = [&](const std::string& name, int nx, int ny, double pixel, double height, char** options) {
    const auto path = folder_ / name;
    GDALDataset* data =
        GetGDALDriverManager()->GetDriverByName("GTiff")->Create(path.c_str(), nx, ny, 1, GDT_Float32, options);
    double gt[6] = {500000.0, pixel, 0.0, 4000000.0, 0.0, -pixel};
    data->SetGeoTransform(gt);
    data->SetSpatialRef(&utm);
    if (height == height) data->GetRasterBand(1)->Fill(height);
    GDALClose(data);
    return path;
  };
  // A sparse GeoTIFF of about 100 KB declaring 30,000 x 30,000 nodes.
  const char* sparse_options[] = {"SPARSE_OK=TRUE", "TILED=YES", nullptr};
  const auto sparse = geotiff("sparse.tif", 30000, 30000, 10.0, std::nan(""), const_cast<char**>(sparse_options));
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

// Output folders, locks, input files and sizes as a hostile user or a shared
// project folder would hand them to the stages: `--out /`, a folder holding
// a user's files beside a STAGE.ini, a symbolic link as --out, a FIFO or a
// link where the lock goes, a FIFO as input, a CSV without line breaks,
// hexadecimal and non-finite numbers, duplicated columns, VTK extents past
// int32, time steps, Poisson's ratios, receiver counts and load histories
// that ran for minutes or crashed, a surface through itself, receivers too
// near a face. Every refusal is a confined run (confined_run.hpp).
#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <set>

#include "tests/stages_faults/confined_run.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;

namespace {

class UntrustedFiles : public UntrustedInput {
 protected:
  void SetUp() override {
    UntrustedInput::SetUp();
    prisms_ = file("prisms.csv", "west,east,south,north,bottom,top,density\n0,10,0,10,-10,0,1000\n");
    stations_ = file("stations.csv", "easting,northing,upward\n5,5,1\n");
  }

  /// geobem-gravity on the prism and stations files into `out`, with `more` options.
  std::vector<std::string> gravity(const std::string& out, std::vector<std::string> more = {}) const {
    std::vector<std::string> args{"geobem-gravity", "-q", "--device", "cpu", "--prisms", prisms_.string()};
    if (std::find(more.begin(), more.end(), "--stations") == more.end()) {
      args.push_back("--stations");
      args.push_back(stations_.string());
    }
    args.insert(args.end(), more.begin(), more.end());
    args.push_back("--out");
    args.push_back(out);
    return args;
  }

  /// A refusal that must leave `kept` (a folder of the user's) exactly as it was.
  void expect_refused_keeping(const std::vector<std::string>& args, int exit_code, const std::string& message,
                              const fs::path& kept) {
    SCOPED_TRACE(args.back());
    const auto before = snapshot(kept);
    const ConfinedRun run = run_confined(args);
    EXPECT_EQ(run.signal, 0) << run.errors;
    EXPECT_EQ(run.exit_code, exit_code) << run.errors;
    EXPECT_LT(run.seconds, 60.0);
    EXPECT_NE(run.errors.find(message), std::string::npos) << run.errors;
    EXPECT_EQ(snapshot(kept), before);
    EXPECT_TRUE(leftovers(folder_).empty()) << leftovers(folder_).front();
  }

  fs::path prisms_, stations_;
};

// ---- Output sets and locks ----------------------------------------------------

TEST_F(UntrustedFiles, TheRootOrAMountPointAsOutIsRefusedBeforeAnyWork) {
  for (const char* root : {"/", "//"}) {
    const ConfinedRun run = run_confined(gravity(root));
    EXPECT_EQ(run.signal, 0) << run.errors;
    EXPECT_EQ(run.exit_code, 2) << run.errors;
    EXPECT_LT(run.seconds, 60.0);
    EXPECT_NE(run.errors.find("output '" + std::string(root) + "': the root folder cannot be replaced by an output set"),
              std::string::npos)
        << run.errors;
  }
  struct stat root {}, proc {};
  if (::stat("/", &root) == 0 && ::stat("/proc", &proc) == 0 && root.st_dev != proc.st_dev) {
    const ConfinedRun run = run_confined(gravity("/proc"));
    EXPECT_EQ(run.exit_code, 2) << run.errors;
    EXPECT_NE(run.errors.find("the output folder '/proc' is a mount point"), std::string::npos) << run.errors;
  }
}

TEST_F(UntrustedFiles, AUsersFilesBesideARecordAreNeverDeleted) {
  const fs::path out = folder_ / "results";
  fs::create_directories(out);
  std::ofstream(out / "geobem-gravity.ini") << "device = cpu\n";
  std::ofstream(out / "thesis.tex") << "years of work\n";
  expect_refused_keeping(gravity(out.string()), 2,
                         "the output folder '" + out.string() +
                             "' holds files that are not a geobem-gravity output set (no .geobem-output-set",
                         out);
  // A set of its own, with a user's file added later: refused the same way.
  fs::remove_all(out);
  ASSERT_EQ(run_confined(gravity(out.string())).exit_code, 0);
  std::ofstream(out / "notes.txt") << "mine\n";
  expect_refused_keeping(gravity(out.string()), 2, "holds 'notes.txt', which no geobem-gravity run wrote there", out);
}

TEST_F(UntrustedFiles, ASymlinkedOutIsFollowedAndStaysALinkAndNoLockIsLeft) {
  const fs::path target = folder_ / "real", link = folder_ / "linked";
  fs::create_directories(target);
  fs::create_directory_symlink(target, link);
  for (int run_number = 0; run_number < 2; ++run_number) {
    const ConfinedRun run = run_confined(gravity(link.string()));
    ASSERT_EQ(run.exit_code, 0) << run.errors;
  }
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_TRUE(fs::exists(target / "gravity.csv"));
  EXPECT_TRUE(fs::exists(target / ".geobem-output-set"));
  EXPECT_TRUE(leftovers(folder_).empty()) << leftovers(folder_).front();
}

TEST_F(UntrustedFiles, AFifoOrALinkWhereTheLockGoesIsRefusedWithoutBlocking) {
  const fs::path out = folder_ / "out", lock = folder_ / ".out.lock";
  // What was planted at the lock's name stays as it was, and nothing else is left.
  const auto expect_refused_at_lock = [&](const std::string& message) {
    FolderWatch watch(folder_);
    const ConfinedRun run = run_confined(gravity(out.string()));
    EXPECT_EQ(run.signal, 0) << run.errors;
    EXPECT_EQ(run.exit_code, 1) << run.errors;
    EXPECT_LT(run.seconds, 60.0);
    EXPECT_NE(run.errors.find(message), std::string::npos) << run.errors;
    EXPECT_FALSE(fs::exists(out));
    EXPECT_EQ(leftovers(folder_), std::vector<std::string>{".out.lock"});
    expect_only(watch.touched(), {"prisms.csv", "stations.csv", ".out.lock"}, out);
  };
  ASSERT_EQ(::mkfifo(lock.c_str(), 0600), 0);
  expect_refused_at_lock("'" + lock.string() + "' stands where the output folder '" + out.string() +
                         "' keeps its lock file, but is not one");
  EXPECT_TRUE(fs::is_fifo(lock));
  fs::remove(lock);
  fs::create_symlink(secret_, lock);
  expect_refused_at_lock("(a symbolic link stands there, not a lock file: remove it)");
  EXPECT_TRUE(fs::is_symlink(lock));
  EXPECT_EQ(read_text(secret_), "secret-0123456789\n");
}

TEST_F(UntrustedFiles, AFifoAsInputIsRefusedWithoutBlocking) {
  const fs::path out = folder_ / "out", fifo = folder_ / "fifo.csv";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_refused(gravity(out.string(), {"--stations", fifo.string()}), 1,
                 fifo.string() + ": not a regular file but a FIFO (named pipe)", out, {"fifo.csv", "prisms.csv"});
  expect_refused(gravity(out.string(), {"--config", fifo.string()}), 2, "'" + fifo.string() + "' is not a file", out,
                 {"fifo.csv"});
}

// ---- Sizes and numbers of our own readers ---------------------------------

TEST_F(UntrustedFiles, ACsvWithoutLineBreaksStopsAtItsLineLimit) {
  // 8 GiB of NUL bytes (a sparse file) and no line break.
  const fs::path out = folder_ / "out", endless = folder_ / "endless.csv";
  std::ofstream(endless).close();
  fs::resize_file(endless, std::uintmax_t(8) << 30);
  expect_refused(gravity(out.string(), {"--stations", endless.string()}), 1,
                 endless.string() + ":1: a line longer than 1048576 bytes", out, {"endless.csv", "prisms.csv"});
}

TEST_F(UntrustedFiles, NumbersAreDecimalAndColumnsNamedOnce) {
  const fs::path out = folder_ / "out";
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"easting,northing,upward\n0x10,5,1\n", ":2: column 'easting': '0x10' is not a number"},
           {"easting,northing,upward\n5,inf,1\n", ":2: column 'northing': 'inf' is not a number"},
           {"easting,northing,upward\n5,5,nan\n", ":2: column 'upward': 'nan' is not a number"},
           {"easting,northing,upward,easting\n5,5,1,6\n",
            ":1: column 'easting' appears twice in the header (columns 1 and 4)"}}) {
    const auto input = file("bad_stations.csv", text);
    expect_refused(gravity(out.string(), {"--stations", input.string()}), 1, input.string() + message, out,
                   {"bad_stations.csv", "prisms.csv"});
  }
}

TEST_F(UntrustedFiles, VtkExtentsPastInt32AreRefused) {
  const fs::path out = folder_ / "out";
  const auto image = file("huge.vti",
                          "<?xml version=\"1.0\"?>\n<VTKFile type=\"ImageData\" version=\"1.0\" "
                          "byte_order=\"LittleEndian\">\n<ImageData WholeExtent=\"0 2147483000 0 1 0 1\" "
                          "Origin=\"0 0 0\" Spacing=\"10 10 10\"><Piece Extent=\"0 2147483000 0 1 0 1\"><CellData>\n"
                          "<DataArray type=\"Float64\" Name=\"density\" format=\"ascii\">1</DataArray></CellData>"
                          "</Piece></ImageData></VTKFile>\n");
  const std::vector<std::string> args{"geobem-gravity", "-q",         "--device", "cpu", "--prisms", image.string(),
                                      "--stations",     stations_.string(), "--out",  out.string()};
  expect_refused(args, 1, "2147483000 lies outside ±1073741824 (VTK's extents are 32-bit integers)", out,
                 {"huge.vti", "stations.csv"});
}

// ---- Bounds of the BEM stages ------------------------------------------------

/// The rod (3 x 1 x 1 m, h = 1 m) meshed by geobem-mesh and solved by
/// geobem-laplace (4 steps), once for the tests below.
struct SolvedRod {
  fs::path folder = scratch("untrusted_rod"), mesh = folder / "rod.vtu", laplace = folder / "laplace";
  SolvedRod() {
    fs::create_directories(folder);
    EXPECT_EQ(run_confined({"geobem-mesh", "-q", "--box-lengths", "3,1,1", "--element-size", "1", "--output",
                            mesh.string()})
                  .exit_code,
              0);
    const ConfinedRun run = run_confined({"geobem-laplace", "-q", "--device", "cpu", "--mesh", mesh.string(),
                                          "--fixed", "x_min", "--free", "y_min,y_max,z_min,z_max", "--traction",
                                          "x_max=1e6:1,0,0", "--young-modulus", "2.1e11", "--poisson-ratio", "0",
                                          "--density", "7850", "--beta", "0.3", "--steps", "4", "--out",
                                          laplace.string()});
    EXPECT_EQ(run.exit_code, 0) << run.errors;
  }
};

const SolvedRod& solved_rod() {
  static const SolvedRod rod;
  return rod;
}

/// geobem-laplace on the rod with `more` options (the material's last, so they may replace it).
std::vector<std::string> laplace_args(const fs::path& out, const std::vector<std::string>& more) {
  std::vector<std::string> args{"geobem-laplace", "-q", "--device", "cpu", "--mesh", solved_rod().mesh.string(),
                                "--fixed", "x_min", "--free", "y_min,y_max,z_min,z_max", "--traction",
                                "x_max=1e6:1,0,0", "--young-modulus", "2.1e11", "--density", "7850"};
  args.insert(args.end(), more.begin(), more.end());
  args.push_back("--out");
  args.push_back(out.string());
  return args;
}

TEST_F(UntrustedFiles, TimeStepsTheMeshCannotResolveAndNearlyIncompressibleSolidsAreRefused) {
  const fs::path out = folder_ / "laplace";
  for (const auto& [more, message] : std::vector<std::pair<std::vector<std::string>, std::string>>{
           {{"--poisson-ratio", "0", "--time-step", "1e-15", "--steps", "4"},
            "CQ step ratio beta = c*dt/h = 7.31e-12 (c = 5172.19 m/s, dt = 1e-15 s, h = 0.707107 m) is below 0.01: the "
            "step is far shorter than the mesh resolves (stable around 0.1-0.3); give dt >= 1.36713e-06 s"},
           {{"--poisson-ratio", "0", "--time-step", "1e-9", "--duration", "1"},
            "CQ step ratio beta = c*dt/h = 7.31e-06"},
           {{"--poisson-ratio", "0", "--beta", "0.3", "--steps", "20000000"},
            "CQ steps 20000000: must be from 1 to 10000000"},
           {{"--poisson-ratio", "0.4999999999", "--beta", "0.3", "--steps", "4"},
            "Poisson's ratio 0.4999999999: must lie in (-1, 0.49]"}})
    expect_refused(laplace_args(out, more), 2, message, out, {});
}

TEST_F(UntrustedFiles, ReceiverCountsLoadHistoriesAndReceiversNearAFaceAreBounded) {
  const SolvedRod& rod = solved_rod();
  const fs::path out = folder_ / "time";
  const auto time_args = [&](const std::vector<std::string>& more) {
    std::vector<std::string> args{"geobem-time", "-q", "--device", "cpu", "--laplace", rod.laplace.string()};
    args.insert(args.end(), more.begin(), more.end());
    args.push_back("--out");
    args.push_back(out.string());
    return args;
  };
  // Each axis passes its cap; the product (1e9) does not.
  expect_refused(time_args({"--receiver-grid", "0.1,0.1,0.1:2.9,0.9,0.9:1000,1000,1000"}), 2,
                 "--receiver-grid '0.1,0.1,0.1:2.9,0.9,0.9:1000,1000,1000': 1000000000 receivers, more than the "
                 "1000000 a run takes",
                 out, {});
  expect_refused(time_args({"--load-history", "ricker:1e300"}), 2,
                 "--load-history 'ricker:1e300': Ricker central frequency 1e+300 Hz lies above the Nyquist frequency",
                 out, {});
  // 1e-6 m inside the top face, under its middle.
  const auto receivers = file("receivers.csv", "x,y,z\n1.5,0.5,0.5\n1.4,0.6,0.999999\n");
  expect_refused(time_args({"--receivers", receivers.string()}), 1,
                 receivers.string() + ":3 at (1.4, 0.6, 0.999999) m (1e-06 m from triangle 86, nearer than 0.05 of "
                 "its longest edge 0.781025 m, 0.0391 m) is too near the surface: there the representation "
                 "formula's quadrature is not accurate; move it at least 0.0391 m from the surface",
                 out, {"receivers.csv"});
}

TEST_F(UntrustedFiles, ASurfaceThroughItselfIsRefusedWithTwoTrianglesNamed) {
  // Two closed tetrahedra, the second shifted into the first: every edge has
  // two triangles, but the surfaces cross.
  std::string stl = "solid crossing\n";
  for (const double shift : {0.0, 0.5}) {
    const double p[4][3] = {{shift, shift, shift}, {2 + shift, shift, shift}, {shift, 2 + shift, shift},
                            {shift, shift, 2 + shift}};
    for (const auto& face : {std::array<int, 3>{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}) {
      stl += "facet normal 0 0 0\nouter loop\n";
      for (const int k : face)
        stl += "vertex " + std::to_string(p[k][0]) + " " + std::to_string(p[k][1]) + " " + std::to_string(p[k][2]) +
               "\n";
      stl += "endloop\nendfacet\n";
    }
  }
  const auto input = file("crossing.stl", stl + "endsolid crossing\n");
  const fs::path out = folder_ / "crossing.vtu";
  expect_refused({"geobem-mesh", "--input", input.string(), "--default-group", "all", "--output", out.string()}, 1,
                 "self-intersecting surface: triangle", out, {"crossing.stl"});
}

}  // namespace

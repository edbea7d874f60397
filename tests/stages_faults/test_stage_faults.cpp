// Output sets under faults, stage by stage (docs/stage_contract.md, "Output
// sets"). Each stage has two runs A and B whose sets differ (B also drops a
// file of A where the stage allows it). Then:
//  - identical runs write identical bytes (A twice);
//  - 50 runs killed by SIGKILL at a uniformly random moment (fixed seed)
//    leave the set of A or the set of B on disk, each whole;
//  - runs that cannot write past N bytes per file (RLIMIT_FSIZE with SIGXFSZ
//    ignored: write(2) fails with EFBIG, as it fails with ENOSPC on a full
//    disk) fail with exit status 1 and leave the earlier set untouched;
//  - after a complete run nothing of the killed runs is left.
// And two runs started together into one output folder: one is refused by
// the lock (exit 1, naming the other run) or they follow each other; the set
// on disk is always one of the two, whole.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <random>
#include <thread>
#include <utility>

#include "tests/stages_faults/confined_run.hpp"
#include "tests/support/test_files.hpp"

namespace fs = std::filesystem;
using namespace geobem::test;
using Files = std::map<std::string, std::string>;

namespace {

struct Outcome {
  int exit_code;  ///< -1 when killed
  double seconds;
};

/// The exit status of child `pid` once it ends; -1 when a signal ended it.
int exit_code_of(pid_t pid) {
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/// Runs bin/ARGS[0] with ARGS, stdout and stderr discarded; kills it with
/// SIGKILL after `kill_after` seconds if given; caps every file it writes at
/// `file_limit` bytes if given.
Outcome spawn(const std::vector<std::string>& args, double kill_after = -1, long file_limit = -1) {
  const auto begin = std::chrono::steady_clock::now();
  const pid_t pid = start_stage(args, {}, {-1, file_limit});
  if (kill_after >= 0) {
    std::this_thread::sleep_for(std::chrono::duration<double>(kill_after));
    ::kill(pid, SIGKILL);
  }
  const int exit_code = exit_code_of(pid);
  return {exit_code, std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count()};
}

/// One stage under test: its two runs, and what its output set is on disk.
struct StageCase {
  std::string name;
  std::vector<std::string> run_a, run_b;  ///< full argument lists, output included
  fs::path output;                         ///< the folder (--out) or file (--output)
  bool is_file;
  Files set() const {
    if (!is_file) return snapshot(output);
    Files files;
    for (const fs::path& path : {output, fs::path(output.string() + ".ini")})
      if (fs::exists(path)) files[path.filename().string()] = read_text(path);
    return files;
  }
};

/// Is `on_disk` one of the two sets, each whole? A result file and its
/// options record are replaced one after the other (documented), so for a
/// file each of the two must be whole on its own.
bool whole(const StageCase& stage, const Files& on_disk, const Files& a, const Files& b) {
  if (!stage.is_file) return on_disk == a || on_disk == b;
  for (const auto& [name, bytes] : on_disk) {
    const auto in_a = a.find(name), in_b = b.find(name);
    if (!(in_a != a.end() && in_a->second == bytes) && !(in_b != b.end() && in_b->second == bytes)) return false;
  }
  return on_disk.size() == a.size();
}

void exercise(const StageCase& stage) {
  SCOPED_TRACE(stage.name);
  fs::remove_all(stage.output);
  ASSERT_EQ(spawn(stage.run_a).exit_code, 0);
  const Files first = stage.set();
  const Outcome a_run = spawn(stage.run_a);
  ASSERT_EQ(a_run.exit_code, 0);
  const Files a = stage.set();
  EXPECT_EQ(a, first) << "two identical runs wrote different bytes";
  const Outcome b_run = spawn(stage.run_b);
  ASSERT_EQ(b_run.exit_code, 0);
  const Files b = stage.set();
  ASSERT_NE(a, b);
  ASSERT_EQ(spawn(stage.run_a).exit_code, 0);

  // SIGKILL at a random moment of a run that would take about `seconds`.
  std::mt19937 random(20261124);
  bool on_a = true;
  int replaced = 0;
  for (int trial = 0; trial < 50; ++trial) {
    // Up to twice the slower measured run: on a loaded machine a run can take
    // longer than measured, and some kills must come after its commit.
    const double seconds = std::max(a_run.seconds, b_run.seconds);
    const double at = std::uniform_real_distribution<double>(0.0, 2.0 * seconds)(random);
    spawn(on_a ? stage.run_b : stage.run_a, at);
    const Files now = stage.set();
    ASSERT_TRUE(whole(stage, now, a, b)) << "trial " << trial << ", killed after " << at << " s: a mixed set";
    const bool now_a = stage.is_file ? now.begin()->second == a.begin()->second : now == a;
    replaced += now_a != on_a;
    on_a = now_a;
  }
  EXPECT_GT(replaced, 0) << "no kill came late enough to let a run finish";
  ASSERT_EQ(spawn(on_a ? stage.run_a : stage.run_b).exit_code, 0);
  const fs::path folder = stage.output.parent_path();
  EXPECT_TRUE(leftovers(folder).empty()) << leftovers(folder).front();

  // Out of space part-way: the run fails, the earlier set stays.
  const Files before = stage.set();
  for (const long limit : {0L, 100L, 1000L, 3000L, 10000L}) {
    const Outcome full = spawn(on_a ? stage.run_b : stage.run_a, -1, limit);
    if (full.exit_code == 0) continue;  // everything fitted
    EXPECT_EQ(full.exit_code, 1) << "limit " << limit;
    EXPECT_EQ(stage.set(), before) << "limit " << limit;
    EXPECT_TRUE(leftovers(folder).empty()) << "limit " << limit;
  }
}

class StageFaults : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    // One thread per stage run: the runs are tiny, and on a loaded machine
    // OpenMP threads waiting for a core made geobem-laplace ten times slower.
    ::setenv("OMP_NUM_THREADS", "1", 1);
    ::setenv("OPENBLAS_NUM_THREADS", "1", 1);
    root_ = scratch("faults");
    fs::remove_all(root_);
    fs::create_directories(root_);
    // Inputs shared by the cases: radii and their integrals.
    ASSERT_EQ(spawn({"geobem-halfspace", "radii", "--out", (root_ / "radii").string(), "--disk-radius", "10",
                     "--pressure", "1", "--young-modulus", "1", "--poisson-ratio", "0.25", "--grid-west", "-50",
                     "--grid-east", "50", "--grid-south", "-50", "--grid-north", "50", "--grid-shape", "9,9"})
                  .exit_code,
              0);
    ASSERT_EQ(spawn({"geobem-integrate", "longman", "--family", "halfspace-disk", "--device", "cpu", "--input",
                     (root_ / "radii" / "radii.csv").string(), "--output", (root_ / "integrals.csv").string()})
                  .exit_code,
              0);
    // The 12-triangle rod and its Laplace-domain solution, for the BEM stages.
    ASSERT_EQ(spawn({"geobem-mesh", "--box-lengths", "3,1,1", "--element-size", "5", "--output",
                     (root_ / "rod.vtu").string()})
                  .exit_code,
              0);
    ASSERT_EQ(spawn(laplace_run({"--steps", "16", "--out", (root_ / "laplace").string()})).exit_code, 0);
  }
  /// geobem-laplace on the rod with `tail` after its conditions.
  static std::vector<std::string> laplace_run(std::vector<std::string> tail) {
    std::vector<std::string> head = {"geobem-laplace", "--quiet", "--device", "cpu", "--mesh", (root_ / "rod.vtu").string(),
                                     "--fixed", "x_min", "--free", "y_min,y_max,z_min,z_max", "--traction",
                                     "x_max=1e6:1,0,0", "--young-modulus", "2.1e11", "--poisson-ratio", "0",
                                     "--density", "7850", "--beta", "0.3"};
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  }
  static fs::path root_;
};
fs::path StageFaults::root_;

TEST_F(StageFaults, Mesh) {
  const std::string out = (root_ / "mesh" / "rod.vtu").string();
  exercise({"geobem-mesh",
            {"geobem-mesh", "--box-lengths", "1,1,1", "--element-size", "0.7072", "--quiet", "--output", out},
            {"geobem-mesh", "--box-lengths", "2,1,1", "--element-size", "1.0", "--quiet", "--output", out},
            out, true});
}

TEST_F(StageFaults, HalfspaceRadiiAndDisplacement) {
  const std::vector<std::string> load = {"--disk-radius", "10", "--young-modulus", "1", "--poisson-ratio", "0.25",
                                         "--grid-west", "-50", "--grid-east", "50", "--grid-south", "-50",
                                         "--grid-north", "50", "--quiet"};
  auto with = [&](std::vector<std::string> head, std::vector<std::string> tail) {
    head.insert(head.end(), load.begin(), load.end());
    head.insert(head.end(), tail.begin(), tail.end());
    return head;
  };
  const std::string radii = (root_ / "radii_case").string();
  exercise({"geobem-halfspace radii",
            with({"geobem-halfspace", "radii"}, {"--pressure", "1", "--grid-shape", "9,9", "--out", radii}),
            with({"geobem-halfspace", "radii"}, {"--pressure", "1", "--grid-shape", "5,5", "--out", radii}), radii,
            false});
  const std::string displacement = (root_ / "displacement").string(), integrals = (root_ / "integrals.csv").string();
  exercise({"geobem-halfspace displacement",
            with({"geobem-halfspace", "displacement"},
                 {"--pressure", "1", "--grid-shape", "9,9", "--integrals", integrals, "--out", displacement}),
            with({"geobem-halfspace", "displacement"},
                 {"--pressure", "2", "--grid-shape", "9,9", "--integrals", integrals, "--out", displacement}),
            displacement, false});
}

// A grid model (prisms.csv, model.vtu, model.vtr) and a list model (no
// model.vtr): a killed or starved run never leaves a new prisms.csv beside
// the model.vtr of the earlier model.
TEST_F(StageFaults, Model) {
  const std::string out = (root_ / "model").string();
  exercise({"geobem-model",
            {"geobem-model", "--generate", "spheres", "--cells", "30,30,8", "--quiet", "--out", out},
            {"geobem-model", "--generate", "blocks", "--block", "0,10,0,20,-30,0,500", "--block", "20,30,0,10,-5,0,-200",
             "--quiet", "--out", out},
            out, false});
}

/// A prism CSV of `count` prisms 10 m wide in a row, column `property`
/// alternating `even`, `odd` (densities by default).
fs::path prism_row(const fs::path& path, int count, const std::string& property = "density", double even = -200,
                   double odd = 300) {
  std::ofstream csv(path);
  csv << "west,east,south,north,bottom,top," << property << "\n";
  for (int i = 0; i < count; ++i) csv << 10 * i << "," << 10 * i + 10 << ",0,10,-10,0," << (i % 2 ? odd : even) << "\n";
  return path;
}

/// A station CSV of `count` stations along easting, `spacing` m apart and
/// 1 m to 7 m up.
fs::path station_row(const fs::path& path, int count, int spacing) {
  std::ofstream stations(path);
  stations << "easting,northing,upward\n";
  for (int i = 0; i < count; ++i) stations << spacing * i << ",5," << 1 + i % 7 << "\n";
  return path;
}

/// Grid stations (gravity.csv, gravity.vts) and scattered stations
/// (gravity.csv, gravity.vtu): never a new gravity.csv beside an old
/// gravity.vts.
TEST_F(StageFaults, Gravity) {
  const std::string prisms = prism_row(root_ / "row.csv", 100).string(), out = (root_ / "gravity").string(),
                    stations = station_row(root_ / "stations.csv", 300, 13).string();
  exercise({"geobem-gravity",
            {"geobem-gravity", "--device", "cpu", "--quiet", "--prisms", prisms, "--grid-west", "0", "--grid-east",
             "4000", "--grid-south", "-50", "--grid-north", "50", "--grid-shape", "30,10", "--grid-upward", "5", "--out",
             out},
            {"geobem-gravity", "--device", "cpu", "--quiet", "--fields", "g_z,g_zz", "--prisms", prisms, "--stations",
             stations, "--out", out},
            out, false});
}

/// The same for geobem-magnetic: magnetic.csv and magnetic.vts, then
/// magnetic.csv and magnetic.vtu, with geobem-magnetic.ini.
TEST_F(StageFaults, Magnetic) {
  const std::string prisms = prism_row(root_ / "row_susceptibility.csv", 100, "susceptibility", 0.01, 0.03).string(),
                    stations = station_row(root_ / "magnetic_stations.csv", 300, 3).string(),
                    out = (root_ / "magnetic").string();
  exercise({"geobem-magnetic",
            {"geobem-magnetic", "--device", "cpu", "--quiet", "--prisms", prisms, "--inclination", "60",
             "--declination", "0", "--field-intensity", "50000", "--grid-west", "0", "--grid-east", "1000",
             "--grid-south", "-50", "--grid-north", "50", "--grid-shape", "30,10", "--grid-upward", "5", "--out", out},
            {"geobem-magnetic", "--device", "cpu", "--quiet", "--fields", "tfa", "--prisms", prisms,
             "--inclination", "60", "--declination", "0", "--field-intensity", "50000", "--stations", stations,
             "--out", out},
            out, false});
}

// Two gravity runs started together into one --out, 14 times: the second is
// refused while the first holds the folder (or starts after it finished), and
// the folder holds one run's set, whole.
TEST_F(StageFaults, GravityRunsIntoOneFolderDoNotMix) {
  const std::string prisms = prism_row(root_ / "row_concurrent.csv", 400).string(),
                    out = (root_ / "gravity_concurrent").string();
  const std::vector<std::string> grid = {"--grid-west", "0", "--grid-east", "20000", "--grid-south", "-50",
                                         "--grid-north", "50", "--grid-shape", "20,10", "--out", out};
  auto run = [&](const std::string& fields) {
    std::vector<std::string> args = {"geobem-gravity", "--device", "cpu", "--quiet", "--prisms", prisms, "--fields",
                                     fields};
    args.insert(args.end(), grid.begin(), grid.end());
    return args;
  };
  const auto run_a = run("g_z"), run_b = run("potential,g_z,g_zz");
  fs::remove_all(out);
  ASSERT_EQ(spawn(run_a).exit_code, 0);
  const Files a = snapshot(out);
  ASSERT_EQ(spawn(run_b).exit_code, 0);
  const Files b = snapshot(out);
  ASSERT_NE(a, b);
  int refused = 0;
  for (int trial = 0; trial < 14; ++trial) {
    const fs::path errors_a = root_ / "concurrent_a.err", errors_b = root_ / "concurrent_b.err";
    const pid_t first = start_stage(run_a, errors_a), second = start_stage(run_b, errors_b);
    const int code_a = exit_code_of(first), code_b = exit_code_of(second);
    for (const auto& [code, errors] : {std::pair{code_a, errors_a}, std::pair{code_b, errors_b}}) {
      if (code == 0) continue;
      EXPECT_EQ(code, 1) << read_text(errors);
      EXPECT_NE(read_text(errors).find("is being written by another run"), std::string::npos) << read_text(errors);
      ++refused;
    }
    EXPECT_TRUE(code_a == 0 || code_b == 0) << "trial " << trial << ": both runs failed";
    const Files now = snapshot(out);
    EXPECT_TRUE(now == a || now == b) << "trial " << trial << ": a mixed set";
  }
  EXPECT_GT(refused, 0) << "the runs never overlapped: the lock was not exercised";
  EXPECT_TRUE(leftovers(root_).empty()) << leftovers(root_).front();
}

TEST_F(StageFaults, IntegrateLongman) {
  const std::string out = (root_ / "longman" / "integrals.csv").string(),
                    input = (root_ / "radii" / "radii.csv").string();
  exercise({"geobem-integrate longman",
            {"geobem-integrate", "longman", "--family", "halfspace-disk", "--device", "cpu", "--rel-tol", "1e-10",
             "--quiet", "--input", input, "--output", out},
            {"geobem-integrate", "longman", "--family", "halfspace-disk", "--device", "cpu", "--rel-tol", "1e-6",
             "--quiet", "--input", input, "--output", out},
            out, true});
}

TEST_F(StageFaults, Laplace) {
  // B exports the dense systems (a subfolder A lacks) and has fewer frequencies.
  const std::string out = (root_ / "laplace_case").string();
  exercise({"geobem-laplace", laplace_run({"--steps", "8", "--out", out}),
            laplace_run({"--steps", "4", "--export-systems", "--out", out}), out, false});
}

TEST_F(StageFaults, Time) {
  // B writes every 4th step: A's other step files must go with A's set.
  const std::string out = (root_ / "time").string(), laplace = (root_ / "laplace").string();
  exercise({"geobem-time",
            {"geobem-time", "--quiet", "--laplace", laplace, "--probe-group", "x_max", "--closed-form", "rod", "--out",
             out},
            {"geobem-time", "--quiet", "--laplace", laplace, "--probe", "3,0.5,0.5", "--every", "4", "--out", out},
            out, false});
}

}  // namespace

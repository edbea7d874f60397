// geobem-laplace on two MPI ranks (label mpi): each rank solves every second
// CQ frequency and rank 0 gathers and writes; the Laplace-domain solution
// must equal the one-rank run to 1e-14 relative.
#include <gtest/gtest.h>

#include "mesh/io/npy_file.hpp"
#include "tests/stages_bem/bem_stage_support.hpp"

namespace fs = std::filesystem;
using namespace geobem;
using namespace geobem::test;

namespace {

TEST(CqStagesMpi, TwoRanksEqualOneRank) {
  const auto mesh = write_rod_mesh("rod_mpi.vtu", 1.5);
  const auto one = scratch("laplace_one_rank"), two = scratch("laplace_two_ranks");
  // The same OpenMP/OpenBLAS thread count in both runs, so that each frequency is computed alike.
  const std::string threads = "OMP_NUM_THREADS=1 ";
  auto run = run_command(threads + laplace_exe + " --quiet --device cpu --mesh " + mesh.string() + " --out " +
                         one.string() + rod_conditions + " --beta 0.3 --steps 12");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  run = run_command(threads + std::string(GEOBEM_MPIEXEC) + " -x OMP_NUM_THREADS -np 2 --oversubscribe " +
                    "--allow-run-as-root " + laplace_exe + " --quiet --device cpu --mesh " + mesh.string() +
                    " --out " + two.string() + rod_conditions + " --beta 0.3 --steps 12");
  ASSERT_EQ(run.exit_code, 0) << run.errors;
  const int n = rod_model(1.5).unknown_count(), frequencies = 7;
  std::vector<std::complex<double>> a(static_cast<std::size_t>(n) * frequencies), b(a.size());
  read_npy_complex(one / "laplace_case0.npy", n, frequencies, file_crc32(one / "laplace_case0.npy"), {{a.data(), a.size()}});
  read_npy_complex(two / "laplace_case0.npy", n, frequencies, file_crc32(two / "laplace_case0.npy"), {{b.data(), b.size()}});
  double diff = 0, scale = 0;
  for (std::size_t k = 0; k < a.size(); ++k) {
    diff = std::max(diff, std::abs(a[k] - b[k]));
    scale = std::max(scale, std::abs(a[k]));
  }
  EXPECT_GT(scale, 0.0);
  EXPECT_LE(diff, 1e-14 * scale);
  EXPECT_TRUE(leftovers(two.parent_path()).empty());
  EXPECT_TRUE(fs::exists(two / "geobem-laplace.ini"));
}

}  // namespace

// gravity_scale_bench: the paper's case of Couder-Castañeda et al.
// (2013) (700 × 700 × 50 cells, seven spheres, 251,947 prisms; 150 × 100
// stations at 100 m) on the general path (prisms) and the grid path (weighted
// grid nodes), double and single, all ten fields and g_z, CUDA from host
// vectors to host results (the grid path's node weights built on the host
// included), best of --repeat; errors against the general path in double.
// --large P S: g_z of P prisms × S stations through forward_model (progress
// with ETA on stderr, chunked when beyond --device-memory-limit).
// Under mpirun (--mpi): every rank takes its share, rank 0 reduces, and
// compares with its own one-GPU run of the whole case. --sweep: the general
// path's time over CudaTuning::blocks_per_sm. --shapes: the general path's
// time in every compiled kernel shape (threads per block, register cap;
// cuda_kernel_shapes()), double and single, all ten fields and g_z.
#include <boost/program_options.hpp>
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/gravity/bench_timing.hpp"
#include "gpu/core/device.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/relative_difference.hpp"
#include "gpu/core/seconds_since.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/forward_mpi.hpp"
#include "gpu/gravity/grid_nodes.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "mesh/prisms/stations.hpp"
#include "stages/cli/stage_options.hpp"

namespace po = boost::program_options;
using namespace geobem;
using namespace geobem::gravity;
using geobem::bench::best_time;

namespace {

/// Largest |a − b| over the largest |b| of each field in `mask` (raw sums).
void print_errors(const char* label, const std::vector<double>& a, const std::vector<double>& b, std::size_t n,
                  unsigned mask) {
  std::printf("%s:", label);
  for (int f = 0; f < field_count; ++f) {
    if (!(mask & (1u << f))) continue;
    std::printf(" %s %.2e", field_name(Field(f)), largest_relative_difference(&a[f * n], &b[f * n], n));
  }
  std::printf("\n");
}

int large_run(std::size_t n_prisms, std::size_t n_stations, double limit_mib) {
  // Boxes of 100 m × 100 m × 50 m on a regular arrangement of 1000 × 1000 ×
  // layers, alternating densities; stations on a square grid 100 m above.
  std::vector<Prism> prisms(n_prisms);
  for (std::size_t p = 0; p < n_prisms; ++p) {
    const double e = double(p % 1000) * 100, n = double((p / 1000) % 1000) * 100, u = -50.0 * double(p / 1000000);
    prisms[p] = {e, e + 100, n, n + 100, u - 50, u, (p % 7) * 100.0 - 250.0};
  }
  const std::size_t side = static_cast<std::size_t>(std::ceil(std::sqrt(double(n_stations))));
  std::vector<Station> stations;
  for (std::size_t s = 0; s < n_stations; ++s)
    stations.push_back({double(s % side) * 1e5 / side, double(s / side) * 1e5 / side, 100.0});
  ForwardOptions options;
  options.device = ComputeDevice::Cuda;
  options.device_memory_limit_bytes = static_cast<std::size_t>(limit_mib * 1024 * 1024);
  forward_model({prisms.front()}, {stations.front()}, {Field::g_z}, ForwardOptions{ComputeDevice::Cuda});
  const auto start = std::chrono::steady_clock::now();
  const auto result = forward_model(prisms, stations, {Field::g_z}, options);
  const double t = seconds_since(start);
  double largest = 0;
  for (double v : result.values[0]) largest = std::max(largest, std::abs(v));
  std::printf("large g_z: %zu prisms x %zu stations = %.4g pairs in %.2f s: %.4g pairs/s (largest |g_z| %.4g mGal, "
              "memory limit %.0f MiB)\n",
              n_prisms, n_stations, double(n_prisms) * n_stations, t, double(n_prisms) * n_stations / t, largest,
              limit_mib);
  return 0;
}

}  // namespace

int run_bench(int argc, char** argv) {
  int repeat = 3;
  double limit_mib = 0.0;
  std::vector<std::size_t> large;
  bool mpi = false, sweep = false, shapes = false;
  cli::StageOptions command(
      "gravity_scale_bench", "Gravity at scale: general vs grid path, single vs double, chunks, MPI ranks, kernel shapes.");
  command.add()
      ("repeat", po::value(&repeat)->default_value(repeat), "CUDA runs per case (best is reported)")
      ("large", po::value(&large)->multitoken(), "P S: g_z of P prisms x S stations with progress, then stop")
      ("device-memory-limit", po::value(&limit_mib)->default_value(limit_mib), "MiB for --large (0: free memory)")
      ("mpi", po::bool_switch(&mpi), "under mpirun: 1 rank vs all ranks on the paper's case")
      ("sweep", po::bool_switch(&sweep),
       "general path, double: CudaTuning::blocks_per_sm 16..64 for all ten fields and g_z, then stop")
      ("shapes", po::bool_switch(&shapes),
       "general path: every kernel shape (cuda_kernel_shapes()), double and single, all ten fields and g_z, then stop");
  if (!command.parse(argc, argv)) return 0;  // --help
  bench::check_repeat(repeat);
  if (cuda_device_count() == 0) {
    std::printf("no CUDA device\n");
    return 0;
  }
  if (!large.empty()) {
    if (large.size() != 2) throw InputError::usage("--large needs P S");
    return large_run(large[0], large[1], limit_mib);
  }

  const PrismGrid grid = prisms::sphere_grid(prisms::couder_grid(), prisms::couder_spheres());
  const std::vector<Prism> prisms = prisms::grid_prisms(grid);
  const std::vector<Station> stations = prisms::grid_stations({0, 22000, 0, 22000, 150, 100, 100});
  const std::size_t n = stations.size();
  ProgressReporter silent("bench", 0, "pairs", true);

  if (mpi) {
    MPI_Init(&argc, &argv);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    ForwardOptions base;
    base.device = ComputeDevice::Cuda;
    base.quiet = true;
    const ForwardOptions mine = rank_options(base, rank, size);
    const auto fields = parse_fields("all");
    for (const bool on_grid : {false, true}) {
      for (const char* which : {"all", "g_z"}) {
        const auto wanted = parse_fields(which);
        const auto compute = [&](const ForwardOptions& o) {
          return on_grid ? forward_model_grid(grid, stations, wanted, o) : forward_model(prisms, stations, wanted, o);
        };
        compute(mine);  // context, module load
        double best = 1e300;
        ForwardResult reduced;
        for (int i = 0; i < repeat; ++i) {
          MPI_Barrier(MPI_COMM_WORLD);
          const double start = MPI_Wtime();
          reduced = compute(mine);
          reduce_to_root(reduced, MPI_COMM_WORLD);
          best = std::min(best, MPI_Wtime() - start);
        }
        if (rank == 0) {
          ForwardResult one;
          const double one_s = best_time(repeat, [&] { one = compute(base); });
          double worst = 0;
          for (std::size_t f = 0; f < one.values.size(); ++f)
            worst = std::max(worst, largest_relative_difference(reduced.values[f].data(), one.values[f].data(), n));
          std::printf("mpi %s path %s: 1 GPU %.4f s, %d ranks %.4f s, speed-up %.2fx, largest difference %.2e\n",
                      on_grid ? "grid" : "general", which, one_s, size, best, one_s / best, worst);
        }
        MPI_Barrier(MPI_COMM_WORLD);
      }
    }
    MPI_Finalize();
    return 0;
  }

  if (sweep) {
    forward_cuda(prisms, {stations.front()}, 0x3ffu, Precision::Double, silent);  // context and module load
    for (const int blocks : {16, 24, 32, 48, 64}) {
      CudaTuning tuning;
      tuning.blocks_per_sm = blocks;
      const double all = best_time(repeat, [&] { forward_cuda(prisms, stations, 0x3ffu, Precision::Double, silent, tuning); });
      const double g_z =
          best_time(repeat, [&] { forward_cuda(prisms, stations, unsigned(bit_g_z), Precision::Double, silent, tuning); });
      std::printf("general double, %d blocks/SM: all ten %.4f s, g_z %.4f s\n", blocks, all, g_z);
    }
    return 0;
  }

  if (shapes) {
    // Each shape against the first one's results (128 threads, no cap): the
    // same sums up to the order of the double atomicAdds.
    forward_cuda(prisms, {stations.front()}, 0x3ffu, Precision::Double, silent);  // context and module load
    std::vector<double> reference[2][2];  // [all|g_z][double|single], first shape
    std::printf("%-6s %-6s %-6s %-7s %10s %12s\n", "block", "regs", "fields", "prec", "time_s", "vs_first");
    for (const KernelShape& shape : cuda_kernel_shapes()) {
      CudaTuning tuning;
      tuning.shape = shape;
      for (int m = 0; m < 2; ++m)
        for (int p = 0; p < 2; ++p) {
          const unsigned mask = m ? unsigned(bit_g_z) : 0x3ffu;
          const Precision precision = p ? Precision::Single : Precision::Double;
          std::vector<double> sums;
          const double t = best_time(repeat, [&] { sums = forward_cuda(prisms, stations, mask, precision, silent, tuning); });
          if (reference[m][p].empty()) reference[m][p] = sums;
          double worst = 0;
          for (int f = 0; f < field_count; ++f) {
            if (!(mask & (1u << f))) continue;
            worst = std::max(worst, largest_relative_difference(&sums[f * n], &reference[m][p][f * n], n));
          }
          std::printf("%-6d %-6d %-6s %-7s %10.4f %12.2e\n", shape.block_size, shape.max_registers, m ? "g_z" : "all",
                      p ? "single" : "double", t, worst);
          std::fflush(stdout);
        }
    }
    return 0;
  }

  const auto t0 = std::chrono::steady_clock::now();
  const std::vector<GridNode> nodes = grid_nodes(grid);
  const double nodes_s = seconds_since(t0);
  std::printf("model 700x700x50 cells, %zu prisms, %zu weighted grid nodes (of %zu); %zu stations\n", prisms.size(),
              nodes.size(), std::size_t(701) * 701 * 51, n);
  std::printf("grid_nodes on the host: %.4f s (%d threads)\n", nodes_s, cpu_thread_count());
  forward_cuda(prisms, {stations.front()}, 0x3ffu, Precision::Double, silent);  // context and module load
  forward_cuda(nodes, {stations.front()}, 0x3ffu, Precision::Double, silent);
  std::printf("\n%-8s %-6s %-7s %10s %14s\n", "path", "fields", "prec", "time_s", "sources*st/s");
  std::vector<double> general[2][2], on_grid[2][2];  // [all|g_z][double|single]
  const unsigned masks[2] = {0x3ffu, unsigned(bit_g_z)};
  const Precision precisions[2] = {Precision::Double, Precision::Single};
  double times[2][2][2];
  for (int m = 0; m < 2; ++m)
    for (int p = 0; p < 2; ++p) {
      times[0][m][p] = best_time(repeat, [&] { general[m][p] = forward_cuda(prisms, stations, masks[m], precisions[p], silent); });
      // The grid path's time includes building the weighted nodes.
      times[1][m][p] = best_time(repeat, [&] {
        on_grid[m][p] = forward_cuda(grid_nodes(grid), stations, masks[m], precisions[p], silent);
      });
      for (int path = 0; path < 2; ++path)
        std::printf("%-8s %-6s %-7s %10.4f %14.4g\n", path ? "grid" : "general", m ? "g_z" : "all",
                    p ? "single" : "double", times[path][m][p],
                    double(path ? nodes.size() : prisms.size()) * n / times[path][m][p]);
    }
  std::printf("\nspeed-up grid/general: all double %.1fx, g_z double %.1fx, all single %.1fx, g_z single %.1fx\n",
              times[0][0][0] / times[1][0][0], times[0][1][0] / times[1][1][0], times[0][0][1] / times[1][0][1],
              times[0][1][1] / times[1][1][1]);
  std::printf("single/double speed-up: general all %.2fx g_z %.2fx; grid all %.2fx g_z %.2fx\n",
              times[0][0][0] / times[0][0][1], times[0][1][0] / times[0][1][1], times[1][0][0] / times[1][0][1],
              times[1][1][0] / times[1][1][1]);
  std::printf("\nlargest |difference| / largest |field| against the general path in double (whole grid):\n");
  print_errors("grid double", on_grid[0][0], general[0][0], n, masks[0]);
  print_errors("grid single", on_grid[0][1], general[0][0], n, masks[0]);
  print_errors("general single", general[0][1], general[0][0], n, masks[0]);
  print_errors("grid double g_z kernel", on_grid[1][0], general[0][0], n, masks[1]);
  // Chunked against one chunk on the paper's case: 4 MiB of device memory.
  CudaTuning capped;
  capped.memory_limit_bytes = 4u << 20;
  const auto chunked = forward_cuda(prisms, stations, masks[0], Precision::Double, silent, capped);
  print_errors("general chunked (4 MiB) vs one chunk", chunked, general[0][0], n, masks[0]);
  return 0;
}

int main(int argc, char** argv) {
  return geobem::cli::run_stage("gravity_scale_bench", [&] { return run_bench(argc, argv); });
}

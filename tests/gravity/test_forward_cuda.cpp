// The CUDA driver against the OpenMP driver (the same point kernel): random
// prisms and stations to 1e-12 relative in double, the g_z-only kernel, a run
// long enough to take several launches, and single precision within the bound
// of the CPU test on the seed geometry; the grid path on CUDA against the
// CPU and against the general path; chunked streaming (a capped device
// memory budget) against one chunk.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <stdexcept>
#include <string>

#include "gpu/core/device.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/core/resource_error.hpp"
#include "gpu/core/warning.hpp"
#include "gpu/core/relative_difference.hpp"
#include "gpu/gravity/forward_drivers.hpp"
#include "gpu/gravity/gravity.hpp"
#include "gpu/gravity/grid_nodes.hpp"
#include "gpu/gravity/prism_kernels.hpp"
#include "gpu/gravity/rounding_estimate.hpp"
#include "mesh/prisms/model_generators.hpp"
#include "mesh/prisms/stations.hpp"
#include "tests/gravity/gravity_test_support.hpp"
#include "tests/support/backend_test.hpp"

namespace geobem::gravity {
namespace {

using test::relative_max_difference;

class ForwardCuda : public geobem::test::CudaTest {};

ForwardResult run(ComputeDevice device, const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                  Precision precision, const std::string& fields = "all") {
  ForwardOptions options;
  options.device = device;
  options.precision = precision;
  options.quiet = true;
  return forward_model(prisms, stations, parse_fields(fields), options);
}

std::vector<Prism> random_prisms(int n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> centre(-2000, 2000), depth(-1500, -50), size(5, 300), rho(-500, 800);
  std::vector<Prism> prisms;
  for (int i = 0; i < n; ++i) {
    const double e = centre(rng), n_ = centre(rng), top = depth(rng);
    const double a = size(rng), b = size(rng), c = size(rng);
    prisms.push_back({e - a / 2, e + a / 2, n_ - b / 2, n_ + b / 2, top - c, top, rho(rng)});
  }
  return prisms;
}

/// `n` stations over the prisms' area, 0 to 200 m above them.
std::vector<Station> random_stations(int n, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> where(-2500, 2500), height(0, 200);
  std::vector<Station> stations;
  for (int i = 0; i < n; ++i) stations.push_back({where(rng), where(rng), height(rng)});
  return stations;
}

TEST_F(ForwardCuda, RandomPrismsMatchCpuInDouble) {
  std::mt19937_64 rng(20261122);
  const auto prisms = random_prisms(3000, rng);
  const auto stations = random_stations(777, rng);
  const auto gpu = run(ComputeDevice::Cuda, prisms, stations, Precision::Double);
  const auto cpu = run(ComputeDevice::Cpu, prisms, stations, Precision::Double);
  const auto diff = relative_max_difference(gpu, cpu);
  for (int f = 0; f < field_count; ++f) EXPECT_LE(diff[f], 1e-12) << field_name(Field(f));
  const auto gpu_gz = run(ComputeDevice::Cuda, prisms, stations, Precision::Double, "g_z");
  ForwardResult cpu_gz;
  cpu_gz.fields = {Field::g_z};
  cpu_gz.values = {cpu.values[3]};
  EXPECT_LE(relative_max_difference(gpu_gz, cpu_gz)[0], 1e-12);
}

TEST_F(ForwardCuda, EveryTuningMatchesCpu) {
  // Both ways of calling the pair functions, a small and a large block
  // count, and every kernel shape (threads per block, register cap), raw sums
  // of the drivers: double to 1e-12, single within 2e-5 of the largest
  // magnitude of each field.
  std::mt19937_64 rng(7);
  const auto prisms = random_prisms(1000, rng);
  const auto stations = random_stations(300, rng);
  ProgressReporter quiet("test", 0, "pairs", true);
  const std::size_t n = stations.size();
  for (const unsigned mask : {0x3ffu, unsigned(bit_g_z)}) {
    const auto cpu = forward_cpu(prisms, stations, mask, Precision::Double, quiet);
    std::vector<CudaTuning> tunings;
    for (const bool out_of_line : {false, true})
      for (const int blocks_per_sm : {1, 32}) tunings.push_back(CudaTuning{out_of_line, blocks_per_sm});
    for (const KernelShape& shape : cuda_kernel_shapes()) {
      CudaTuning tuning;
      tuning.shape = shape;
      tunings.push_back(tuning);
    }
    for (const CudaTuning& tuning : tunings) {
      const auto gpu_double = forward_cuda(prisms, stations, mask, Precision::Double, quiet, tuning);
      const auto gpu_single = forward_cuda(prisms, stations, mask, Precision::Single, quiet, tuning);
      for (int f = 0; f < field_count; ++f) {
        if (!(mask & (1u << f))) continue;
        SCOPED_TRACE(std::string(field_name(Field(f))) + (tuning.out_of_line_pairs ? " out of line" : " inline") +
                     ", blocks/SM " + std::to_string(tuning.blocks_per_sm) + ", shape " +
                     std::to_string(tuning.shape.block_size) + "/" + std::to_string(tuning.shape.max_registers));
        EXPECT_LE(largest_relative_difference(&gpu_double[f * n], &cpu[f * n], n), 1e-12);
        EXPECT_LE(largest_relative_difference(&gpu_single[f * n], &cpu[f * n], n), 2e-5);
      }
    }
  }
}

TEST_F(ForwardCuda, ShapeNotCompiledIsRefused) {
  const std::vector<Prism> prisms{{0, 10, 0, 10, -10, 0, 1000}};
  const std::vector<Station> stations{{5, 5, 10}};
  ProgressReporter quiet("test", 0, "pairs", true);
  CudaTuning tuning;
  tuning.shape = {128, 100};
  EXPECT_THROW(forward_cuda(prisms, stations, 0x3ffu, Precision::Double, quiet, tuning), std::invalid_argument);
  tuning.shape = {64, 0};
  tuning.out_of_line_pairs = true;
  EXPECT_THROW(forward_cuda(prisms, stations, 0x3ffu, Precision::Double, quiet, tuning), std::invalid_argument);
}

TEST_F(ForwardCuda, SeveralLaunchesMatchCpu) {
  // 15,663 prisms × 200,000 stations: more pairs than one launch takes
  // (2^31), so the prisms go in two launches; the CPU checks every 1000th station.
  const auto prisms = prisms::grid_prisms(prisms::sphere_grid(prisms::couder_grid(175, 175, 25), prisms::couder_spheres()));
  const auto stations = prisms::grid_stations({0, 22000, 0, 22000, 500, 400, 100});
  const auto gpu = run(ComputeDevice::Cuda, prisms, stations, Precision::Double, "g_z");
  std::vector<Station> subset;
  ForwardResult gpu_subset;
  gpu_subset.fields = {Field::g_z};
  gpu_subset.values = {{}};
  for (std::size_t s = 0; s < stations.size(); s += 1000) {
    subset.push_back(stations[s]);
    gpu_subset.values[0].push_back(gpu.values[0][s]);
  }
  const auto cpu = run(ComputeDevice::Cpu, prisms, subset, Precision::Double, "g_z");
  EXPECT_LE(relative_max_difference(gpu_subset, cpu)[0], 1e-12);
}

TEST_F(ForwardCuda, SinglePrecisionOnTheSeedGeometry) {
  const auto prisms = prisms::grid_prisms(prisms::sphere_grid(prisms::couder_grid(175, 175, 25), prisms::couder_spheres()));
  const auto stations = prisms::grid_stations({0, 22000, 0, 22000, 15, 10, 100});
  const auto cpu_double = run(ComputeDevice::Cpu, prisms, stations, Precision::Double);
  const auto gpu_single = run(ComputeDevice::Cuda, prisms, stations, Precision::Single);
  const auto cpu_single = run(ComputeDevice::Cpu, prisms, stations, Precision::Single);
  const auto vs_double = relative_max_difference(gpu_single, cpu_double);
  const auto vs_single = relative_max_difference(gpu_single, cpu_single);
  for (int f = 0; f < field_count; ++f) {
    std::printf("%-9s cuda single vs cpu double %.2e, vs cpu single %.2e\n", field_name(Field(f)), vs_double[f],
                vs_single[f]);
    EXPECT_LE(vs_double[f], 2e-5) << field_name(Field(f));  // the bound of test_forward_cpu.cpp
    EXPECT_LE(vs_single[f], 2e-5) << field_name(Field(f));
  }
}

TEST_F(ForwardCuda, RoundingSumsMatchCpuWithTheSameTiles) {
  // The sphere model's prisms in grid order (tiles of 32 neighbours, far
  // from most stations: the tile bound) and random prisms (tiles spread over
  // the model: per source), one chunk and a 64 KiB budget (chunks of whole
  // tiles), both precisions, all ten fields and g_z alone.
  std::mt19937_64 rng(29);
  const auto grid = prisms::grid_prisms(prisms::sphere_grid(prisms::couder_grid(60, 60, 12), prisms::couder_spheres()));
  const auto random = random_prisms(3001, rng);
  const auto stations = prisms::grid_stations({0, 22000, 0, 22000, 23, 19, 100});
  ProgressReporter quiet("test", 0, "pairs", true);
  CudaTuning capped;
  capped.memory_limit_bytes = 64 * 1024;
  for (const auto* prisms : {&grid, &random})
    for (const Precision precision : {Precision::Double, Precision::Single})
      for (const unsigned mask : {0x3ffu, unsigned(bit_g_z)}) {
        std::vector<double> cpu, one, chunked;
        forward_cpu(*prisms, stations, mask, precision, quiet, &cpu);
        forward_cuda(*prisms, stations, mask, precision, quiet, {}, &one);
        forward_cuda(*prisms, stations, mask, precision, quiet, capped, &chunked);
        const std::size_t n = stations.size();
        // The bounds of far sources come from the device's single-precision
        // approximations (rsqrtf, __fdividef) and the host's correctly rounded
        // operations, both within [1, 1 + 2e-5] of the double bound
        // (test_far_rounding.cpp): the sums of squares and fourth powers agree to
        // 1e-4; the tiles' own bounds are double on both sides.
        for (int row = 0; row < 2 * rounding_groups; ++row) {
          if (mask == unsigned(bit_g_z) && row / 2 != group_g) continue;  // g_z alone sums the g group
          SCOPED_TRACE("row " + std::to_string(row) + ", mask " + std::to_string(mask));
          EXPECT_LE(largest_relative_difference(&one[row * n], &cpu[row * n], n), 1e-4);
          EXPECT_LE(largest_relative_difference(&chunked[row * n], &one[row * n], n), 1e-12);
        }
      }
}

TEST_F(ForwardCuda, GridPathMatchesCpuAndGeneralPath) {
  const PrismGrid grid = prisms::sphere_grid(prisms::couder_grid(175, 175, 25), prisms::couder_spheres());
  const auto prisms = prisms::grid_prisms(grid);
  const auto stations = prisms::grid_stations({-500, 22500, -500, 22500, 41, 37, 100});
  ForwardOptions options;
  options.quiet = true;
  const auto fields = parse_fields("all");
  const auto cpu_grid = forward_model_grid(grid, stations, fields, options);
  options.device = ComputeDevice::Cuda;
  const auto gpu_grid = forward_model_grid(grid, stations, fields, options);
  const auto gpu_general = forward_model(prisms, stations, fields, options);
  const auto vs_cpu = relative_max_difference(gpu_grid, cpu_grid);
  const auto vs_general = relative_max_difference(gpu_grid, gpu_general);
  for (int f = 0; f < field_count; ++f) {
    std::printf("%-9s cuda grid vs cpu grid %.2e, vs cuda general %.2e\n", field_name(Field(f)), vs_cpu[f],
                vs_general[f]);
    EXPECT_LE(vs_cpu[f], 1e-12) << field_name(Field(f));
    EXPECT_LE(vs_general[f], 1e-12) << field_name(Field(f));
  }
}

TEST_F(ForwardCuda, ChunkedStreamingMatchesOneChunk) {
  // A 64 KiB budget: 10,000 prisms (560 kB) and 3,000 stations (312 kB) go
  // in about 30 source chunks for each of 10 station chunks.
  std::mt19937_64 rng(5);
  const auto prisms = random_prisms(10000, rng);
  const auto stations = random_stations(3000, rng);
  const PrismGrid grid = prisms::sphere_grid(prisms::couder_grid(100, 100, 20), prisms::couder_spheres());
  const auto nodes = grid_nodes(grid);
  const auto grid_stations = prisms::grid_stations({0, 22000, 0, 22000, 60, 50, 100});
  ProgressReporter quiet("test", 0, "pairs", true);
  CudaTuning capped;
  capped.memory_limit_bytes = 64 * 1024;
  for (const unsigned mask : {0x3ffu, unsigned(bit_g_z)}) {
    const auto one = forward_cuda(prisms, stations, mask, Precision::Double, quiet);
    const auto chunked = forward_cuda(prisms, stations, mask, Precision::Double, quiet, capped);
    const auto one_grid = forward_cuda(nodes, grid_stations, mask, Precision::Double, quiet);
    const auto chunked_grid = forward_cuda(nodes, grid_stations, mask, Precision::Double, quiet, capped);
    const auto cpu_grid = forward_cpu(nodes, grid_stations, mask, Precision::Double, quiet);
    for (int f = 0; f < field_count; ++f) {
      if (!(mask & (1u << f))) continue;
      SCOPED_TRACE(field_name(Field(f)));
      const auto check = [&](const std::vector<double>& a, const std::vector<double>& b, std::size_t n) {
        EXPECT_LE(largest_relative_difference(&a[f * n], &b[f * n], n), 1e-12);
      };
      check(chunked, one, stations.size());
      check(chunked_grid, one_grid, grid_stations.size());
      check(chunked_grid, cpu_grid, grid_stations.size());
    }
  }
}

/// forward_model_on_device over a device copy of the inputs, its rows back on the host.
ForwardResult run_on_device(const std::vector<Prism>& prisms, const std::vector<Station>& stations,
                            const std::string& fields, Precision precision = Precision::Double) {
  ForwardOptions options;
  options.device = ComputeDevice::Cuda;
  options.precision = precision;
  options.quiet = true;
  const DeviceBuffer<Prism> d_prisms(prisms);
  const DeviceBuffer<Station> d_stations(stations);
  const auto field_list = parse_fields(fields);
  DeviceBuffer<double> values(field_list.size() * stations.size());
  forward_model_on_device(d_prisms.data(), prisms.size(), d_stations.data(), stations.size(), field_list, options,
                          values.data());
  const std::vector<double> rows = values.to_host();
  ForwardResult result;
  result.fields = field_list;
  for (std::size_t k = 0; k < field_list.size(); ++k)
    result.values.emplace_back(rows.begin() + k * stations.size(), rows.begin() + (k + 1) * stations.size());
  return result;
}

TEST_F(ForwardCuda, DeviceArraysMatchCpu) {
  // Prisms and stations already in device memory (the Python module's DLPack
  // path), zero-density prisms among them: the CPU's fields in double, the
  // host-array CUDA path's in single (the same kernels), every field and a
  // subset in canonical order.
  std::mt19937_64 rng(20261129);
  auto prisms = random_prisms(2000, rng);
  for (std::size_t i = 0; i < prisms.size(); i += 7) prisms[i].density = 0.0;
  const auto stations = random_stations(1500, rng);
  for (const Precision precision : {Precision::Double, Precision::Single}) {
    const auto reference =
        run(precision == Precision::Double ? ComputeDevice::Cpu : ComputeDevice::Cuda, prisms, stations, precision);
    const auto diff = relative_max_difference(run_on_device(prisms, stations, "all", precision), reference);
    for (int f = 0; f < field_count; ++f) EXPECT_LE(diff[f], 1e-12) << field_name(Field(f));
  }
  const auto cpu = run(ComputeDevice::Cpu, prisms, stations, Precision::Double, "g_zz,g_e");
  const auto gpu = run_on_device(prisms, stations, "g_zz,g_e");
  ASSERT_EQ(gpu.fields, cpu.fields);
  for (const double d : relative_max_difference(gpu, cpu)) EXPECT_LE(d, 1e-12);
}

TEST_F(ForwardCuda, DeviceArraysSeeAFaceFromTheSurveySide) {
  // The unit cube at 1000 kg/m³ from (0.5, 0.5, 1) on its top face: g_zz
  // 365.60171012785 E (mpmath, edge_reference.py), in both precisions within
  // the host path's estimate.
  const std::vector<Prism> cube{{0, 1, 0, 1, 0, 1, 1000}};
  const std::vector<Station> top{{0.5, 0.5, 1}};
  for (const Precision precision : {Precision::Double, Precision::Single}) {
    ForwardOptions options;
    options.precision = precision;
    options.quiet = true;
    const double estimate = forward_model(cube, top, parse_fields("g_zz"), options).error_estimate[0][0];
    const double value = run_on_device(cube, top, "g_zz", precision).values[0][0];
    EXPECT_NEAR(value, 365.60171012785, 1e-9 * 365.6 + estimate * 365.6);
  }
}

TEST_F(ForwardCuda, DeviceArraysAreCheckedAndWarnedLikeHostArrays) {
  std::vector<Prism> prisms{{0, 1, 0, 1, 0, 1, 1000}, {2, 3, 0, 1, 0, 1, 500}};
  std::vector<Station> stations{{0.5, 0.5, 2}, {1, 1, 1}, {1e9, 0, 0}};
  // The same warnings as the host path: NaN on the first prism's vertex, the far station.
  std::vector<std::string> host_warnings, device_warnings;
  {
    WarningCapture capture;
    run(ComputeDevice::Cpu, prisms, stations, Precision::Double, "g_zz");
    host_warnings = capture.messages();
  }
  {
    WarningCapture capture;
    const auto gpu = run_on_device(prisms, stations, "g_zz");
    device_warnings = capture.messages();
    EXPECT_TRUE(std::isnan(gpu.values[0][1]));
  }
  EXPECT_EQ(host_warnings.size(), 2u);
  EXPECT_EQ(device_warnings, host_warnings);
  // The same messages for a bad prism and a bad station, naming the index.
  const auto message = [](const std::function<void()>& call) {
    try {
      call();
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  prisms[1].top = prisms[1].bottom;
  EXPECT_EQ(message([&] { run_on_device(prisms, stations, "g_z"); }),
            message([&] { run(ComputeDevice::Cpu, prisms, stations, Precision::Double, "g_z"); }));
  EXPECT_NE(message([&] { run_on_device(prisms, stations, "g_z"); }).find("prism 1"), std::string::npos);
  prisms[1].top = 1;
  stations[2].northing = NAN;
  EXPECT_EQ(message([&] { run_on_device(prisms, stations, "g_z"); }),
            message([&] { run(ComputeDevice::Cpu, prisms, stations, Precision::Double, "g_z"); }));
  EXPECT_NE(message([&] { run_on_device(prisms, stations, "g_z"); }).find("station 2"), std::string::npos);
}

TEST_F(ForwardCuda, DeviceArraysBeyondTheBudgetAreRefusedHostArraysStream) {
  // A 4 KiB device memory limit: device arrays need more beside the inputs
  // (57 bytes a prism, 5,700 for 100) and are refused before any work, naming
  // the budget; host arrays stream in chunks within it and match the CPU.
  std::mt19937_64 rng(20261130);
  const auto prisms = random_prisms(100, rng);
  const auto stations = random_stations(10, rng);
  ForwardOptions options;
  options.device = ComputeDevice::Cuda;
  options.quiet = true;
  options.device_memory_limit_bytes = 4096;
  const DeviceBuffer<Prism> d_prisms(prisms);
  const DeviceBuffer<Station> d_stations(stations);
  DeviceBuffer<double> values(stations.size());
  try {
    forward_model_on_device(d_prisms.data(), prisms.size(), d_stations.data(), stations.size(), parse_fields("g_z"),
                            options, values.data());
    FAIL() << "no refusal";
  } catch (const ResourceError& error) {
    EXPECT_NE(std::string(error.what()).find("the budget is 4096 bytes"), std::string::npos) << error.what();
  }
  const auto streamed = forward_model(prisms, stations, parse_fields("g_z"), options);
  const auto cpu = run(ComputeDevice::Cpu, prisms, stations, Precision::Double, "g_z");
  for (const double d : relative_max_difference(streamed, cpu)) EXPECT_LE(d, 1e-12);
}

TEST_F(ForwardCuda, DeviceArraysStayOnTheDevice) {
  // Generic stations: only counts and the summary behind the warnings come
  // to the host (a few hundred bytes), never the tables (56 bytes a prism).
  std::mt19937_64 rng(7);
  const auto prisms = random_prisms(2000, rng);
  const auto stations = random_stations(1500, rng);
  const auto cpu = run(ComputeDevice::Cpu, prisms, stations, Precision::Double, "all");
  const auto gpu = run_on_device(prisms, stations, "all");
  for (const double d : relative_max_difference(gpu, cpu)) EXPECT_LE(d, 1e-12);
  EXPECT_GT(forward_model_on_device_host_bytes(), 0u);
  EXPECT_LE(forward_model_on_device_host_bytes(), 1024u);

  // A station on the cube's top face, one on a vertex, one above, one far:
  // the CPU's values (g_zz 365.60171012785 E on the face, NaN on the vertex)
  // and warnings; only the two stations on the cube and the cube itself (not
  // the second, distant prism) travel besides the counts.
  const std::vector<Prism> model{{0, 1, 0, 1, 0, 1, 1000}, {10, 11, 0, 1, 0, 1, 500}};
  const std::vector<Station> survey{{0.5, 0.5, 2}, {0.5, 0.5, 1}, {1, 1, 1}, {1e9, 0, 0}};
  for (const Precision precision : {Precision::Double, Precision::Single}) {
    SCOPED_TRACE(precision == Precision::Double ? "double" : "single");
    std::vector<std::string> host_warnings, device_warnings;
    ForwardResult host, device;
    {
      WarningCapture capture;
      ForwardOptions options;
      options.precision = precision;
      options.force = true;
      options.quiet = true;
      host = forward_model(model, survey, parse_fields("all"), options);
      host_warnings = capture.messages();
    }
    {
      WarningCapture capture;
      ForwardOptions options;
      options.device = ComputeDevice::Cuda;
      options.precision = precision;
      options.force = true;
      options.quiet = true;
      const DeviceBuffer<Prism> d_prisms(model);
      const DeviceBuffer<Station> d_stations(survey);
      DeviceBuffer<double> values(field_count * survey.size());
      forward_model_on_device(d_prisms.data(), model.size(), d_stations.data(), survey.size(), parse_fields("all"),
                              options, values.data());
      const std::vector<double> rows = values.to_host();
      device.fields = host.fields;
      for (int k = 0; k < field_count; ++k)
        device.values.emplace_back(rows.begin() + k * survey.size(), rows.begin() + (k + 1) * survey.size());
      device_warnings = capture.messages();
    }
    EXPECT_EQ(device_warnings, host_warnings);
    ASSERT_GE(host_warnings.size(), 2u);  // NaN at the vertex, the far station
    EXPECT_NE(host_warnings.back().find("miss the relative accuracy"), std::string::npos);
    for (int f = 0; f < field_count; ++f)
      for (std::size_t s = 0; s < survey.size(); ++s) {
        SCOPED_TRACE(std::string(field_name(Field(f))) + " at station " + std::to_string(s));
        const double a = device.values[f][s], b = host.values[f][s];
        if (std::isnan(b)) {
          EXPECT_TRUE(std::isnan(a));
        } else {
          // Within twice the host's estimate, relative to its group's largest value at the station.
          const auto group = [](int g) { return g == 0 ? 0 : (g <= 3 ? 1 : 2); };
          double scale = 0;
          for (int g = 0; g < field_count; ++g)
            if (group(g) == group(f) && std::isfinite(host.values[g][s]))
              scale = std::max(scale, std::abs(host.values[g][s]));
          const double estimate = host.error_estimate[f][s];
          if (std::isfinite(estimate)) {
            EXPECT_LE(std::abs(a - b), 1e-12 * scale + 2 * estimate * scale);
          }
        }
      }
    EXPECT_TRUE(std::isnan(device.values[9][2]));
    if (precision == Precision::Double) {
      // The cube's own g_zz on its top face (mpmath, 365.60171012785 E) plus
      // the distant prism's, which the CPU gives off the prism's faces.
      ForwardOptions cpu;
      cpu.quiet = true;
      const double distant = forward_model({model[1]}, {survey[1]}, parse_fields("g_zz"), cpu).values[0][0];
      EXPECT_NEAR(device.values[9][1], 365.60171012785 + distant, 1e-9 * 365.6);
    }
    const std::size_t exceptional = 2 * (sizeof(Station) + sizeof(unsigned long long)) + sizeof(Prism);
    EXPECT_GE(forward_model_on_device_host_bytes(), exceptional);
    EXPECT_LE(forward_model_on_device_host_bytes(), 1024u + exceptional);
  }
}

}  // namespace
}  // namespace geobem::gravity

#include "gpu/bem/laplace_mpi.hpp"

#include <limits>
#include <stdexcept>
#include <string>

namespace geobem::bem {

namespace {

void check(int status, const char* call) {
  if (status != MPI_SUCCESS) throw std::runtime_error(std::string(call) + " failed with code " + std::to_string(status));
}

}  // namespace

std::vector<int> rank_frequencies(int frequencies, int rank, int size) {
  std::vector<int> mine;
  for (int l = rank; l < frequencies; l += size) mine.push_back(l);
  return mine;
}

template <class Solution>
LaplaceSolution solve_laplace_mpi(const BemModel& model, const CqSettings& settings, const CqOptions& options,
                                  MPI_Comm comm, CqTimings& timings) {
  int rank = 0, size = 1;
  check(MPI_Comm_rank(comm, &rank), "MPI_Comm_rank");
  check(MPI_Comm_size(comm, &size), "MPI_Comm_size");
  CqOptions rank_options = options;
  rank_options.quiet = options.quiet || rank != 0;
  if (options.device == ComputeDevice::Cuda) select_cuda_device_for_rank(rank);
  const int frequencies = cq_frequency_count(settings);
  const std::vector<int> mine = rank_frequencies(frequencies, rank, size);
  // A rank with no frequency (more ranks than frequencies) solves nothing.
  LaplaceSolution part;
  if (mine.empty()) {
    part.unknowns = model.unknown_count();
    part.load_cases = model.load_case_count();
  } else {
    part = solve_laplace<Solution>(model, settings, mine, rank_options, timings);
  }

  // Per frequency and case one column of n complex values, as doubles.
  const long column_doubles = 2L * part.unknowns;
  const long total_doubles = column_doubles * part.load_cases * frequencies;
  if (total_doubles > std::numeric_limits<int>::max())
    throw std::runtime_error("solve_laplace_mpi: " + std::to_string(total_doubles) +
                             " values exceed one MPI message; use fewer unknowns or frequencies");
  std::vector<int> counts(size), displacements(size);
  for (int r = 0; r < size; ++r) {
    counts[r] = static_cast<int>(column_doubles * part.load_cases * rank_frequencies(frequencies, r, size).size());
    displacements[r] = r ? displacements[r - 1] + counts[r - 1] : 0;
  }
  std::vector<Complex> gathered(rank == 0 ? total_doubles / 2 : 0);
  check(MPI_Gatherv(part.values.data(), counts[rank], MPI_DOUBLE, gathered.data(), counts.data(),
                    displacements.data(), MPI_DOUBLE, 0, comm),
        "MPI_Gatherv");
  // The hierarchical path's per-frequency record, 3 doubles each (steps,
  // error, residual), when any rank has one (a rank without frequencies has none).
  int any_hierarchical = part.solves.empty() ? 0 : 1;
  check(MPI_Allreduce(MPI_IN_PLACE, &any_hierarchical, 1, MPI_INT, MPI_MAX, comm), "MPI_Allreduce");
  std::vector<double> solves_gathered;
  if (any_hierarchical) {
    std::vector<double> own;
    for (const FrequencySolve& f : part.solves) own.insert(own.end(), {double(f.iterations), f.compression_error, f.residual});
    std::vector<int> solve_counts(size), solve_displacements(size);
    for (int r = 0; r < size; ++r) {
      solve_counts[r] = 3 * static_cast<int>(rank_frequencies(frequencies, r, size).size());
      solve_displacements[r] = r ? solve_displacements[r - 1] + solve_counts[r - 1] : 0;
    }
    solves_gathered.resize(rank == 0 ? 3 * static_cast<std::size_t>(frequencies) : 0);
    check(MPI_Gatherv(own.data(), static_cast<int>(own.size()), MPI_DOUBLE, solves_gathered.data(),
                      solve_counts.data(), solve_displacements.data(), MPI_DOUBLE, 0, comm),
          "MPI_Gatherv");
  }
  LaplaceSolution full;
  full.unknowns = part.unknowns;
  full.load_cases = part.load_cases;
  if (rank != 0) return full;
  if (any_hierarchical) {
    full.solves.resize(frequencies);
    std::size_t at = 0;
    for (int r = 0; r < size; ++r)
      for (int l : rank_frequencies(frequencies, r, size)) {
        full.solves[l] = {static_cast<int>(solves_gathered[at]), solves_gathered[at + 1], solves_gathered[at + 2]};
        at += 3;
      }
  }
  full.frequencies.resize(frequencies);
  for (int l = 0; l < frequencies; ++l) full.frequencies[l] = l;
  full.values.resize(gathered.size());
  // Rank r's block: its LaplaceSolution layout, [case][k][unknown] over its frequencies.
  for (int r = 0; r < size; ++r) {
    const std::vector<int> theirs = rank_frequencies(frequencies, r, size);
    const Complex* block = gathered.data() + displacements[r] / 2;
    for (int c = 0; c < full.load_cases; ++c)
      for (std::size_t k = 0; k < theirs.size(); ++k)
        std::copy_n(block + (c * theirs.size() + k) * full.unknowns, full.unknowns, &full.at(c, theirs[k], 0));
  }
  return full;
}

template LaplaceSolution solve_laplace_mpi<ElastodynamicFullSpace>(const BemModel&, const CqSettings&,
                                                                   const CqOptions&, MPI_Comm, CqTimings&);

}  // namespace geobem::bem

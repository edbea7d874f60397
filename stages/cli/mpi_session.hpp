#pragma once
// MPI for the stages that split work over ranks (geobem-gravity,
// geobem-magnetic, geobem-laplace, geobem-integrate cubature): initialised
// only when the stage was started by mpirun, finalised on every way out of
// the scope, exceptions included. A stage holds one through run_mpi_stage
// (below).
#include <mpi.h>

#include <string>

#include "stages/cli/stage_options.hpp"

namespace geobem::cli {

class MpiSession {
 public:
  /// MPI_Init when launched_by_mpirun(); otherwise one rank of one, no MPI.
  MpiSession();
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  bool active() const { return active_; }
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// Seconds from a fixed point (MPI_Wtime under MPI, a steady clock otherwise).
  double seconds() const;

  /// The process's exit status for a run that ended with `status`: a failed
  /// rank of several aborts them all (MPI_Abort), since the others may wait
  /// for it in a collective call forever; otherwise `status` itself.
  int exit_status(int status) const;

  /// Started by mpirun (Open MPI or a PMI launcher)?
  static bool launched_by_mpirun();

 private:
  bool active_ = false;
  int rank_ = 0, size_ = 1;
};

/// A stage's main() when the stage splits its work over MPI ranks: run_stage
/// (stage_options.hpp) with `body(options, command, session)`, the session
/// held for the whole run, and the exit status of the ranks (exit_status).
template <class Options, class Body>
int run_mpi_stage(const std::string& program, const std::string& summary,
                  void (*declare)(StageOptions& command, Options& options), int argc, const char* const argv[],
                  Body&& body) {
  const MpiSession mpi;
  return mpi.exit_status(run_stage(program, summary, declare, argc, argv,
                                   [&](const Options& options, const StageOptions& command) {
                                     return body(options, command, mpi);
                                   }));
}

}  // namespace geobem::cli

#include "stages/cli/mpi_session.hpp"

#include <chrono>
#include <cstdlib>

namespace geobem::cli {

bool MpiSession::launched_by_mpirun() { return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE"); }

MpiSession::MpiSession() : active_(launched_by_mpirun()) {
  if (!active_) return;
  MPI_Init(nullptr, nullptr);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  if (active_) MPI_Finalize();
}

int MpiSession::exit_status(int status) const {
  if (status != 0 && active_ && size_ > 1) MPI_Abort(MPI_COMM_WORLD, status);
  return status;
}

double MpiSession::seconds() const {
  if (active_) return MPI_Wtime();
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace geobem::cli

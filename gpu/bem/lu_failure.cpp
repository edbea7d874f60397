#include "gpu/bem/lu_failure.hpp"

namespace geobem::bem {

const LuRoutine& lapack_zgesv() {
  static const LuRoutine routine{
      "LAPACK zgesv", "factorisation and solve", "exactly zero", {"N", "NRHS", "A", "LDA", "IPIV", "B", "LDB", "INFO"}};
  return routine;
}

const LuRoutine& cusolver_zgetrf() {
  static const LuRoutine routine{"cuSOLVER cusolverDnZgetrf",
                                 "factorisation",
                                 "exactly zero",
                                 {"m", "n", "A", "lda", "Workspace", "devIpiv", "devInfo"}};
  return routine;
}

const LuRoutine& cusolver_zgetrs() {
  static const LuRoutine routine{
      "cuSOLVER cusolverDnZgetrs", "solve", "", {"trans", "n", "nrhs", "A", "lda", "devIpiv", "B", "ldb", "devInfo"}};
  return routine;
}

const LuRoutine& batched_lu_factorisation() {
  static const LuRoutine routine{"geobem BatchedLuSolver", "factorisation", "zero or not a number", {}};
  return routine;
}

std::string lu_failure_message(int frequency, const LuRoutine& routine, int info) {
  const std::string value = std::to_string(info);
  const std::string failed = "CQ frequency " + std::to_string(frequency) + ": the LU " + routine.step + " (" +
                             routine.name + ") failed with info = " + value;
  if (info > 0 && !routine.pivot_failure.empty())
    return failed + ": U(" + value + "," + value + ") is " + routine.pivot_failure +
           ", so the BEM system of this frequency is singular and was not solved";
  const long parameter = -static_cast<long>(info);  // long: −INT_MIN overflows an int
  if (parameter >= 1 && parameter <= static_cast<long>(routine.parameters.size()))
    return failed + ": its parameter " + std::to_string(parameter) + " (" + routine.parameters[parameter - 1] +
           ") had an illegal value";
  return failed + ", a status " + routine.name + " does not document";
}

}  // namespace geobem::bem

#pragma once
// Messages for a failed dense LU solve of a CQ frequency's system. Every LU
// routine the CQ solvers call reports LAPACK's status convention, `info`
// (LAPACK Users' Guide, 3rd ed., zgetrf and zgesv; NVIDIA cuSOLVER
// documentation, cusolverDn<t>getrf and getrs): 0 on success; −i when its
// i-th parameter had an illegal value (cuSOLVER does not count the handle);
// i > 0, from a factorisation only, when U(i, i) is exactly zero: the
// factorisation completed, but U is singular and no solution was formed.
#include <string>
#include <vector>

namespace geobem::bem {

/// A dense LU routine as lu_failure_message names it.
struct LuRoutine {
  std::string name;                     ///< e.g. "cuSOLVER cusolverDnZgetrf"
  std::string step;                     ///< "factorisation", "solve" or "factorisation and solve"
  std::string pivot_failure;            ///< what U(i, i) is when info = i > 0; empty when it never is
  std::vector<std::string> parameters;  ///< its parameters in order (handle not counted), for info < 0
};

/// The routines of the CQ solvers: LAPACK zgesv (CPU path), cuSOLVER
/// getrf and getrs (StreamedLuSolver) and the batched LU (BatchedLuSolver,
/// which reports only a column without a nonzero pivot: all its candidates
/// zero or not a number).
const LuRoutine& lapack_zgesv();
const LuRoutine& cusolver_zgetrf();
const LuRoutine& cusolver_zgetrs();
const LuRoutine& batched_lu_factorisation();

/// The message of the error thrown when `routine` returned `info` ≠ 0 for
/// the system of CQ frequency `frequency` (the index l): the step that
/// failed, the routine, the value of info and its meaning (U(i, i) exactly
/// zero, or the i-th parameter and its name), e.g. "CQ frequency 7: the LU
/// factorisation (cuSOLVER cusolverDnZgetrf) failed with info = 12: U(12,12)
/// is exactly zero, so the BEM system of this frequency is singular and was
/// not solved". A status the routine does not document is said to be one.
std::string lu_failure_message(int frequency, const LuRoutine& routine, int info);

}  // namespace geobem::bem

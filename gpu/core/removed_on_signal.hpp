#pragma once
// What a run removes when a signal that asks it to stop ends it: the
// temporaries, staging folders and lock files of its outputs
// (docs/stage_contract.md, "Output sets"). Destructors remove them when an
// exception ends the run; SIGINT, SIGTERM, SIGHUP and SIGABRT skip the
// destructors, so a handler removes the paths registered here (with system
// calls only: it may run at any moment) and then lets the signal end the
// process as it would have. SIGKILL cannot be caught: what a killed run
// leaves is recognised and removed by the next run into the same output.
#include <sys/types.h>

#include <filesystem>

namespace geobem {

/// Registers `path` (a file, or a folder removed with its contents) for
/// removal if one of the signals above ends the process, for as long as this
/// object lives (destruction or release() unregisters it; neither removes
/// anything). With `only_this_file`, the path is removed only while it still
/// names the file open there (its device and inode, read now): a lock file
/// that another run may have put in its place after a manual removal is kept.
/// Only the registering process removes it: a child forked without exec
/// (Gmsh's, mesh/surface/gmsh_process) that a signal ends leaves its
/// parent's paths alone. The handlers are installed on first use, for each signal whose disposition
/// is still the default (one that a caller ignores or handles is left alone).
/// At most 64 paths are registered at once; beyond that a path is left to
/// the next run (no error: removal on a signal is a courtesy, not a promise).
class RemovedOnSignal {
 public:
  RemovedOnSignal() = default;
  explicit RemovedOnSignal(const std::filesystem::path& path, bool only_this_file = false);
  ~RemovedOnSignal() { release(); }
  RemovedOnSignal(RemovedOnSignal&& other) noexcept : slot_(other.slot_) { other.slot_ = -1; }
  RemovedOnSignal& operator=(RemovedOnSignal&& other) noexcept;
  RemovedOnSignal(const RemovedOnSignal&) = delete;
  RemovedOnSignal& operator=(const RemovedOnSignal&) = delete;

  /// Unregisters the path (it was renamed into place or removed).
  void release();

 private:
  int slot_ = -1;
};

}  // namespace geobem

#pragma once
// Gmsh runs in a child process of its own (fork, no exec), so that what it
// does with an input cannot reach the stage: a crash or an abort (Gmsh 4.8
// throws inside OpenMP regions, which ends the process), an endless loop of
// a .geo script, or memory it takes without end ends the child, and the
// stage reports it (exit status 1) with Gmsh's own error lines. The child
//  - has its CPU time bounded: `script_cpu_seconds` until the work reports
//    its script read (GmshChannel::script_done), `total_cpu_seconds` in all;
//    the parent also stops it after 3 x the total in wall-clock time;
//  - has its address space bounded by the memory available when it starts,
//    writes no core file and runs OpenMP on one thread (libgomp's thread pool
//    does not survive fork());
//  - runs under a seccomp filter (libseccomp) that refuses starting
//    programs, opening files for writing, creating, renaming or removing
//    files and folders, and opening sockets: a second wall behind the .geo
//    check (geo_check.hpp), which also keeps Gmsh from rewriting FLTK's
//    preference files (/etc/fltk, ~/.fltk) as it starts. Where the kernel
//    refuses the filter, work that `requires_confinement` is refused, other
//    work runs without it.
// The child's stdout and stderr (Gmsh's terminal messages) come back to the
// parent through a pipe, its result through another.
#include <functional>
#include <string>

namespace geobem::surface {

struct GmshLimits {
  double script_cpu_seconds = 10.0;  ///< reading a .geo script (its loops, booleans, ...)
  double total_cpu_seconds = 600.0;  ///< the script and the meshing together
};

/// The child's side: reports progress and its result to the parent.
class GmshChannel {
 public:
  explicit GmshChannel(int fd, double total_cpu_seconds) : fd_(fd), total_cpu_seconds_(total_cpu_seconds) {}
  /// The script is read: from now on the total CPU time applies.
  void script_done();

 private:
  friend std::string run_gmsh_process(const std::string&, const GmshLimits&, bool,
                                      const std::function<std::string(GmshChannel&)>&);
  void send(char tag, const std::string& payload);
  int fd_;
  double total_cpu_seconds_;
};

/// Runs `work` in a child process as described above and returns the bytes
/// it returned. Throws std::runtime_error "CONTEXT: ..." with the message of
/// an exception `work` threw, or saying how the child ended otherwise (a
/// signal, the CPU-time or wall-clock limit, an exit without a result)
/// followed by the last error lines Gmsh printed.
std::string run_gmsh_process(const std::string& context, const GmshLimits& limits, bool requires_confinement,
                             const std::function<std::string(GmshChannel&)>& work);

}  // namespace geobem::surface

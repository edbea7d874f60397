#include "gpu/potential/station_sums_cpu.hpp"

#include <atomic>

namespace geobem::potential {
namespace {

std::atomic<int> last_threads{0};

}  // namespace

void note_cpu_threads(int threads) { last_threads = threads; }

int last_cpu_thread_count() { return last_threads; }

}  // namespace geobem::potential

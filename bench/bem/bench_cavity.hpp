#pragma once
// The pressurized spherical cavity as a benchmark mode of bench_bem
// (bench_cavity.cpp): errors against Sharpe's closed form and per-stage times.

namespace geobem::bench {

/// bench_bem cavity|cavity-laplace|cavity-cq ... (argv[1] is the mode); returns the exit status.
int cavity_benchmark(int argc, char** argv);

}  // namespace geobem::bench

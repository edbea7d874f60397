// The hierarchical CQ-BEM beside hmat-oss (Airbus's CPU H-matrix library,
// Debian libhmat-oss-dev; GPL-2, so in this benchmark only, never in the
// product) on one CQ frequency of the pressurized cavity:
//   bench_hmat_oss MESH.vtu DT STEPS L EPS [REPEATS]
// The dense system of frequency l (tree order, tractions scaled as the
// hierarchical path's), its entries handed to hmat-oss one by one
// (simple_compute), compressed by its ACA+ at EPS with the same standard
// admissibility, η = 1, and cluster trees of the unknowns' collocation points;
// ours compressed from the pair integrals (assemble_compressed_cpu) at EPS.
// Printed for each: the low-rank and dense leaves kept (the damping drops
// some of ours), the compressed bytes, the seconds of one matvec (median of
// REPEATS, default 20), and its relative error ‖Ĥx − Ax‖/‖Ax‖ against the
// dense matrix for a random x (fixed seed). Run with OMP_NUM_THREADS=1 to
// compare one core with one core.
#include <hmat/hmat.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/hierarchical/hierarchical_assembly.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"
#include "gpu/core/seconds_since.hpp"
#include "mesh/surface/vtk_surface_io.hpp"
#include "tests/bem/cavity_case.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::bem::hierarchical;
using geobem::seconds_since;

/// The dense matrix hmat-oss reads, entry by entry.
struct DenseEntries {
  const std::vector<std::complex<double>>* matrix;
  int n;
};

void dense_entry(void* data, int i, int j, void* result) {
  const DenseEntries* entries = static_cast<const DenseEntries*>(data);
  *static_cast<std::complex<double>*>(result) = (*entries->matrix)[i + static_cast<std::size_t>(j) * entries->n];
}

double relative_error(const std::vector<std::complex<double>>& y, const std::vector<std::complex<double>>& reference) {
  double difference = 0.0, norm = 0.0;
  for (std::size_t k = 0; k < y.size(); ++k) {
    difference += std::norm(y[k] - reference[k]);
    norm += std::norm(reference[k]);
  }
  return std::sqrt(difference / norm);
}

template <class F>
double median_seconds(int repeats, F run) {
  std::vector<double> seconds;
  for (int k = 0; k < repeats; ++k) {
    const auto start = std::chrono::steady_clock::now();
    run();
    seconds.push_back(seconds_since(start));
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6 && argc != 7) {
    std::fprintf(stderr, "usage: bench_hmat_oss MESH.vtu DT STEPS L EPS [REPEATS]\n");
    return 2;
  }
  const BemModel model = geobem::test::cavity_model(geobem::surface::read_vtk_surface(argv[1]));
  const CqSettings settings{std::atoi(argv[3]), std::atof(argv[2])};
  const int l = std::atoi(argv[4]), repeats = argc == 7 ? std::max(1, std::atoi(argv[6])) : 20;
  const double tolerance = std::atof(argv[5]);
  const Complex s = cq_laplace_point(settings, l);
  HierarchicalSettings hierarchical_settings;
  hierarchical_settings.tolerance = tolerance;
  const HierarchicalLayout layout = make_hierarchical_layout(model, hierarchical_settings);
  const std::vector<double> sums = rigid_body_sums_cpu(model);
  const FreeTerms free_terms = free_terms_in_tree_order(model, layout, sums);
  const int n = model.unknown_count(), free = static_cast<int>(model.free_nodes.size());

  // The dense system in tree order, tractions scaled (the operator both compress).
  auto start = std::chrono::steady_clock::now();
  std::vector<Complex> matrix, rhs;
  assemble_system_cpu(model, sums, s, matrix, rhs);
  const double dense_seconds = seconds_since(start);
  std::vector<std::complex<double>> a(static_cast<std::size_t>(n) * n);
  for (int j = 0; j < n; ++j) {
    const int block_j = layout.rows.order[j / 3];
    const double scale = block_j < free ? 1.0 : layout.traction_scale;
    for (int i = 0; i < n; ++i) {
      const Complex v = scale * matrix[3 * layout.rows.order[i / 3] + i % 3 + (3 * static_cast<std::size_t>(block_j) + j % 3) * n];
      a[i + static_cast<std::size_t>(j) * n] = {v.re, v.im};
    }
  }
  std::mt19937_64 random(7);
  std::normal_distribution<double> normal;
  std::vector<std::complex<double>> x(n), reference(n, 0.0);
  for (auto& v : x) v = {normal(random), normal(random)};
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) reference[i] += a[i + static_cast<std::size_t>(j) * n] * x[j];

  // hmat-oss: dofs at their collocation points (tree order), ACA+ at EPS.
  hmat_settings_t hmat_settings;
  hmat_get_parameters(&hmat_settings);
  hmat_set_parameters(&hmat_settings);
  hmat_interface_t hmat;
  hmat_init_default_interface(&hmat, HMAT_DOUBLE_COMPLEX);
  if (hmat.init() != 0) {
    std::fprintf(stderr, "bench_hmat_oss: hmat-oss did not initialise\n");
    return 1;
  }
  std::vector<double> coordinates(3 * static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const Vec3 p = model.collocation_points[layout.rows.order[i / 3]];
    coordinates[3 * i] = p.x;
    coordinates[3 * i + 1] = p.y;
    coordinates[3 * i + 2] = p.z;
  }
  start = std::chrono::steady_clock::now();
  hmat_clustering_algorithm_t* clustering = hmat_create_clustering_median();
  hmat_cluster_tree_t* tree = hmat_create_cluster_tree(coordinates.data(), 3, n, clustering);
  hmat_delete_clustering(clustering);
  hmat_admissibility_t* admissibility = hmat_create_admissibility_standard(1.0);
  hmat_matrix_t* h = hmat.create_empty_hmatrix_admissibility(tree, tree, 0, admissibility);
  hmat_delete_admissibility(admissibility);
  DenseEntries entries{&a, n};
  hmat_assemble_context_t context;
  hmat_assemble_context_init(&context);
  context.user_context = &entries;
  context.compression = hmat_create_compression_aca_plus(tolerance);
  context.simple_compute = dense_entry;
  context.lower_symmetric = 0;
  hmat.assemble_generic(h, &context);
  hmat_delete_compression(context.compression);
  const double hmat_assembly = seconds_since(start);
  hmat_info_t info;
  hmat.get_info(h, &info);
  std::vector<std::complex<double>> y(n);
  const std::complex<double> one(1.0), zero(0.0);
  const double hmat_matvec = median_seconds(repeats, [&] {
    std::vector<std::complex<double>> b = x;
    hmat.gemv('N', const_cast<std::complex<double>*>(&one), h, b.data(), const_cast<std::complex<double>*>(&zero),
              y.data(), 1);
  });
  const double hmat_error = relative_error(y, reference);

  // Ours, from the pair integrals.
  start = std::chrono::steady_clock::now();
  std::vector<std::vector<Complex>> ours_rhs;
  const CompressedOperator op = assemble_compressed_cpu(model, layout, free_terms, s, tolerance, ours_rhs);
  const double ours_assembly = seconds_since(start);
  std::vector<Complex> xc(n), yc(n);
  for (int i = 0; i < n; ++i) xc[i] = Complex(x[i].real(), x[i].imag());
  const double ours_matvec = median_seconds(repeats, [&] { op.apply(xc.data(), yc.data()); });
  for (int i = 0; i < n; ++i) y[i] = {yc[i].re, yc[i].im};
  const double ours_error = relative_error(y, reference);

  std::printf("code,elements,unknowns,l,s_dt,tolerance,low_rank_leaves,dense_leaves,bytes,dense_bytes,matvec_s,"
              "matvec_error,assembly_s\n");
  std::printf("hmat-oss,%zu,%d,%d,%.4f%+.4fi,%.1e,%zu,%zu,%zu,%.0f,%.4g,%.3g,%.3f (from the dense matrix, %.3f s)\n",
              model.areas.size(), n, l, s.re * settings.time_step, s.im * settings.time_step, tolerance,
              info.rk_count, info.full_count, 16 * info.compressed_size, 16.0 * n * n, hmat_matvec, hmat_error,
              hmat_assembly, dense_seconds);
  int kept_near = 0;
  for (char kept : op.near_kept) kept_near += kept;
  std::printf("geobem,%zu,%d,%d,%.4f%+.4fi,%.1e,%d,%d,%llu,%.0f,%.4g,%.3g,%.3f (from the pair integrals)\n",
              model.areas.size(), n, l, s.re * settings.time_step, s.im * settings.time_step, tolerance,
              op.report.low_rank_blocks, kept_near + op.report.dense_admissible_blocks,
              static_cast<unsigned long long>(op.report.near_bytes + op.report.low_rank_bytes +
                                              op.report.dense_admissible_bytes),
              16.0 * n * n,
              ours_matvec, ours_error, ours_assembly);
  hmat.destroy(h);
  hmat_delete_cluster_tree(tree);
  hmat.finalize();
  return 0;
}

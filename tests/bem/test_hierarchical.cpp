// The hierarchical CQ-BEM (gpu/bem/hierarchical/) against independent
// references: the trees' partition and admissibility; ACA and the SVD
// recompression against the matrices they approximate; GMRES against the
// residual it claims; and the compressed path against the dense one on the
// pressurized cavity and the rod: the compressed operator within its
// reported error of the dense matrix for random tolerances from 1e-10 to
// 1e-3, each frequency's x̂ within 10 ε of the dense x̂, the time series
// within 1e-4 (relative L2) of the dense ones, and the errors against
// Sharpe's and the rod's closed forms the same to the printed digit. Small
// leaves, so that meshes of a few hundred triangles have admissible blocks.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "gpu/bem/cq_solver.hpp"
#include "gpu/bem/hierarchical/aca.hpp"
#include "gpu/bem/hierarchical/block_jacobi.hpp"
#include "gpu/bem/hierarchical/gmres.hpp"
#include "gpu/bem/hierarchical/hierarchical_assembly.hpp"
#include "gpu/bem/hierarchical/hierarchical_layout.hpp"
#include "gpu/bem/hierarchical/hierarchical_solver.hpp"
#include "gpu/bem/hierarchical/low_rank.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/resource_error.hpp"
#include "tests/bem/cavity_case.hpp"
#include "tests/bem/hierarchical_support.hpp"
#include "tests/bem/rod_case.hpp"

namespace {

using namespace geobem::bem;
using namespace geobem::bem::hierarchical;
using namespace geobem::test;

CqOptions hierarchical_options(double tolerance) {
  CqOptions options(geobem::ComputeDevice::Cpu, true);
  options.solver = BemSolver::hierarchical;
  options.hierarchical = small_leaves(tolerance);
  return options;
}

std::vector<Vec3> points_on_sphere(int count, std::uint64_t seed) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> normal;
  std::vector<Vec3> points;
  for (int k = 0; k < count; ++k) {
    const Vec3 p{normal(random), normal(random), normal(random)};
    points.push_back((1.0 / norm(p)) * p);
  }
  return points;
}

TEST(HierarchicalTrees, ClustersPartitionTheirItemsAndBoxesHoldThem) {
  const std::vector<Vec3> points = points_on_sphere(1000, 7);
  std::vector<Box> boxes(points.size());
  for (std::size_t k = 0; k < points.size(); ++k) boxes[k].include(points[k]);
  const ClusterTree tree = build_cluster_tree(points, boxes, 10);
  std::vector<int> seen(points.size(), 0);
  for (int item : tree.order) ++seen[item];
  for (int count : seen) EXPECT_EQ(count, 1);
  for (std::size_t k = 0; k < points.size(); ++k) EXPECT_EQ(tree.order[tree.position[k]], static_cast<int>(k));
  int covered = 0;
  for (int leaf : tree.leaves()) {
    const Cluster& c = tree.clusters[leaf];
    EXPECT_EQ(c.begin, covered);  // leaves in tree order, back to back
    EXPECT_LE(c.size(), 10);
    EXPECT_GE(c.size(), 1);
    covered = c.end;
  }
  EXPECT_EQ(covered, 1000);
  for (const Cluster& c : tree.clusters) {
    for (int k = c.begin; k < c.end; ++k)
      for (int axis = 0; axis < 3; ++axis) {
        EXPECT_GE(points[tree.order[k]][axis], c.box.low[axis]);
        EXPECT_LE(points[tree.order[k]][axis], c.box.high[axis]);
      }
    if (c.leaf()) continue;
    EXPECT_EQ(tree.clusters[c.first_child].begin, c.begin);
    EXPECT_EQ(tree.clusters[c.first_child].end, tree.clusters[c.first_child + 1].begin);
    EXPECT_EQ(tree.clusters[c.first_child + 1].end, c.end);
  }
  EXPECT_THROW(build_cluster_tree(points, boxes, 0), std::invalid_argument);
}

TEST(HierarchicalTrees, BlockLeavesCoverEveryPairOnceAndAdmissibleOnesAreSeparated) {
  const BemModel model = cavity_model(cavity_mesh(0.5));
  for (const double eta : {0.5, 1.0, 2.0}) {
    HierarchicalSettings settings = small_leaves(1e-8);
    settings.eta = eta;
    const HierarchicalLayout layout = make_hierarchical_layout(model, settings);
    const std::size_t points = layout.rows.order.size(), elements = layout.elements.order.size();
    std::vector<int> covered(points * elements, 0);
    int admissible = 0;
    for (const LayoutBlock& block : layout.blocks) {
      const Cluster &tau = layout.rows.clusters[block.row_cluster], &sigma = layout.elements.clusters[block.column_cluster];
      for (int p = tau.begin; p < tau.end; ++p)
        for (int e = sigma.begin; e < sigma.end; ++e) ++covered[p * elements + e];
      if (!block.admissible) continue;
      ++admissible;
      // Every collocation point and element vertex of the block: farther apart than min(diam)/η.
      double closest = 1e300;
      for (int p = tau.begin; p < tau.end; ++p)
        for (int e = sigma.begin; e < sigma.end; ++e)
          for (int v = 0; v < 3; ++v)
            closest = std::min(closest, norm(model.collocation_points[layout.rows.order[p]] -
                                             model.nodes[model.triangles[3 * layout.elements.order[e] + v]]));
      EXPECT_GE(closest * eta, std::min(tau.box.diameter(), sigma.box.diameter()));
      EXPECT_GE(closest, block.distance);
    }
    EXPECT_GT(admissible, 0) << eta;
    for (int count : covered) ASSERT_EQ(count, 1) << eta;
  }
}

/// M_ij = e^{−|x_i − y_j|}/|x_i − y_j| between two separated point clouds,
/// by groups of 3 rows and 12 columns as the BEM's providers give them.
struct SmoothKernelBlock {
  std::vector<Vec3> x, y;
  int rows() const { return static_cast<int>(x.size()); }
  int columns() const { return static_cast<int>(y.size()); }
  int row_group() const { return 3; }
  int column_group() const { return 12; }
  Complex entry(int i, int j) const {
    const double r = norm(x[i] - y[j]);
    return Complex(std::exp(-r) * std::cos(2 * r) / r, std::exp(-r) * std::sin(2 * r) / r);
  }
  void compute_rows(int group, Complex* out) const {
    for (int r = 0; r < 3; ++r)
      for (int j = 0; j < columns(); ++j) out[r * columns() + j] = entry(3 * group + r, j);
  }
  void compute_columns(int group, Complex* out) const {
    for (int c = 0; c < 12; ++c)
      for (int i = 0; i < rows(); ++i) out[c * rows() + i] = entry(i, 12 * group + c);
  }
};

double frobenius_difference(const SmoothKernelBlock& m, const LowRank& f) {
  double squared = 0.0;
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < m.columns(); ++j) {
      Complex approximation;
      for (int l = 0; l < f.rank; ++l)
        approximation += f.u[i + static_cast<std::size_t>(l) * f.rows] * f.v[j + static_cast<std::size_t>(l) * f.columns];
      const Complex d = m.entry(i, j) - approximation;
      squared += d.re * d.re + d.im * d.im;
    }
  return std::sqrt(squared);
}

extern "C" void zgesvd_(const char* jobu, const char* jobvt, const int* m, const int* n, void* a, const int* lda,
                        double* s, void* u, const int* ldu, void* vt, const int* ldvt, void* work, const int* lwork,
                        double* rwork, int* info, std::size_t, std::size_t);

/// The singular values of the block (LAPACK), largest first.
std::vector<double> singular_values(const SmoothKernelBlock& m) {
  const int rows = m.rows(), columns = m.columns(), count = std::min(rows, columns), one = 1;
  std::vector<Complex> a(static_cast<std::size_t>(rows) * columns);
  for (int j = 0; j < columns; ++j)
    for (int i = 0; i < rows; ++i) a[i + static_cast<std::size_t>(j) * rows] = m.entry(i, j);
  std::vector<double> sigma(count), rwork(5 * count);
  int lwork = 4 * (rows + columns), info = 0;
  std::vector<Complex> work(lwork);
  Complex unused;
  zgesvd_("N", "N", &rows, &columns, a.data(), &rows, sigma.data(), &unused, &one, &unused, &one, work.data(), &lwork,
          rwork.data(), &info, 1, 1);
  EXPECT_EQ(info, 0);
  return sigma;
}

/// The smallest rank whose best approximation (the SVD's) is within `target`.
int optimal_rank(const std::vector<double>& sigma, double target) {
  int r = static_cast<int>(sigma.size());
  double tail = 0.0;
  for (; r > 0 && tail + sigma[r - 1] * sigma[r - 1] <= target * target; --r) tail += sigma[r - 1] * sigma[r - 1];
  return r;
}

TEST(HierarchicalAca, ReachesItsTargetOnASmoothKernelAndRecompressionKeepsItsBound) {
  SmoothKernelBlock block;
  for (const Vec3& p : points_on_sphere(90, 1)) block.x.push_back(0.5 * p);
  for (const Vec3& p : points_on_sphere(120, 2)) block.y.push_back(Vec3{3.0, 0.0, 0.0} + 0.5 * p);
  double norm_squared = 0.0;
  for (int i = 0; i < block.rows(); ++i)
    for (int j = 0; j < block.columns(); ++j) norm_squared += std::pow(abs(block.entry(i, j)), 2);
  const std::vector<double> sigma = singular_values(block);
  for (const double relative : {1e-3, 1e-6, 1e-9, 1e-12}) {
    const double target = relative * std::sqrt(norm_squared);
    AcaResult aca = adaptive_cross_approximation(block, target, 90, 11);
    ASSERT_TRUE(aca.converged) << relative;
    const double error = frobenius_difference(block, aca.factors);
    const int best = optimal_rank(sigma, target);
    std::printf("target %.1e: rank %d (the SVD's %d), error %.3g, estimate %.3g\n", target, aca.factors.rank, best,
                error, aca.error_estimate);
    // The estimate stands for the error (within a factor of 10 either way),
    // meets the target, and ACA's rank is near the best one.
    EXPECT_LE(aca.error_estimate, target);
    EXPECT_LT(error, 10 * target);
    EXPECT_LE(aca.factors.rank, 2 * best + 4);
    // Recompression: the SVD's tail, what it reports, within its bound, and
    // no more terms than the best rank for the error it then has.
    LowRank truncated = aca.factors;
    const double dropped = recompress(truncated, target);
    const double after = frobenius_difference(block, truncated);
    EXPECT_LE(dropped, target * (1 + 1e-12));
    EXPECT_LE(truncated.rank, best);
    EXPECT_LE(after, error + dropped + 1e-12 * std::sqrt(norm_squared));
    EXPECT_NEAR(frobenius_norm_squared(truncated), frobenius_norm_squared(aca.factors),
                2 * dropped * std::sqrt(norm_squared) + 1e-12 * norm_squared);
  }
  // A zero block: rank 0 at once, exactly.
  SmoothKernelBlock far = block;
  for (Vec3& y : far.y) y = y + Vec3{1e3, 0, 0};
  const AcaResult nothing = adaptive_cross_approximation(far, 1e-300 + 0.0, 90, 3);
  EXPECT_TRUE(nothing.converged);
  EXPECT_EQ(nothing.factors.rank, 0);
}

TEST(HierarchicalGmres, ReachesTheResidualItReportsAndSaysWhenItDoesNot) {
  // A complex nonsymmetric matrix I + 0.5 R/√n (R standard normal) with
  // a Jacobi preconditioner: its residual, recomputed here, is the one reported.
  const int n = 300;
  std::mt19937_64 random(5);
  std::normal_distribution<double> normal;
  std::vector<Complex> a(static_cast<std::size_t>(n) * n), b(n), x(n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      a[i + j * n] = Complex(i == j ? 1.0 + 0.1 * i / n : 0.0) +
                     (0.5 / std::sqrt(double(n))) * Complex(normal(random), normal(random));
  for (Complex& v : b) v = Complex(normal(random), normal(random));
  auto apply = [&](const Complex* in, Complex* out) {
    for (int i = 0; i < n; ++i) out[i] = Complex();
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) out[i] += a[i + j * n] * in[j];
  };
  auto jacobi = [&](const Complex* in, Complex* out) {
    for (int i = 0; i < n; ++i) out[i] = in[i] / a[i + i * n];
  };
  for (const double tolerance : {1e-4, 1e-8, 1e-12}) {
    const GmresResult result = gmres(HostVectors(n), apply, jacobi, b.data(), x.data(), tolerance, 20, 500);
    std::vector<Complex> ax(n);
    apply(x.data(), ax.data());
    double residual = 0.0, b_norm = 0.0;
    for (int i = 0; i < n; ++i) {
      residual += std::pow(abs(b[i] - ax[i]), 2);
      b_norm += std::pow(abs(b[i]), 2);
    }
    std::printf("tolerance %.0e: %d steps, relative residual %.3g (reported %.3g)\n", tolerance, result.iterations,
                std::sqrt(residual / b_norm), result.relative_residual);
    EXPECT_TRUE(result.converged);
    EXPECT_LE(std::sqrt(residual / b_norm), tolerance);
    EXPECT_NEAR(std::sqrt(residual / b_norm), result.relative_residual, 1e-3 * tolerance);
    EXPECT_GT(result.iterations, 20) << "restarted at least once";
  }
  const GmresResult capped = gmres(HostVectors(n), apply, jacobi, b.data(), x.data(), 1e-12, 20, 5);
  EXPECT_FALSE(capped.converged);
  EXPECT_EQ(capped.iterations, 5);
  EXPECT_GT(capped.relative_residual, 1e-12);
}

/// The cavity of the time-domain tests: 320 triangles, Δt = 0.25 a/c, 40
/// steps, whose kernel reaches across the sphere at every frequency; its
/// dense solution and its hierarchical one at the default tolerance,
/// computed once for the tests below.
struct CavityCase {
  BemModel model = cavity_model(cavity_mesh(0.5));
  CqSettings settings{40, 0.25 * cavity_radius / cavity_reference().p_wave_speed()};
  LaplaceSolution dense, compressed;
  CavityCase() {
    CqTimings timings;
    dense = solve_laplace(model, settings, {}, {geobem::ComputeDevice::Cpu, true}, timings);
    compressed = solve_laplace(model, settings, {}, hierarchical_options(default_compression_tolerance), timings);
  }
};

const CavityCase& cavity_case() {
  static const CavityCase instance;
  return instance;
}

TEST(HierarchicalCavity, CompressedOperatorIsWithinItsReportedErrorForRandomTolerances) {
  // Tolerances log-uniform over [1e-10, 1e-3] (fixed seed) and both ends;
  // the lowest, a middle and the highest CQ frequency each.
  const CavityCase& c = cavity_case();
  const std::vector<double> sums = rigid_body_sums_cpu(c.model);
  std::vector<double> tolerances = {1e-10, 1e-3};
  std::mt19937_64 random(31);
  std::uniform_real_distribution<double> exponent(-10.0, -3.0);
  for (int k = 0; k < 2; ++k) tolerances.push_back(std::pow(10.0, exponent(random)));
  const int frequencies = cq_frequency_count(c.settings);
  const std::vector<int> sampled = {0, frequencies / 3, frequencies - 1};
  std::vector<std::vector<Complex>> matrices(sampled.size()), dense_rhs(sampled.size());
  for (std::size_t k = 0; k < sampled.size(); ++k)
    assemble_system_cpu(c.model, sums, cq_laplace_point(c.settings, sampled[k]), matrices[k], dense_rhs[k]);
  for (const double tolerance : tolerances) {
    const HierarchicalLayout layout = make_hierarchical_layout(c.model, small_leaves(tolerance));
    const FreeTerms free_terms = free_terms_in_tree_order(c.model, layout, sums);
    for (std::size_t k = 0; k < sampled.size(); ++k) {
      std::vector<std::vector<Complex>> rhs;
      const CompressedOperator op = assemble_compressed_cpu(c.model, layout, free_terms,
                                                            cq_laplace_point(c.settings, sampled[k]), tolerance, rhs);
      const double measured = relative_operator_error(c.model, op, matrices[k]);
      // The right-hand side likewise: the dense one in tree order.
      double rhs_difference = 0.0, rhs_norm = 0.0;
      for (std::size_t p = 0; p < layout.rows.order.size(); ++p)
        for (int i = 0; i < 3; ++i) {
          const Complex reference = dense_rhs[k][3 * layout.rows.order[p] + i];
          rhs_difference += std::pow(abs(rhs[0][3 * p + i] - reference), 2);
          rhs_norm += std::pow(abs(reference), 2);
        }
      const CompressionReport& r = op.report;
      std::printf("tolerance %.2e, l = %2d: reported %.3g, measured %.3g, right-hand side %.3g; %d low-rank "
                  "(mean rank %.1f), %d dense, %d dropped\n",
                  tolerance, sampled[k], r.error_estimate, measured, std::sqrt(rhs_difference / rhs_norm),
                  r.low_rank_blocks, r.mean_rank, r.dense_admissible_blocks, r.dropped_blocks);
      EXPECT_LE(measured, r.error_estimate) << tolerance << " " << sampled[k];
      EXPECT_LE(r.error_estimate, tolerance) << tolerance << " " << sampled[k];
      EXPECT_LE(std::sqrt(rhs_difference / rhs_norm), 10 * tolerance) << tolerance << " " << sampled[k];
    }
  }
}

TEST(HierarchicalCavity, ReportedSystemBytesAreTheBytesStored) {
  // The largest system solve_laplace reports, by part, against the arrays of
  // each frequency's operator as assemble_compressed_cpu stores them: the
  // kept dense leaves, the one array of factors and dense-formed admissible
  // leaves (sized to the ranks ACA reached), the block-Jacobi factors. The
  // cavity of CavityCase at ε = 1e-4, where ACA converges on most leaves.
  struct {
    BemModel model = cavity_model(cavity_mesh(0.5));
    CqSettings settings{40, 0.25 * cavity_radius / cavity_reference().p_wave_speed()};
  } c;
  const double tolerance = 1e-4;
  const std::vector<int> frequencies = {0, 10, 20};
  CqTimings timings;
  solve_laplace(c.model, c.settings, frequencies, hierarchical_options(tolerance), timings);
  const HierarchicalLayout layout = make_hierarchical_layout(c.model, small_leaves(tolerance));
  const FreeTerms free_terms = free_terms_in_tree_order(c.model, layout, rigid_body_sums_cpu(c.model));
  CompressedSystemBytes largest;
  int dense_formed = 0, low_rank = 0;
  for (const int l : frequencies) {
    std::vector<std::vector<Complex>> rhs;
    const CompressedOperator op =
        assemble_compressed_cpu(c.model, layout, free_terms, cq_laplace_point(c.settings, l), tolerance, rhs);
    CompressedSystemBytes stored;
    for (std::size_t k = 0; k < layout.near_blocks.size(); ++k)
      if (op.near_kept[k]) stored.near_field += 16ull * layout.blocks[layout.near_blocks[k]].rows *
                                                layout.blocks[layout.near_blocks[k]].columns;
    for (std::size_t a = 0; a < layout.admissible_blocks.size(); ++a) {
      const LayoutBlock& leaf = layout.blocks[layout.admissible_blocks[a]];
      if (op.form[a] == LeafForm::low_rank) stored.factors += 16ull * (leaf.rows + leaf.columns) * op.rank[a];
      if (op.form[a] == LeafForm::dense) {
        stored.dense_admissible += 16ull * leaf.rows * leaf.columns;
        ++dense_formed;
      }
    }
    EXPECT_EQ(stored.factors + stored.dense_admissible, 16ull * op.factors.size()) << "l = " << l;
    stored.preconditioner = BlockJacobi(op).bytes();
    std::printf("l = %d: %d low-rank leaves (%llu bytes), %d dense-formed (%llu bytes)\n", l,
                op.report.low_rank_blocks, static_cast<unsigned long long>(stored.factors),
                op.report.dense_admissible_blocks, static_cast<unsigned long long>(stored.dense_admissible));
    low_rank += op.report.low_rank_blocks;
    if (stored.total() > largest.total()) largest = stored;
  }
  const CompressedSystemBytes& reported = timings.largest_compressed;
  std::printf("largest system: near field %llu, factors %llu, dense-formed admissible %llu, preconditioner %llu bytes "
              "(%d dense-formed leaves over the frequencies)\n",
              static_cast<unsigned long long>(reported.near_field), static_cast<unsigned long long>(reported.factors),
              static_cast<unsigned long long>(reported.dense_admissible),
              static_cast<unsigned long long>(reported.preconditioner), dense_formed);
  EXPECT_GT(low_rank, 0);
  EXPECT_GT(dense_formed, 0);
  EXPECT_EQ(reported.near_field, largest.near_field);
  EXPECT_EQ(reported.factors, largest.factors);
  EXPECT_EQ(reported.dense_admissible, largest.dense_admissible);
  EXPECT_EQ(reported.preconditioner, largest.preconditioner);
}

TEST(HierarchicalCavity, FrequencySolutionsWithinTenTolerancesOfDense) {
  const CavityCase& c = cavity_case();
  ASSERT_EQ(c.compressed.solves.size(), c.dense.frequencies.size());
  for (std::size_t k = 0; k < c.dense.frequencies.size(); ++k) {
    const double difference = relative_solution_difference(c.model, c.compressed, c.dense, 0, static_cast<int>(k));
    EXPECT_LE(difference, 10 * default_compression_tolerance) << "frequency " << k;
    EXPECT_LE(c.compressed.solves[k].residual, default_compression_tolerance);
    EXPECT_LE(c.compressed.solves[k].compression_error, default_compression_tolerance);
    EXPECT_GE(c.compressed.solves[k].iterations, 1);
  }
}

TEST(HierarchicalCavity, TimeSeriesMatchDenseAndSharpeToThePrintedDigit) {
  // Wall and receivers at 2a and 5a from each solution (the receivers'
  // representation formula is the same for both), against each other and
  // against Sharpe's closed form.
  const CavityCase& c = cavity_case();
  const SphericalCavity cavity = cavity_reference();
  std::vector<Vec3> receivers = cavity_receivers(2 * cavity_radius);
  for (const Vec3& x : cavity_receivers(5 * cavity_radius)) receivers.push_back(x);
  const std::vector<double> heaviside(c.settings.steps + 1, 1.0);
  CqOptions options(geobem::ComputeDevice::Cpu, true);
  struct Series {
    std::vector<double> wall;
    std::vector<std::vector<double>> radial;
  };
  auto series_of = [&](const LaplaceSolution& boundary) {
    Series out;
    out.wall = wall_mean_radial(c.model, cq_time_series(boundary, {heaviside}, c.settings), c.model.unknown_count());
    const std::vector<double> field =
        cq_time_series(receiver_laplace(c.model, receivers, c.settings, boundary, options), {heaviside}, c.settings);
    for (std::size_t q = 0; q < receivers.size(); ++q) {
      std::vector<double> radial(c.settings.steps + 1);
      for (int n = 0; n <= c.settings.steps; ++n)
        radial[n] = radial_component(receivers[q], &field[n * 3 * receivers.size() + 3 * q]);
      out.radial.push_back(radial);
    }
    return out;
  };
  const Series dense = series_of(c.dense), compressed = series_of(c.compressed);
  const double dt = c.settings.time_step;
  auto sharpe_error = [&](const std::vector<double>& u, double r) {
    return relative_l2(u, dt, [&](double t) { return cavity_radial_displacement(cavity, r, t); });
  };
  char dense_text[32], compressed_text[32];
  const double wall_difference = relative_l2_difference(compressed.wall, dense.wall);
  std::snprintf(dense_text, sizeof dense_text, "%.4f", sharpe_error(dense.wall, cavity_radius));
  std::snprintf(compressed_text, sizeof compressed_text, "%.4f", sharpe_error(compressed.wall, cavity_radius));
  std::printf("wall: hierarchical against dense %.3g; against Sharpe %s (dense %s)\n", wall_difference,
              compressed_text, dense_text);
  EXPECT_LE(wall_difference, 1e-4);
  EXPECT_EQ(std::string(compressed_text), std::string(dense_text));
  for (std::size_t q = 0; q < receivers.size(); ++q) {
    const double r = norm(receivers[q]), difference = relative_l2_difference(compressed.radial[q], dense.radial[q]);
    std::snprintf(dense_text, sizeof dense_text, "%.4f", sharpe_error(dense.radial[q], r));
    std::snprintf(compressed_text, sizeof compressed_text, "%.4f", sharpe_error(compressed.radial[q], r));
    std::printf("receiver %zu at %.0f a: hierarchical against dense %.3g; against Sharpe %s (dense %s)\n", q,
                r / cavity_radius, difference, compressed_text, dense_text);
    EXPECT_LE(difference, 1e-4) << q;
    EXPECT_EQ(std::string(compressed_text), std::string(dense_text)) << q;
  }
}

TEST(HierarchicalRod, MixedProblemMatchesDenseAndTheClosedForm) {
  // Fixed-end tractions (a first-kind part, scaled by w) beside free
  // displacements: x̂ within 10 ε of dense in the scaled unknowns, the
  // free-end error the same to the printed digit.
  const BemModel model = rod_model(rod_h112);
  const CqSettings settings = rod_settings(model, 0.3, 0.5);
  CqTimings timings;
  const LaplaceSolution dense = solve_laplace(model, settings, {}, {geobem::ComputeDevice::Cpu, true}, timings);
  const LaplaceSolution compressed =
      solve_laplace(model, settings, {}, hierarchical_options(default_compression_tolerance), timings);
  for (std::size_t k = 0; k < dense.frequencies.size(); ++k)
    EXPECT_LE(relative_solution_difference(model, compressed, dense, 0, static_cast<int>(k)),
              10 * default_compression_tolerance)
        << "frequency " << k;
  const std::vector<double> heaviside(settings.steps + 1, 1.0);
  char dense_text[32], compressed_text[32];
  std::snprintf(dense_text, sizeof dense_text, "%.4f",
                rod_free_end_l2_error(model, cq_time_series(dense, {heaviside}, settings), settings.time_step));
  std::snprintf(compressed_text, sizeof compressed_text, "%.4f",
                rod_free_end_l2_error(model, cq_time_series(compressed, {heaviside}, settings), settings.time_step));
  std::printf("rod free end against the closed form: hierarchical %s, dense %s\n", compressed_text, dense_text);
  EXPECT_EQ(std::string(compressed_text), std::string(dense_text));
}

TEST(HierarchicalChoice, AutoIsDenseBelowTheMeasuredCrossoverAndBadTextsAreRefused) {
  EXPECT_EQ(choose_bem_solver(BemSolver::automatic, geobem::ComputeDevice::Cpu, hierarchical_from_unknowns_cpu - 1, 0.0),
            BemSolver::dense);
  EXPECT_EQ(choose_bem_solver(BemSolver::automatic, geobem::ComputeDevice::Cpu, hierarchical_from_unknowns_cpu, 0.0),
            BemSolver::hierarchical);
  EXPECT_EQ(choose_bem_solver(BemSolver::automatic, geobem::ComputeDevice::Cuda, hierarchical_from_unknowns_cuda - 1, 0.0),
            BemSolver::dense);
  EXPECT_EQ(choose_bem_solver(BemSolver::dense, geobem::ComputeDevice::Cpu, 1 << 30, 0.0), BemSolver::dense);
  EXPECT_EQ(choose_bem_solver(BemSolver::hierarchical, geobem::ComputeDevice::Cpu, 3, 1.0), BemSolver::hierarchical);
  EXPECT_EQ(parse_bem_solver("auto"), BemSolver::automatic);
  EXPECT_THROW(parse_bem_solver("lu"), geobem::InputError);
  EXPECT_THROW(check_compression_tolerance(0.0), geobem::InputError);
  EXPECT_THROW(check_compression_tolerance(0.5), geobem::InputError);
  EXPECT_THROW(check_compression_tolerance(std::nan("")), geobem::InputError);
  EXPECT_NO_THROW(check_compression_tolerance(1e-10));
}

// The share of little-damped CQ frequencies against a count from the real
// part of BDF2's δ(ζ) = 3/2 − 2ζ + ζ²/2 at ζ = R e^{iθ} written out,
// 3/2 − 2R cos θ + R² cos 2θ / 2; and `auto` on the 3,166-triangle cavity's
// unknowns: hierarchical for 64 steps of 2 µs (every frequency damped), dense
// for β = 0.15 over 10 a/c, as measured on the GPU.
TEST(HierarchicalChoice, AutoWeighsTheLittleDampedFrequencies) {
  const BemModel model = geobem::test::cavity_model(geobem::test::cubed_sphere_mesh(0.5));
  double diameter2 = 0.0;
  for (int axis = 0; axis < 3; ++axis) {
    double low = 1e300, high = -1e300;
    for (const Vec3& x : model.nodes) {
      const double value = axis == 0 ? x.x : axis == 1 ? x.y : x.z;
      low = std::min(low, value);
      high = std::max(high, value);
    }
    diameter2 += (high - low) * (high - low);
  }
  const double c = model.material.p_wave_speed, a = geobem::test::cavity_radius, tolerance = 1e-8;
  auto counted = [&](const CqSettings& settings) {
    const double radius = std::pow(settings.epsilon, 1.0 / (2.0 * settings.steps));
    const int frequencies = (settings.steps + 1) / 2 + 1;
    int little = 0;
    for (int l = 0; l < frequencies; ++l) {
      const double theta = 2 * M_PI * l / (settings.steps + 1);
      const double re_delta = 1.5 - 2 * radius * std::cos(theta) + 0.5 * radius * radius * std::cos(2 * theta);
      if (re_delta / settings.time_step * std::sqrt(diameter2) / c < std::log(1 / tolerance)) ++little;
    }
    return double(little) / frequencies;
  };
  const CqSettings short_run{64, 2e-6}, long_run{877, 0.01141 * a / c};
  EXPECT_EQ(little_damped_share(model, short_run, tolerance), 0.0);
  EXPECT_EQ(little_damped_share(model, short_run, tolerance), counted(short_run));
  const double share = little_damped_share(model, long_run, tolerance);
  EXPECT_DOUBLE_EQ(share, counted(long_run));
  EXPECT_NEAR(share, 0.209, 0.005);
  const int unknowns_3166 = 4755;
  EXPECT_EQ(choose_bem_solver(BemSolver::automatic, geobem::ComputeDevice::Cuda, unknowns_3166, 0.0),
            BemSolver::hierarchical);
  EXPECT_EQ(choose_bem_solver(BemSolver::automatic, geobem::ComputeDevice::Cuda, unknowns_3166, share),
            BemSolver::dense);
  EXPECT_GT(hierarchical_from_unknowns(geobem::ComputeDevice::Cpu, share), 3 * hierarchical_from_unknowns_cpu);
}

TEST(HierarchicalPlan, NamesEachPartWhenTheSystemDoesNotFit) {
  const BemModel model = cavity_model(cavity_mesh(0.5));
  const HierarchicalLayout layout = make_hierarchical_layout(model, small_leaves(1e-8));
  const HierarchicalMemoryPlan plan = plan_hierarchical_memory(layout, 1, 1e-8);
  EXPECT_EQ(plan.near_field, layout.near_field_bytes());
  EXPECT_GT(plan.workspace, 16ull * model.unknown_count() * gmres_restart);
  EXPECT_NO_THROW(require_hierarchical_plan_fits(plan, plan.total(), "memory"));
  try {
    require_hierarchical_plan_fits(plan, plan.total() - 1, "the test's budget");
    FAIL();
  } catch (const geobem::ResourceError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("near field"), std::string::npos) << text;
    EXPECT_NE(text.find("the test's budget"), std::string::npos) << text;
  }
}

}  // namespace

#pragma once
// What the cubature's phase two reports of its final regions, per phase-one
// region and per chunk (cubature.hpp): the same struct on the CPU, in the
// CUDA kernels (NVRTC-compiled ones included: no host headers) and in the
// MPI reduction.
#include "gpu/core/host_device.hpp"
#include "gpu/quadrature/compensated_sum.hpp"
#include "gpu/quadrature/genz_malik_rule.hpp"

namespace geobem::quadrature {

/// Sums over final regions: the degree-7 estimates (compensated), CUHRE
/// errors, two-level changes and rounding floors (cubature.hpp), and the
/// degree-9 check's parts:
/// Σ (Q9 − Q7) with and without signs over the checked final regions, Σ of
/// their degree-7 rules' absolute sums and Σ of both rules' squared absolute
/// sums in units of PhaseTwoShares::check_unit (rounding scales: systematic,
/// and added in quadrature), Σ N1 with and without signs over the checked
/// regions (their degree-5 null rule values, CubatureRegion::null_share), and
/// the CUHRE errors of the regions left unchecked.
struct FinalRegionSums {
  CompensatedSum estimate;
  double error = 0.0, change = 0.0, rounding = 0.0;
  double check_change = 0.0, check_abs_change = 0.0, check_scale = 0.0, check_scale_squared = 0.0;
  double check_null = 0.0, check_abs_null = 0.0;
  double unchecked_error = 0.0;

  /// Adds one final region's estimate, CUHRE error, two-level change and
  /// rounding floor (not its check: add_degree9_check, or unchecked_error).
  GEOBEM_HD void add_region(const CubatureRegion& region) {
    estimate.add(region.estimate);
    error += region.error;
    change += region.change;
    rounding += region.rounding;
  }
  /// Adds another set of sums (a region's to its chunk's, a rank's to another's).
  GEOBEM_HD void add(const FinalRegionSums& o) {
    estimate.add(o.estimate);
    error += o.error;
    change += o.change;
    rounding += o.rounding;
    check_change += o.check_change;
    check_abs_change += o.check_abs_change;
    check_scale += o.check_scale;
    check_scale_squared += o.check_scale_squared;
    check_null += o.check_null;
    check_abs_null += o.check_abs_null;
    unchecked_error += o.unchecked_error;
  }
};
constexpr int kFinalRegionSumsWords = sizeof(FinalRegionSums) / sizeof(double);

}  // namespace geobem::quadrature

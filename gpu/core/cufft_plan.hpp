#pragma once
// cuFFT in gpu/core: CufftPlan, a move-only cuFFT plan, destroyed when it
// goes out of scope, and cuFFT's statuses for GEOBEM_CHECK (named by
// cuda_status_names.cpp: cuFFT has no status-to-name function). The plan's
// handle is created first (cufftCreate) and owned before the plan is made,
// so a plan that fails to build leaks nothing. Usable from .cu and .cpp
// files.
#include <cuda_runtime_api.h>
#include <cufft.h>

#include <utility>

#include "gpu/core/cuda_check.hpp"

namespace geobem {

/// cuFFT has no status-to-name function: the enum's spelling
/// (cuda_status_names.cpp), "CUFFT_(other)" for a value it lacks.
const char* cufft_result_name(cufftResult result);
template <>
struct StatusTraits<cufftResult> : LibraryStatus<cufftResult, CUFFT_SUCCESS, cufft_result_name> {
  static constexpr const char* library = "cuFFT";
};

class CufftPlan {
 public:
  /// `batch` contiguous 1D transforms of `length` points each, of `type`
  /// (e.g. CUFFT_D2Z: `length` doubles in, length/2 + 1 complex out per
  /// transform). Throws DeviceError for a failing cuFFT call.
  static CufftPlan one_dimensional(int length, cufftType type, int batch = 1) {
    CufftPlan plan;
    std::size_t work_bytes = 0;
    GEOBEM_CHECK(cufftMakePlan1d(plan.plan_, length, type, batch, &work_bytes));
    return plan;
  }
  /// `batch` 1D transforms of `length` points with the advanced layout:
  /// element k of transform b at input[b·input_distance + k·input_stride],
  /// output likewise (cufftPlanMany; `*_embed` = the full length). Throws
  /// DeviceError for a failing cuFFT call.
  static CufftPlan one_dimensional_strided(int length, cufftType type, int batch, int input_stride,
                                           int input_distance, int output_stride, int output_distance) {
    CufftPlan plan;
    int n[1] = {length};
    std::size_t work_bytes = 0;
    GEOBEM_CHECK(cufftMakePlanMany(plan.plan_, 1, n, n, input_stride, input_distance, n, output_stride,
                                   output_distance, type, batch, &work_bytes));
    return plan;
  }

  CufftPlan(CufftPlan&& other) noexcept : plan_(other.plan_), owned_(std::exchange(other.owned_, false)) {}
  CufftPlan& operator=(CufftPlan&& other) noexcept {
    if (this != &other) {
      release();
      plan_ = other.plan_;
      owned_ = std::exchange(other.owned_, false);
    }
    return *this;
  }
  CufftPlan(const CufftPlan&) = delete;
  CufftPlan& operator=(const CufftPlan&) = delete;
  ~CufftPlan() { release(); }

  cufftHandle get() const noexcept { return plan_; }
  /// Runs the plan's transforms on `stream` from now on (default: stream 0).
  void set_stream(cudaStream_t stream) { GEOBEM_CHECK(cufftSetStream(plan_, stream)); }

 private:
  CufftPlan() {
    GEOBEM_CHECK(cufftCreate(&plan_));
    owned_ = true;
  }
  void release() noexcept {
    if (owned_) cufftDestroy(plan_);
    owned_ = false;
  }

  cufftHandle plan_ = 0;  // cuFFT handles are plain ints: `owned_` says whether this one is ours
  bool owned_ = false;
};

}  // namespace geobem

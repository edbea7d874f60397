// NVRTC kernels of user integrands: source generation, compile-once-per-run
// (and cached on disk), launch through the integrators' own pipelines.
#include "gpu/expression/expression_kernels.hpp"

#include <map>
#include <memory>
#include <mutex>

#include <algorithm>
#include <stdexcept>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/cuda_library.hpp"
#include "gpu/core/device_buffer.hpp"
#include "gpu/expression/expression_cuda_source.hpp"
#include "gpu/quadrature/adaptive_1d_cuda.hpp"
#include "gpu/quadrature/cubature_cuda.cuh"
#include "gpu/transform/longman_cuda.cuh"

namespace geobem::expression {

namespace {

const char* kind_name(OscillationKind kind) {
  switch (kind) {
    case OscillationKind::Cos: return "Cos";
    case OscillationKind::Sin: return "Sin";
    case OscillationKind::J0: return "J0";
    case OscillationKind::J1: return "J1";
  }
  return "Cos";
}

/// "sm_XY" of the current device.
std::string current_architecture() {
  int device = 0, major = 0, minor = 0;
  GEOBEM_CUDA_CHECK(cudaGetDevice(&device));
  GEOBEM_CUDA_CHECK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device));
  GEOBEM_CUDA_CHECK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device));
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

/// The library of `source` for the current device: compiled (or read from the
/// disk cache) on first use in this process, kept for the process's life.
const CudaLibrary& library_for(const std::string& source, KernelCompileReport* report) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<CudaLibrary>> loaded;
  const std::string architecture = current_architecture();
  const std::lock_guard<std::mutex> lock(mutex);
  auto& library = loaded[architecture + "\n" + source];
  if (report) report->architecture = architecture;
  if (!library) {
    const NvrtcImage image = nvrtc_compile_cached("the expression's kernel", source, device_headers(), architecture,
                                                  {"-default-device"}, kernel_cache_directory());
    library = std::make_unique<CudaLibrary>(image.image);
    if (report) {
      report->seconds = image.compile_seconds;
      report->from_cache = image.from_cache;
      report->cache_file = image.cache_file;
      report->log = image.log;
      report->cache_warning = image.cache_warning;
    }
  } else if (report) {
    report->seconds = 0.0;
    report->from_cache = true;
  }
  return *library;
}

/// "p[0]", ..., "p[count - 1]": the parameters as the functors hold them.
std::vector<std::string> parameter_names(std::size_t count) {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < count; ++k) names.push_back("p[" + std::to_string(k) + "]");
  return names;
}

/// The expression as `struct Integrand { double p[max(P, 1)]; operator()(signature) }`
/// in namespace geobem_user; `variables` spell the integration variables.
std::string integrand_functor_source(const Expression& f, const std::string& signature,
                                     const std::vector<std::string>& variables) {
  const std::string body = cuda_expression_source(f, variables, parameter_names(f.parameters.size()));
  return "namespace geobem_user {\n"
         "constexpr int kParameters = " + std::to_string(f.parameters.size()) + ";\n"
         "struct Integrand {\n"
         "  double p[kParameters > 0 ? kParameters : 1];\n"
         "  __device__ double operator()(" + signature + ") const { return " + body + "; }\n"
         "};\n"
         "}  // namespace geobem_user\n\n";
}

/// The functors of `count` rows of `stride` values whose parameters start
/// at `first`: max(P, 1) doubles each, the bytes of geobem_user::Integrand.
std::vector<double> integrand_functors(const Expression& f, const double* rows, std::size_t count, std::size_t stride,
                                       std::size_t first) {
  const std::size_t parameters = f.parameters.size(), slots = std::max<std::size_t>(parameters, 1);
  std::vector<double> functors(count * slots, 0.0);
  for (std::size_t i = 0; i < count; ++i)
    std::copy(rows + i * stride + first, rows + i * stride + first + parameters, functors.begin() + i * slots);
  return functors;
}

/// The cubature's integrand kernels of an NVRTC module (cubature_kernel_source)
/// as the drivers of cubature_cuda.cuh launch them (see StaticCubatureKernels).
struct NvrtcCubatureKernels {
  cudaKernel_t apply_rule_kernel, refine_kernel;
  int dim;
  std::vector<double> functor;  ///< one row's geobem_user::Integrand

  void apply_rule(int n, const quadrature::GenzMalikWeights& w, quadrature::CubatureRegion* regions,
                  size_t count) const {
    if (n != dim) throw std::logic_error("the expression's cubature kernel is for another dimension");
    quadrature::GenzMalikWeights weights = w;
    void* arguments[] = {const_cast<double*>(functor.data()), &weights, &regions, &count};
    using quadrature::cuda_detail::kPhaseOneRegions;
    launch_kernel(apply_rule_kernel, dim3(static_cast<unsigned>((count + kPhaseOneRegions - 1) / kPhaseOneRegions)),
                  dim3(quadrature::cuda_detail::kBlockThreads), arguments, 0, nullptr);
  }
  int refine_blocks_per_sm() const {
    int per_sm = 0;
    GEOBEM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, reinterpret_cast<const void*>(refine_kernel), quadrature::cuda_detail::kBlockThreads, 0));
    return per_sm;
  }
  void refine(unsigned grid, cudaStream_t stream, const quadrature::cuda_detail::RefineArguments& a) const {
    quadrature::cuda_detail::RefineArguments b = a;
    void* arguments[] = {const_cast<double*>(functor.data()), &b.n, &b.w, &b.initial, &b.items, &b.work,
                         &b.work_count, &b.shares, &b.next_item, &b.capped, &b.spill_all, &b.spill_capacity,
                         &b.outcomes, &b.totals};
    launch_kernel(refine_kernel, dim3(grid), dim3(quadrature::cuda_detail::kBlockThreads), arguments, 0, stream);
  }
};

}  // namespace

std::string longman_kernel_source(const Expression& rest, OscillationKind kind) {
  return "#include \"gpu/expression/expression_functions.hpp\"\n"
         "#include \"gpu/expression/oscillatory_integrand.hpp\"\n"
         "#include \"gpu/transform/longman.hpp\"\n"
         "\n" + integrand_functor_source(rest, "double x", {"x"}) +
         "using geobem_user::kParameters;\n"
         "\n"
         "extern \"C\" __global__ void " + std::string(kLongmanKernelName) +
         "(const double* __restrict__ rows, unsigned long long count, geobem::transform::GaussRule rule,\n"
         "    geobem::transform::LongmanOptions options, geobem::transform::LongmanResult* __restrict__ results) {\n"
         "  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;\n"
         "  if (i >= count) return;\n"
         "  const double* row = rows + i * (2 + kParameters);\n"
         "  geobem_user::Integrand rest;\n"
         "#pragma unroll\n"
         "  for (int k = 0; k < kParameters; ++k) rest.p[k] = row[2 + k];\n"
         "  const geobem::expression::OscillatoryIntegrand<geobem_user::Integrand, geobem::expression::OscillationKind::" +
         kind_name(kind) + "> f{rest, row[0], row[1]};\n"
         "  results[i] = geobem::expression::integrate_one(f, rule, options);  // checked areas\n"
         "}\n";
}

std::string adaptive_kernel_source(const Expression& f) {
  return "#include \"gpu/expression/expression_functions.hpp\"\n"
         "#include \"gpu/quadrature/adaptive_1d_kernels.cuh\"\n"
         "\n" + integrand_functor_source(f, "double x", {"x"}) +
         "using geobem::quadrature::BlockCuttingState;\n"
         "using geobem::quadrature::KronrodSums;\n"
         "\n"
         "extern \"C\" __global__ void " + std::string(kAdaptiveStepKernelName) +
         "(geobem_user::Integrand f, const BlockCuttingState* state, KronrodSums* partials) {\n"
         "  geobem::quadrature::cuda_detail::block_subintervals(f, state, partials);\n"
         "}\n"
         "\n"
         "extern \"C\" __global__ void " + std::string(kAdaptiveBatchKernelName) +
         "(const geobem_user::Integrand* integrands, BlockCuttingState* states) {\n"
         "  geobem::quadrature::cuda_detail::batch_sweep(integrands, states);\n"
         "}\n";
}

std::string cubature_kernel_source(const Expression& f) {
  const std::size_t dim = f.variables.size();
  std::vector<std::string> variables;
  for (std::size_t k = 0; k < dim; ++k) variables.push_back("x[" + std::to_string(k) + "]");
  return "#include \"gpu/expression/expression_functions.hpp\"\n"
         "#include \"gpu/quadrature/cubature_cuda.cuh\"\n"
         "\n" + integrand_functor_source(f, "const double* x, int", variables) +
         "using namespace geobem::quadrature;\n"
         "using namespace geobem::quadrature::cuda_detail;\n"
         "\n"
         "extern \"C\" __global__ void __launch_bounds__(kBlockThreads, kApplyRuleBlocksPerSm) " +
         std::string(kApplyRuleKernelName) +
         "(geobem_user::Integrand f, GenzMalikWeights w, CubatureRegion* regions, size_t count) {\n"
         "  apply_rule_regions<geobem_user::Integrand, " + std::to_string(dim) + ">(f, w, regions, count);\n"
         "}\n"
         "\n"
         "extern \"C\" __global__ void " + std::string(kRefineKernelName) +
         "(geobem_user::Integrand f, int n, GenzMalikWeights w, const CubatureRegion* initial, PhaseTwoItems items,\n"
         "    const unsigned long long* work, unsigned long long work_count, PhaseTwoShares shares,\n"
         "    unsigned long long* next_item, unsigned long long* capped, CubatureRegion* spill_all, int spill_capacity,\n"
         "    FinalRegionSums* outcomes, unsigned long long* totals) {\n"
         "  refine_regions(f, n, w, initial, items, work, work_count, shares, next_item, capped, spill_all,\n"
         "                 spill_capacity, outcomes, totals);\n"
         "}\n";
}

namespace detail {

void longman_expression_cuda(const Expression& rest, OscillationKind kind, const std::vector<double>& rows,
                             std::size_t count, const transform::GaussRule& rule,
                             const transform::LongmanOptions& options, transform::LongmanResult* results,
                             transform::LongmanTimings* timings, KernelCompileReport* report) {
  const CudaLibrary& library = library_for(longman_kernel_source(rest, kind), report);
  const cudaKernel_t kernel = library.kernel(kLongmanKernelName);
  if (count == 0) return;
  const std::size_t stride = 2 + rest.parameters.size();
  transform::detail::run_longman_pipeline(
      rows.data(), stride * sizeof(double), count, results, timings,
      [&](const unsigned char* input, std::size_t chunk, transform::LongmanResult* output, cudaStream_t stream) {
        const double* chunk_rows = reinterpret_cast<const double*>(input);
        unsigned long long chunk_count = chunk;
        transform::GaussRule kernel_rule = rule;
        transform::LongmanOptions kernel_options = options;
        void* arguments[] = {&chunk_rows, &chunk_count, &kernel_rule, &kernel_options, &output};
        launch_kernel(kernel, dim3(transform::longman_grid(chunk)), dim3(transform::kLongmanBlock), arguments, 0,
                      stream);
      });
}

std::vector<quadrature::Adaptive1DResult> adaptive_expression_cuda(const Expression& f, const std::vector<double>& rows,
                                                                   std::size_t count,
                                                                   const quadrature::Adaptive1DOptions& options,
                                                                   AdaptiveSweep sweep, KernelCompileReport* report) {
  const CudaLibrary& library = library_for(adaptive_kernel_source(f), report);
  const std::size_t stride = 2 + f.parameters.size();
  std::vector<double> functors = integrand_functors(f, rows.data(), count, stride, 2);
  if (sweep == AdaptiveSweep::Spread) {  // one integral: each block step over α thread blocks, as the CPU spreads it
    const cudaKernel_t step = library.kernel(kAdaptiveStepKernelName);
    return {quadrature::cuda_adaptive_1d_sweep(
        rows[0], rows[1], options,
        [&](const quadrature::BlockCuttingState* state, quadrature::KronrodSums* partials, int alpha, int beta,
            std::size_t shared) {
          void* arguments[] = {functors.data(), &state, &partials};
          launch_kernel(step, dim3(alpha), dim3(beta), arguments, shared, nullptr);
        })};
  }
  const cudaKernel_t batch = library.kernel(kAdaptiveBatchKernelName);
  std::vector<double> lower(count), upper(count);
  for (std::size_t i = 0; i < count; ++i) {
    lower[i] = rows[i * stride];
    upper[i] = rows[i * stride + 1];
  }
  const DeviceBuffer<double> d_functors(functors);
  return quadrature::cuda_adaptive_1d_batch_sweep(
      lower, upper, options,
      [&](quadrature::BlockCuttingState* states, std::size_t integrals, int beta, std::size_t shared) {
        const double* integrands = d_functors.data();
        void* arguments[] = {&integrands, &states};
        launch_kernel(batch, dim3(static_cast<unsigned>(integrals)), dim3(beta), arguments, shared, nullptr);
      });
}

std::vector<quadrature::CubatureResult> cubature_expression_cuda(const Expression& f,
                                                                 const std::vector<double>& parameters,
                                                                 std::size_t count,
                                                                 const quadrature::CubatureOptions& options,
                                                                 KernelCompileReport* report) {
  const CudaLibrary& library = library_for(cubature_kernel_source(f), report);
  NvrtcCubatureKernels kernels{library.kernel(kApplyRuleKernelName), library.kernel(kRefineKernelName), options.dim, {}};
  const std::size_t stride = f.parameters.size();
  std::vector<quadrature::CubatureResult> results(count);
  for (std::size_t i = 0; i < count; ++i) {
    kernels.functor = integrand_functors(f, parameters.data() + i * stride, 1, stride, 0);
    const quadrature::CubaturePhaseOne one = quadrature::cuda_cubature_phase_one_with(kernels, options);
    results[i] = one.converged || one.capped
                     ? quadrature::combine_phases(one, quadrature::CubaturePhaseTwo{}, options)
                     : quadrature::combine_phases(
                           one,
                           quadrature::cuda_cubature_phase_two_with(kernels, options, one, 0, 1,
                                                                    options.max_evaluations - one.evaluations),
                           options);
  }
  return results;
}

}  // namespace detail

}  // namespace geobem::expression

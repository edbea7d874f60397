// NVRTC kernels of user integrands: source generation, compile-once-per-run
// (and cached on disk), launch through the integrators' own pipelines.
#include "gpu/expression/expression_kernels.hpp"

#include <map>
#include <memory>
#include <mutex>

#include "gpu/core/cuda_check.hpp"
#include "gpu/core/cuda_library.hpp"
#include "gpu/expression/expression_cuda_source.hpp"
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
    }
  } else if (report) {
    report->seconds = 0.0;
    report->from_cache = true;
  }
  return *library;
}

}  // namespace

std::string longman_kernel_source(const Expression& rest, OscillationKind kind) {
  const std::size_t count = rest.parameters.size();
  std::vector<std::string> parameters;
  for (std::size_t k = 0; k < count; ++k) parameters.push_back("p[" + std::to_string(k) + "]");
  const std::string body = cuda_expression_source(rest, {"x"}, parameters);
  const std::string p = std::to_string(count);
  return "#include \"gpu/expression/expression_functions.hpp\"\n"
         "#include \"gpu/expression/oscillatory_integrand.hpp\"\n"
         "#include \"gpu/transform/longman.hpp\"\n"
         "\n"
         "namespace {\n"
         "constexpr int kParameters = " + p + ";\n"
         "struct Rest {\n"
         "  double p[kParameters > 0 ? kParameters : 1];\n"
         "  __device__ double operator()(double x) const { return " + body + "; }\n"
         "};\n"
         "}  // namespace\n"
         "\n"
         "extern \"C\" __global__ void " + std::string(kLongmanKernelName) +
         "(const double* __restrict__ rows, unsigned long long count, geobem::transform::GaussRule rule,\n"
         "    geobem::transform::LongmanOptions options, geobem::transform::LongmanResult* __restrict__ results) {\n"
         "  const unsigned long long i = static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;\n"
         "  if (i >= count) return;\n"
         "  const double* row = rows + i * (2 + kParameters);\n"
         "  Rest rest;\n"
         "#pragma unroll\n"
         "  for (int k = 0; k < kParameters; ++k) rest.p[k] = row[2 + k];\n"
         "  const geobem::expression::OscillatoryIntegrand<Rest, geobem::expression::OscillationKind::" +
         kind_name(kind) + "> f{rest, row[0], row[1]};\n"
         "  results[i] = geobem::transform::integrate_one(f, rule, options);\n"
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

}  // namespace detail

}  // namespace geobem::expression

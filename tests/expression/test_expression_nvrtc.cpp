// The GPU kernels of expressions compiled by NVRTC for sm_90 on a machine
// without a GPU (NVRTC needs none): every oscillating factor and every
// grammar function compiles with the embedded headers, a source that does
// not compile reports NVRTC's log, and the disk cache returns the same image
// without compiling again, written atomically, and is skipped where it cannot
// be written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "gpu/core/nvrtc_program.hpp"
#include "gpu/expression/expression_kernels.hpp"
#include "tests/support/test_files.hpp"

namespace ex = geobem::expression;

namespace {

ex::Expression parse(const std::string& text, const std::vector<std::string>& columns) {
  return ex::parse_expression(text, {"x"}, {columns, "a column"});
}

}  // namespace

TEST(ExpressionNvrtc, LongmanKernelsCompileForHopper) {
  // Two kernels, a trigonometric and a Bessel factor; together they use every
  // function of the grammar (each compile takes seconds: the headers dominate).
  const struct {
    std::string text;
    ex::OscillationKind kind;
  } cases[] = {
      {"x^2*exp(-a*x)/(1 + x^-3) + log(x)*sqrt(x) - tan(x)*sinh(x)*cosh(x)*tanh(x) + pow2 + "
       "asin(x/(1+x)) + acos(x/(2+x)) + atan(x) + atan2(x, a) + abs(min(x, a)) + max(x, a) + a^x",
       ex::OscillationKind::Sin},
      {"J0(x) + J1(a*x) + Jn(3, x) + Y0(x + 1) + Y1(x + a) + pi", ex::OscillationKind::J1},
  };
  for (const auto& c : cases) {
    const std::string source = ex::longman_kernel_source(parse(c.text, {"a", "pow2"}), c.kind);
    const geobem::NvrtcImage image = geobem::nvrtc_compile("test kernel", source, ex::device_headers(), "sm_90",
                                                           {"-default-device"});
    EXPECT_GT(image.image.size(), 1000u) << c.text;
    EXPECT_EQ(image.log.find("error"), std::string::npos) << image.log;
    EXPECT_NE(source.find(ex::kLongmanKernelName), std::string::npos);
  }
}

TEST(ExpressionNvrtc, AdaptiveAndCubatureKernelsCompileForHopper) {
  // The integrators' own device code (adaptive_1d_kernels.cuh, cubature_cuda.cuh)
  // around the expression with parameters (one compile each, seconds).
  const std::string adaptive =
      ex::adaptive_kernel_source(parse("exp(-a*x)*cos(w*x) + J1(x)", {"a", "w"}));
  const std::string f4 = ex::cubature_kernel_source(ex::parse_expression(
      "sin(asin(x1)*asin(x2)*asin(x3)*asin(x4)*asin(x5)*asin(x6)*asin(x7)*c)", ex::numbered_variables(7),
      {{"c"}, "a column"}));
  const struct {
    const std::string& source;
    std::vector<const char*> kernels;
  } cases[] = {
      {adaptive, {ex::kAdaptiveStepKernelName, ex::kAdaptiveBatchKernelName}},
      {f4, {ex::kApplyRuleKernelName, ex::kRefineKernelName}},
  };
  for (const auto& c : cases) {
    const geobem::NvrtcImage image =
        geobem::nvrtc_compile("test kernel", c.source, ex::device_headers(), "sm_90", {"-default-device"});
    EXPECT_GT(image.image.size(), 1000u);
    EXPECT_EQ(image.log.find("error"), std::string::npos) << image.log;
    for (const char* kernel : c.kernels) EXPECT_NE(image.image.find(kernel), std::string::npos) << kernel;
  }
}

TEST(ExpressionNvrtc, CompileErrorCarriesTheLog) {
  try {
    geobem::nvrtc_compile("broken kernel", "extern \"C\" __global__ void k() { undeclared_name(); }", {}, "sm_90", {});
    FAIL() << "compiled";
  } catch (const geobem::NvrtcCompileError& error) {
    EXPECT_NE(std::string(error.what()).find("could not compile broken kernel for sm_90"), std::string::npos);
    EXPECT_NE(error.log().find("undeclared_name"), std::string::npos) << error.log();
  }
}

TEST(ExpressionNvrtc, DiskCacheSkipsTheSecondCompile) {
  const auto folder = geobem::test::scratch("kernel_cache");
  const std::string source = ex::longman_kernel_source(parse("exp(-a*x)", {"a"}), ex::OscillationKind::Cos);
  const auto first = geobem::nvrtc_compile_cached("k", source, ex::device_headers(), "sm_90", {"-default-device"},
                                                  folder.string());
  const auto second = geobem::nvrtc_compile_cached("k", source, ex::device_headers(), "sm_90", {"-default-device"},
                                                   folder.string());
  EXPECT_FALSE(first.from_cache);
  EXPECT_GT(first.compile_seconds, 0.0);
  EXPECT_TRUE(second.from_cache);
  EXPECT_EQ(second.image, first.image);
  EXPECT_EQ(second.cache_file, first.cache_file);
  EXPECT_TRUE(std::filesystem::exists(first.cache_file));
  // Another architecture is another image, under another name.
  const auto other = geobem::nvrtc_compile_cached("k", source, ex::device_headers(), "sm_80", {"-default-device"},
                                                  folder.string());
  EXPECT_FALSE(other.from_cache);
  EXPECT_NE(other.cache_file, first.cache_file);
  // Written atomically: the two images and no temporary beside them.
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(folder)) {
    EXPECT_EQ(entry.path().extension(), ".cubin") << entry.path();
    EXPECT_NE(entry.path().filename().string().front(), '.') << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 2);
}

TEST(ExpressionNvrtc, UnwritableDiskCacheIsSkipped) {
  // A file where the cache folder should be: the image is compiled and
  // returned, uncached, without an error.
  const auto blocker = geobem::test::scratch("not_a_folder");
  std::ofstream(blocker) << "x";
  const auto image = geobem::nvrtc_compile_cached("empty", "extern \"C\" __global__ void k() {}", {}, "sm_90", {},
                                                  (blocker / "kernels").string());
  EXPECT_FALSE(image.image.empty());
  EXPECT_FALSE(image.from_cache);
  EXPECT_TRUE(image.cache_file.empty());
}

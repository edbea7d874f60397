// The GPU kernels of expressions compiled by NVRTC for sm_90 on a machine
// without a GPU (NVRTC needs none): every oscillating factor and every
// grammar function compiles with the embedded headers, a source that does
// not compile reports NVRTC's log, and the disk cache returns the same image
// without compiling again, written atomically, and is skipped where it cannot
// be written; an entry that is not what its SHA-256 header says (checked here
// against coreutils' sha256sum), was written for another kernel, is a link
// or a FIFO, or sits in a folder others can write, is not used: the kernel is
// compiled again and the entry replaced.
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <iterator>
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

namespace {

const char* const kTinyKernel = "extern \"C\" __global__ void k() {}";

geobem::NvrtcImage tiny(const std::filesystem::path& folder, const std::string& body = kTinyKernel) {
  return geobem::nvrtc_compile_cached("tiny", body, {}, "sm_90", {}, folder.string());
}

std::string bytes_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_bytes(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

}  // namespace

TEST(ExpressionNvrtc, CacheEntriesCarryTheirSha256) {
  const auto folder = geobem::test::scratch("sha_cache");
  const auto first = tiny(folder);
  ASSERT_FALSE(first.cache_file.empty());
  EXPECT_TRUE(first.cache_warning.empty()) << first.cache_warning;
  struct stat status {};
  ASSERT_EQ(::stat(folder.c_str(), &status), 0);
  EXPECT_EQ(status.st_mode & 0777, 0700u) << "a cache folder it makes is the user's alone";
  // Name: 64 hexadecimal digits; header: the key's hash (the name), the image's SHA-256 and size.
  const std::string name = std::filesystem::path(first.cache_file).stem().string();
  EXPECT_EQ(name.size(), 64u);
  EXPECT_EQ(name.find_first_not_of("0123456789abcdef"), std::string::npos);
  const std::string entry = bytes_of(first.cache_file);
  const auto image_sha = geobem::test::scratch("image.bin");
  write_bytes(image_sha, first.image);
  const auto digest = geobem::test::run_command("(sha256sum " + image_sha.string() + " >&2)").errors.substr(0, 64);
  EXPECT_EQ(entry, "geobem NVRTC kernel cache entry 1\nkey " + name + "\nimage " + digest + " " +
                       std::to_string(first.image.size()) + "\n" + first.image);
}

TEST(ExpressionNvrtc, TamperedCacheEntriesAreDetectedAndRebuilt) {
  const auto folder = geobem::test::scratch("tampered_cache");
  const auto first = tiny(folder);
  const std::filesystem::path entry = first.cache_file;
  const std::string sound = bytes_of(entry);
  const auto expect_rebuilt = [&](const std::string& what, const std::string& message) {
    SCOPED_TRACE(what);
    const auto again = tiny(folder);
    EXPECT_FALSE(again.from_cache);
    EXPECT_EQ(again.image, first.image);
    EXPECT_NE(again.cache_warning.find(entry.string()), std::string::npos) << again.cache_warning;
    EXPECT_NE(again.cache_warning.find(message), std::string::npos) << again.cache_warning;
    EXPECT_EQ(bytes_of(entry), sound) << "the entry is written again";
    const auto then = tiny(folder);
    EXPECT_TRUE(then.from_cache);
    EXPECT_TRUE(then.cache_warning.empty()) << then.cache_warning;
  };
  std::string flipped = sound;
  flipped.back() ^= 0x20;
  write_bytes(entry, flipped);
  expect_rebuilt("one bit of the image", "failed its SHA-256 check");
  write_bytes(entry, sound.substr(0, sound.size() - 100));
  expect_rebuilt("truncated", "failed its SHA-256 check");
  write_bytes(entry, "junk");
  expect_rebuilt("not an entry", "is not a geobem kernel cache entry");
  // Another kernel's sound entry copied under this one's name.
  const auto other = tiny(folder, "extern \"C\" __global__ void other() {}");
  std::filesystem::copy_file(other.cache_file, entry, std::filesystem::copy_options::overwrite_existing);
  expect_rebuilt("another kernel's entry", "was written for another kernel");
  // A link to a sound entry: not followed, and replaced (its target is left alone).
  const auto target = geobem::test::scratch("elsewhere.cubin");
  write_bytes(target, sound);
  std::filesystem::remove(entry);
  std::filesystem::create_symlink(target, entry);
  expect_rebuilt("a symbolic link", "cannot be opened as a regular file");
  EXPECT_EQ(bytes_of(target), sound);
  std::filesystem::remove(entry);
  ASSERT_EQ(::mkfifo(entry.c_str(), 0600), 0);
  expect_rebuilt("a FIFO", "is not a regular file");
}

TEST(ExpressionNvrtc, CacheFolderOthersCanWriteIsNotUsed) {
  const auto folder = geobem::test::scratch("shared_cache");
  std::filesystem::create_directories(folder);
  std::filesystem::permissions(folder, std::filesystem::perms::all);
  const auto image = tiny(folder);
  EXPECT_FALSE(image.image.empty());
  EXPECT_TRUE(image.cache_file.empty());
  EXPECT_NE(image.cache_warning.find("writable by others: not used"), std::string::npos) << image.cache_warning;
  EXPECT_TRUE(std::filesystem::is_empty(folder));
}

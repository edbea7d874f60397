#include "stages/cq_stage/laplace_manifest.hpp"

#include <boost/property_tree/ini_parser.hpp>
#include <boost/property_tree/ptree.hpp>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <stdexcept>

#include "gpu/bem/fundamental_solution_type.hpp"
#include "gpu/core/atomic_file.hpp"
#include "gpu/core/input_error.hpp"
#include "gpu/core/regular_file.hpp"
#include "mesh/io/memory_budget.hpp"
#include "stages/cq_stage/name_list.hpp"

namespace geobem::cq_stage {

namespace pt = boost::property_tree;

namespace {

constexpr const char* format_name = "geobem-laplace-solution";
constexpr int format_version = 3;  // 2: [conditions] pressure; 3: [fundamental_solution] name

std::string exact(double value) {
  char text[40];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

template <class T>
T get(const pt::ptree& tree, const std::string& key, const std::filesystem::path& path) {
  try {
    return tree.get<T>(key);
  } catch (const pt::ptree_error& error) {
    throw std::runtime_error(path.string() + ": manifest key '" + key + "' missing or invalid (" + error.what() + ")");
  }
}

/// "system_0007": a frequency's key (property-tree paths split at dots).
std::string system_key(int l) {
  char text[40];
  std::snprintf(text, sizeof text, "system_%04d", l);
  return text;
}

/// Every value of the manifest in a fixed text form: what is written, and
/// what the checksum covers (recomputed from the values read back).
std::string values_text(const LaplaceManifest& m, const std::string& mesh_text) {
  std::ostringstream out;
  out << "[format]\nname = " << format_name << "\nversion = " << format_version << "\n"
      << "[fundamental_solution]\nname = " << m.fundamental_solution << "\n"
      << "[mesh]\nfile = " << mesh_text << "\ncrc32 = " << m.mesh_crc32
      << "\nnodes = " << m.nodes << "\ntriangles = " << m.triangles << "\n"
      << "[conditions]\nfixed = " << join(m.conditions.fixed, ',') << "\nfree = " << join(m.conditions.free, ',')
      << "\ntraction = " << join(m.conditions.traction, ';') << "\npressure = " << join(m.conditions.pressure, ';')
      << "\n"
      << "[material]\nyoung_modulus = " << exact(m.young_modulus) << "\npoisson_ratio = " << exact(m.poisson_ratio)
      << "\ndensity = " << exact(m.density) << "\n"
      << "[cq]\ntime_step = " << exact(m.cq.time_step) << "\nsteps = " << m.cq.steps
      << "\nepsilon = " << exact(m.cq.epsilon) << "\nunknowns = " << m.unknowns << "\nfrequencies = " << m.frequencies
      << "\n[load_cases]\ncount = " << m.load_case_groups.size() << "\n";
  for (std::size_t k = 0; k < m.load_case_groups.size(); ++k)
    out << "case" << k << "_group = " << m.load_case_groups[k] << "\ncase" << k << "_crc32 = " << m.solution_crc32[k]
        << "\n";
  out << "[systems]\nexported = " << (m.system_crc32.empty() ? "no" : "yes") << "\n";
  for (std::size_t l = 0; l < m.system_crc32.size(); ++l)
    out << system_key(static_cast<int>(l)) << " = " << m.system_crc32[l] << "\n";
  std::vector<std::string> steps, errors, residuals;
  for (const bem::FrequencySolve& f : m.solves) {
    steps.push_back(std::to_string(f.iterations));
    errors.push_back(exact(f.compression_error));
    residuals.push_back(exact(f.residual));
  }
  out << "[solver]\nname = " << m.solver << "\ncompression_tolerance = " << exact(m.compression_tolerance)
      << "\ngmres_steps = " << join(steps, ',') << "\ncompression_errors = " << join(errors, ',')
      << "\nresiduals = " << join(residuals, ',') << "\n";
  return out.str();
}

/// A list of `count` numbers ≥ 0 (`key`'s comma-separated value), refused unless every one reads.
std::vector<double> number_list(const pt::ptree& tree, const std::string& key, std::size_t count,
                                const std::filesystem::path& path) {
  std::vector<double> values;
  for (const std::string& text : split(get<std::string>(tree, key, path), ',')) {
    std::size_t used = 0;
    double value = -1.0;
    try {
      value = std::stod(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != text.size() || !(value >= 0.0) || !std::isfinite(value))
      throw std::runtime_error(path.string() + ": manifest key '" + key + "': '" + text + "' is not a number >= 0");
    values.push_back(value);
  }
  if (values.size() != count)
    throw std::runtime_error(path.string() + ": manifest key '" + key + "' holds " + std::to_string(values.size()) +
                             " values for " + std::to_string(count) + " frequencies");
  return values;
}

std::uint32_t text_crc32(const std::string& text) {
  return static_cast<std::uint32_t>(
      crc32(crc32(0L, Z_NULL, 0), reinterpret_cast<const Bytef*>(text.data()), static_cast<uInt>(text.size())));
}

}  // namespace

std::string solution_file_name(int load_case) { return "laplace_case" + std::to_string(load_case) + ".npy"; }

std::string system_file_name(int l) { return "systems/" + system_key(l) + ".npy"; }

std::uint64_t solution_file_bytes(int unknowns, int frequencies) {
  return 128 + 16ull * static_cast<std::uint64_t>(unknowns) * static_cast<std::uint64_t>(frequencies);
}

std::uint64_t solution_memory_bytes(int unknowns, int frequencies, int load_cases) {
  std::uint64_t bytes = 16;
  for (const int factor : {unknowns, frequencies, load_cases})
    if (factor < 0 || !multiply_checked(bytes, static_cast<std::uint64_t>(factor), bytes)) return UINT64_MAX;
  return bytes;
}

std::uint64_t system_file_bytes(int unknowns, int load_cases, int frequencies) {
  const std::uint64_t n = unknowns;
  return static_cast<std::uint64_t>(frequencies) * (128 + 16 * n * (n + static_cast<std::uint64_t>(load_cases)));
}

void write_laplace_manifest(const std::filesystem::path& path, const LaplaceManifest& m) {
  const auto folder = path.parent_path().empty() ? std::filesystem::current_path() : path.parent_path();
  const std::string values = values_text(m, std::filesystem::proximate(m.mesh_file, folder).string());
  write_text_file_atomically(path, [&](std::ostream& out) {
    out << "; geobem-laplace: the Laplace-domain solution x_l of A(s_l) x_l = b_l for a unit load of each case.\n"
           "; laplace_caseK.npy: n x F complex128 (Fortran order), column l = CQ frequency l.\n"
           "; values_crc32 covers every value above it: an edited manifest is refused; rerun geobem-laplace.\n"
        << values << "[checksum]\nvalues_crc32 = " << text_crc32(values) << "\n";
  });
}

LaplaceManifest read_laplace_manifest(const std::filesystem::path& path) {
  pt::ptree tree;
  // A manifest lists a CRC-32 per file: under a hundred bytes a frequency.
  const std::uint64_t bytes = require_regular_file(path);
  require_memory(bytes > UINT64_MAX / 16 ? UINT64_MAX : 16 * bytes, available_memory_bytes(),
                 path.string() + ": reading a manifest of " + std::to_string(bytes) + " bytes");
  try {
    pt::read_ini(path.string(), tree);
  } catch (const pt::ini_parser_error& error) {
    throw std::runtime_error(path.string() + ": cannot read the manifest: " + error.message() +
                             (error.line() ? " (line " + std::to_string(error.line()) + ")" : ""));
  }
  if (tree.get<std::string>("format.name", "") != format_name ||
      tree.get<int>("format.version", 0) != format_version)
    throw std::runtime_error(path.string() + ": not a geobem-laplace manifest (format " + format_name + " version " +
                             std::to_string(format_version) + " expected)");
  LaplaceManifest m;
  m.fundamental_solution = get<std::string>(tree, "fundamental_solution.name", path);
  const auto folder = path.parent_path().empty() ? std::filesystem::current_path() : path.parent_path();
  const std::string mesh_text = get<std::string>(tree, "mesh.file", path);
  m.mesh_file = std::filesystem::absolute(folder / mesh_text).lexically_normal();
  m.mesh_crc32 = get<std::uint32_t>(tree, "mesh.crc32", path);
  m.nodes = get<std::size_t>(tree, "mesh.nodes", path);
  m.triangles = get<std::size_t>(tree, "mesh.triangles", path);
  m.conditions.fixed = split(get<std::string>(tree, "conditions.fixed", path), ',');
  m.conditions.free = split(get<std::string>(tree, "conditions.free", path), ',');
  m.conditions.traction = split(get<std::string>(tree, "conditions.traction", path), ';');
  m.conditions.pressure = split(get<std::string>(tree, "conditions.pressure", path), ';');
  m.young_modulus = get<double>(tree, "material.young_modulus", path);
  m.poisson_ratio = get<double>(tree, "material.poisson_ratio", path);
  m.density = get<double>(tree, "material.density", path);
  m.cq.time_step = get<double>(tree, "cq.time_step", path);
  m.cq.steps = get<int>(tree, "cq.steps", path);
  m.cq.epsilon = get<double>(tree, "cq.epsilon", path);
  m.unknowns = get<int>(tree, "cq.unknowns", path);
  m.frequencies = get<int>(tree, "cq.frequencies", path);
  const int cases = get<int>(tree, "load_cases.count", path);
  for (int k = 0; k < cases; ++k) {
    m.load_case_groups.push_back(get<std::string>(tree, "load_cases.case" + std::to_string(k) + "_group", path));
    m.solution_crc32.push_back(get<std::uint32_t>(tree, "load_cases.case" + std::to_string(k) + "_crc32", path));
  }
  if (get<std::string>(tree, "systems.exported", path) == "yes")
    for (int l = 0; l < m.frequencies; ++l)
      m.system_crc32.push_back(get<std::uint32_t>(tree, "systems." + system_key(l), path));
  m.solver = get<std::string>(tree, "solver.name", path);
  if (m.solver != "dense" && m.solver != "hierarchical")
    throw std::runtime_error(path.string() + ": manifest key 'solver.name' is '" + m.solver +
                             "', not dense or hierarchical");
  m.compression_tolerance = get<double>(tree, "solver.compression_tolerance", path);
  if (m.solver == "hierarchical") {
    const std::size_t count = m.frequencies > 0 ? static_cast<std::size_t>(m.frequencies) : 0;
    const std::vector<double> steps = number_list(tree, "solver.gmres_steps", count, path);
    const std::vector<double> errors = number_list(tree, "solver.compression_errors", count, path);
    const std::vector<double> residuals = number_list(tree, "solver.residuals", count, path);
    for (std::size_t l = 0; l < count; ++l)
      m.solves.push_back({static_cast<int>(std::min(steps[l], 1e9)), errors[l], residuals[l]});
  }
  // The checksum first: an edited value is named as such, not as whatever it breaks.
  const std::uint32_t recorded = get<std::uint32_t>(tree, "checksum.values_crc32", path);
  const std::uint32_t computed = text_crc32(values_text(m, mesh_text));
  if (computed != recorded)
    throw std::runtime_error(path.string() + ": its values were edited after geobem-laplace wrote them (checksum " +
                             std::to_string(computed) + ", recorded " + std::to_string(recorded) +
                             "): rerun geobem-laplace with the values wanted");
  if (!bem::is_shipped_fundamental_solution(m.fundamental_solution))
    throw std::runtime_error(path.string() + ": computed with the fundamental solution '" + m.fundamental_solution +
                             "', which this build does not know (it knows " +
                             join(bem::shipped_fundamental_solutions(), ',') + ")");
  with_origin(InputKind::data, path.string(), [&] { bem::check_cq_settings(m.cq); });
  if (m.frequencies != bem::cq_frequency_count(m.cq) || m.unknowns <= 0 || cases < 1)
    throw std::runtime_error(path.string() + ": frequencies = " + std::to_string(m.frequencies) + ", unknowns = " +
                             std::to_string(m.unknowns) + " and " + std::to_string(cases) +
                             " load cases do not fit steps = " + std::to_string(m.cq.steps));
  return m;
}

}  // namespace geobem::cq_stage

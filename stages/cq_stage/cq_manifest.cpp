#include "stages/cq_stage/cq_manifest.hpp"

#include <boost/property_tree/ini_parser.hpp>
#include <boost/property_tree/ptree.hpp>

#include <cstdio>
#include <stdexcept>

#include "mesh/io/atomic_file.hpp"

namespace geobem::cq_stage {

namespace pt = boost::property_tree;

namespace {

constexpr const char* format_name = "geobem-cq-systems";
constexpr int format_version = 1;

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

}  // namespace

std::string system_file_name(int l) {
  char text[40];
  std::snprintf(text, sizeof text, "system_%04d.npy", l);
  return text;
}

/// The file name without ".npy" (property-tree paths split at dots).
static std::string system_key(int l) { return std::filesystem::path(system_file_name(l)).stem().string(); }

std::uint64_t system_file_bytes(int unknowns, int frequencies) {
  const std::uint64_t n = unknowns;
  return static_cast<std::uint64_t>(frequencies) * (128 + 16 * n * (n + 1));
}

void write_cq_manifest(const std::filesystem::path& path, const CqManifest& m) {
  const auto folder = path.parent_path().empty() ? std::filesystem::current_path() : path.parent_path();
  write_text_file_atomically(path, [&](std::ostream& out) {
    out << "; geobem-assemble: the CQ systems A(s_l) x_l = g_l b_l of the elastodynamic BEM.\n"
           "; Each system_LLLL.npy holds the n x (n+1) complex128 array [A(s_l) | b_l] (Fortran order).\n"
        << "[format]\nname = " << format_name << "\nversion = " << format_version << "\n"
        << "[mesh]\nfile = " << std::filesystem::proximate(m.mesh_file, folder).string() << "\ncrc32 = " << m.mesh_crc32
        << "\nnodes = " << m.nodes << "\ntriangles = " << m.triangles << "\n"
        << "[conditions]\nfixed = " << join(m.conditions.fixed, ',') << "\nfree = " << join(m.conditions.free, ',')
        << "\ntraction = " << join(m.conditions.traction, ';') << "\n"
        << "[material]\nyoung_modulus = " << exact(m.young_modulus) << "\npoisson_ratio = " << exact(m.poisson_ratio)
        << "\ndensity = " << exact(m.density) << "\n"
        << "[cq]\ntime_step = " << exact(m.cq.time_step) << "\nsteps = " << m.cq.steps
        << "\nepsilon = " << exact(m.cq.epsilon) << "\nload_history = " << m.load_history
        << "\nunknowns = " << m.unknowns << "\nfrequencies = " << m.frequencies << "\n"
        << "[storage]\nmode = " << (m.in_memory ? "in-memory" : "files") << "\nbytes_needed = " << m.bytes_needed
        << "\n";
    if (!m.in_memory) {
      out << "[systems]\n";
      for (std::size_t l = 0; l < m.system_crc32.size(); ++l)
        out << system_key(static_cast<int>(l)) << " = " << m.system_crc32[l] << "\n";
    }
  });
}

CqManifest read_cq_manifest(const std::filesystem::path& path) {
  pt::ptree tree;
  try {
    pt::read_ini(path.string(), tree);
  } catch (const pt::ini_parser_error& error) {
    throw std::runtime_error(path.string() + ": cannot read the manifest: " + error.message() +
                             (error.line() ? " (line " + std::to_string(error.line()) + ")" : ""));
  }
  if (tree.get<std::string>("format.name", "") != format_name ||
      tree.get<int>("format.version", 0) != format_version)
    throw std::runtime_error(path.string() + ": not a geobem-assemble manifest (format " + format_name + " version " +
                             std::to_string(format_version) + " expected)");
  CqManifest m;
  const auto folder = path.parent_path().empty() ? std::filesystem::current_path() : path.parent_path();
  m.mesh_file = std::filesystem::absolute(folder / get<std::string>(tree, "mesh.file", path)).lexically_normal();
  m.mesh_crc32 = get<std::uint32_t>(tree, "mesh.crc32", path);
  m.nodes = get<std::size_t>(tree, "mesh.nodes", path);
  m.triangles = get<std::size_t>(tree, "mesh.triangles", path);
  m.conditions.fixed = split(get<std::string>(tree, "conditions.fixed", path), ',');
  m.conditions.free = split(get<std::string>(tree, "conditions.free", path), ',');
  m.conditions.traction = split(get<std::string>(tree, "conditions.traction", path), ';');
  m.young_modulus = get<double>(tree, "material.young_modulus", path);
  m.poisson_ratio = get<double>(tree, "material.poisson_ratio", path);
  m.density = get<double>(tree, "material.density", path);
  m.cq.time_step = get<double>(tree, "cq.time_step", path);
  m.cq.steps = get<int>(tree, "cq.steps", path);
  m.cq.epsilon = get<double>(tree, "cq.epsilon", path);
  m.load_history = get<std::string>(tree, "cq.load_history", path);
  m.unknowns = get<int>(tree, "cq.unknowns", path);
  m.frequencies = get<int>(tree, "cq.frequencies", path);
  try {
    bem::check_cq_settings(m.cq);
  } catch (const std::invalid_argument& error) {
    throw std::runtime_error(path.string() + ": " + error.what());
  }
  if (m.frequencies != bem::cq_frequency_count(m.cq) || m.unknowns <= 0)
    throw std::runtime_error(path.string() + ": frequencies = " + std::to_string(m.frequencies) + " and unknowns = " +
                             std::to_string(m.unknowns) + " do not fit steps = " + std::to_string(m.cq.steps));
  const std::string mode = get<std::string>(tree, "storage.mode", path);
  if (mode != "files" && mode != "in-memory")
    throw std::runtime_error(path.string() + ": storage.mode '" + mode + "': expected files or in-memory");
  m.in_memory = mode == "in-memory";
  m.bytes_needed = get<std::uint64_t>(tree, "storage.bytes_needed", path);
  if (!m.in_memory)
    for (int l = 0; l < m.frequencies; ++l)
      m.system_crc32.push_back(get<std::uint32_t>(tree, "systems." + system_key(l), path));
  return m;
}

}  // namespace geobem::cq_stage

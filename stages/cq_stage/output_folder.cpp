#include "stages/cq_stage/output_folder.hpp"

#include <unistd.h>

#include <stdexcept>

namespace geobem::cq_stage {

namespace fs = std::filesystem;

OutputFolder::OutputFolder(fs::path destination, const std::string& marker)
    : destination_(std::move(destination)) {
  if (destination_.filename().empty()) destination_ = destination_.parent_path();
  if (fs::exists(destination_)) {
    if (!fs::is_directory(destination_))
      throw std::runtime_error(destination_.string() + ": exists and is not a folder");
    if (!fs::is_empty(destination_) && !fs::exists(destination_ / marker))
      throw std::runtime_error(destination_.string() + ": holds files but no " + marker +
                               " of an earlier run; the run would replace the whole folder: choose another --out");
  }
  staging_ = destination_;
  staging_ += ".partial-" + std::to_string(getpid());
  fs::remove_all(staging_);
  fs::create_directories(staging_);
}

OutputFolder::~OutputFolder() {
  if (committed_) return;
  std::error_code ignored;
  fs::remove_all(staging_, ignored);
}

void OutputFolder::commit() {
  fs::path earlier = destination_;
  earlier += ".earlier-" + std::to_string(getpid());
  const bool had_earlier = fs::exists(destination_);
  if (had_earlier) fs::rename(destination_, earlier);
  try {
    fs::rename(staging_, destination_);
  } catch (...) {
    if (had_earlier) fs::rename(earlier, destination_);
    throw;
  }
  committed_ = true;
  if (had_earlier) fs::remove_all(earlier);
}

}  // namespace geobem::cq_stage

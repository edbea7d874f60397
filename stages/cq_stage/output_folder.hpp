#pragma once
// A stage's output folder replaced as a unit: the run writes into a staging
// folder beside it, and commit() swaps the staged folder in, so that no file
// of an earlier run survives beside the new ones and a failed run leaves the
// earlier set untouched.
#include <filesystem>
#include <string>

namespace geobem::cq_stage {

class OutputFolder {
 public:
  /// Prepares `destination`. `marker` is the file an earlier output of the
  /// same stage holds (e.g. "manifest.ini"): an existing non-empty folder
  /// without it is refused (std::runtime_error naming it) rather than
  /// replaced, and so is a destination that is not a folder.
  OutputFolder(std::filesystem::path destination, const std::string& marker);
  /// Removes the staging folder unless committed.
  ~OutputFolder();
  OutputFolder(const OutputFolder&) = delete;
  OutputFolder& operator=(const OutputFolder&) = delete;

  /// Where to write `name` now (inside the staging folder).
  std::filesystem::path path(const std::string& name) const { return staging_ / name; }
  const std::filesystem::path& destination() const { return destination_; }
  /// Puts the staged folder in place of the destination and removes the earlier one.
  void commit();

 private:
  std::filesystem::path destination_, staging_;
  bool committed_ = false;
};

}  // namespace geobem::cq_stage

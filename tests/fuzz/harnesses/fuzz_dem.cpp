// DEMs through GDAL behind geobem's checks (mesh/terrain/dem_raster.cpp):
// the path and content checks, the driver allow-list, the size against a
// memory budget, the geotransform, CRS and height checks, and the projection
// of a geographic DEM. A budget of 16 MiB keeps every accepted raster small
// enough to project well inside the 5 s an input may take.
#include "mesh/terrain/dem_raster.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = geobem::fuzz::input_file(data, size, ".tif");
  geobem::terrain::DemOptions options;
  options.no_data = geobem::terrain::NoData::Skip;
  options.memory_budget = 16u << 20;
  return geobem::fuzz::refusal_is_fine([&] { geobem::terrain::read_dem(path.string(), options); });
}

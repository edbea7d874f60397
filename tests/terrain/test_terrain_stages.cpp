// The terrain stages as a user runs them: geobem-model --dem refuses bad
// rasters with GDAL's or its own message and exit 1 and leaves an earlier
// layer.vts as it was; a good DEM becomes layer.vts, which geobem-gravity
// and geobem-magnetic evaluate on draped stations, warning about stations
// below the topography, writing stations that form a grid as a structured
// grid (.vts, one surface over the terrain) and the others as points
// (.vtu), and recording the CRS in .prj files.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>

#include <vtkDataArray.h>
#include <vtkPointData.h>
#include <vtkStructuredGrid.h>
#include <vtkUnstructuredGrid.h>

#include "../support/test_files.hpp"
#include "mesh/io/csv_table.hpp"
#include "mesh/io/vtk_output.hpp"
#include "tests/support/raster_files.hpp"
#include "tests/support/structured_grid_file.hpp"

namespace geobem::test {
namespace {

const std::string model_exe = GEOBEM_MODEL_EXE, gravity_exe = GEOBEM_GRAVITY_EXE, magnetic_exe = GEOBEM_MAGNETIC_EXE;

std::filesystem::path utm_dem(const std::string& name, bool with_nan) {
  const double gt[6] = {730000.0, 80.0, 0.0, 4040000.0, 0.0, -90.0};
  const auto path = scratch(name);
  write_geotiff(path, 9, 7, gt, "EPSG:32616", [&](int c, int r) {
    return with_nan && c == 3 && r == 4 ? std::numeric_limits<double>::quiet_NaN() : 300.0 + 20.0 * c + 15.0 * r;
  });
  return path;
}

TEST(TerrainStages, BadRastersAreRefusedAndLeaveTheLayerAlone) {
  const auto out = scratch("bad_out");
  ASSERT_EQ(run_command(model_exe + " -q --dem " + utm_dem("good.tif", false).string() + " --out " + out.string())
                .exit_code,
            0);
  const std::string before = read_text(out / "layer.vts");
  const auto text = write_text("text.tif", "not a raster\n");
  const double gt[6] = {-84.3, 0.001, 0.0, 36.6, 0.0, -0.001};
  const auto geographic = scratch("geo.tif"), bare = scratch("bare.tif");
  write_geotiff(geographic, 4, 4, gt, "EPSG:4326", [](int, int) { return 400.0; });
  write_geotiff(bare, 4, 4, nullptr, "", [](int, int) { return 400.0; });
  const struct {
    std::string options, message;
    int exit_code;
  } cases[] = {
      {"--dem " + text.string(), "not a raster GDAL can read", 1},
      {"--dem " + bare.string(), "not georeferenced", 1},
      {"--dem " + geographic.string() + " --crs EPSG:999999", "PROJ cannot use", 2},
      {"--dem " + utm_dem("nan.tif", true).string(), "1 no-data or NaN height(s), the first at row 4, column 3", 1},
  };
  for (const auto& [options, message, exit_code] : cases) {
    const StageRun run = run_command(model_exe + " -q " + options + " --out " + out.string());
    EXPECT_EQ(run.exit_code, exit_code) << options;
    EXPECT_NE(run.errors.find(message), std::string::npos) << run.errors;
    EXPECT_EQ(read_text(out / "layer.vts"), before) << options;
  }
  const StageRun skipped =
      run_command(model_exe + " --dem " + utm_dem("nan2.tif", true).string() + " --nodata skip --out " + out.string());
  EXPECT_EQ(skipped.exit_code, 0) << skipped.errors;
  EXPECT_NE(skipped.errors.find("1 no-data cell(s) of the DEM skipped"), std::string::npos) << skipped.errors;
}

TEST(TerrainStages, LayerGravityAndMagneticOnDrapedStations) {
  const auto out = scratch("layer_out");
  ASSERT_EQ(run_command(model_exe + " -q --dem " + utm_dem("dem.tif", false).string() + " --out " + out.string())
                .exit_code,
            0);
  const std::string layer = (out / "layer.vts").string(), common = " --device cpu --out ";
  const auto gravity_out = scratch("layer_gravity"), magnetic_out = scratch("layer_magnetic");
  const StageRun below = run_command(gravity_exe + " -q --prisms " + layer + " --stations-on-dem " + layer +
                                     " --clearance -1 --station-step 2 --fields g_z" + common + gravity_out.string());
  EXPECT_EQ(below.exit_code, 0) << below.errors;
  EXPECT_NE(below.errors.find("20 of 20 draped station(s) lie below the topography"), std::string::npos)
      << below.errors;
  EXPECT_NE(read_text(gravity_out / "gravity.prj").find("UTM zone 16N"), std::string::npos);
  // Every 2nd node of 9 x 7: a 5 x 4 grid draped 1 m below the nodes'
  // heights, the CSV's stations in the grid's point order.
  {
    const auto grid_file = geobem::test::read_structured_grid(gravity_out / "gravity.vts");
    vtkStructuredGrid* grid = grid_file.grid;
    ASSERT_NE(grid, nullptr);
    EXPECT_EQ(grid_file.dims, (std::array<int, 3>{5, 4, 1}));
    const CsvTable table = read_csv_table((gravity_out / "gravity.csv").string());
    ASSERT_EQ(table.rows.size(), 20u);
    vtkDataArray* g_z = grid->GetPointData()->GetArray("g_z");
    ASSERT_NE(g_z, nullptr);
    for (vtkIdType s = 0; s < 20; ++s) {
      double point[3];
      grid->GetPoint(s, point);
      const int column = 2 * static_cast<int>(s % 5), row_from_south = 2 * static_cast<int>(s / 5);
      EXPECT_DOUBLE_EQ(point[0], 730040.0 + 80.0 * column);
      EXPECT_DOUBLE_EQ(point[1], 4040000.0 - 7 * 90.0 + 45.0 + 90.0 * row_from_south);
      EXPECT_DOUBLE_EQ(point[2], 300.0 + 20.0 * column + 15.0 * (6 - row_from_south) - 1.0);  // row 0 is northern
      for (int c = 0; c < 3; ++c) EXPECT_EQ(point[c], table.rows[s][c]);
      EXPECT_EQ(g_z->GetComponent(s, 0), table.rows[s][3]);
    }
    EXPECT_FALSE(std::filesystem::exists(gravity_out / "gravity.vtu"));
  }
  const StageRun magnetic =
      run_command(magnetic_exe + " -q --prisms " + layer + " --stations-on-dem " + layer +
                  " --clearance 100 --station-spacing 150 --susceptibility 0.01 --inclination 64 --declination -5 "
                  "--field-intensity 51000" + common + magnetic_out.string());
  EXPECT_EQ(magnetic.exit_code, 0) << magnetic.errors;
  EXPECT_EQ(read_text(magnetic_out / "magnetic.csv").substr(0, 40), "easting,northing,upward,b_e,b_n,b_u,tfa\n");
  // A spacing of 150 m over 640 m x 540 m of nodes: a 5 x 4 grid.
  {
    const auto grid_file = geobem::test::read_structured_grid(magnetic_out / "magnetic.vts");
    vtkStructuredGrid* grid = grid_file.grid;
    ASSERT_NE(grid, nullptr);
    EXPECT_EQ(grid_file.dims, (std::array<int, 3>{5, 4, 1}));
    EXPECT_NE(grid->GetPointData()->GetArray("tfa"), nullptr);
  }
  const StageRun no_field = run_command(magnetic_exe + " -q --prisms " + layer + " --stations-on-dem " + layer +
                                        " --clearance 100 --station-step 3" + common + magnetic_out.string());
  EXPECT_EQ(no_field.exit_code, 2);
  EXPECT_NE(no_field.errors.find("--susceptibility (induced) or --magnetization"), std::string::npos)
      << no_field.errors;
  EXPECT_TRUE(std::filesystem::exists(magnetic_out / "magnetic.csv"));  // the earlier set stays

  // A drape with a position left out (a skipped no-data cell) is no grid: scattered points.
  const auto holed_out = scratch("holed_layer");
  ASSERT_EQ(run_command(model_exe + " -q --nodata skip --dem " + utm_dem("holed.tif", true).string() + " --out " +
                        holed_out.string())
                .exit_code,
            0);
  const std::string holed = (holed_out / "layer.vts").string();
  const auto holed_gravity = scratch("holed_gravity");
  const StageRun gaps = run_command(gravity_exe + " --prisms " + holed + " --stations-on-dem " + holed +
                                    " --clearance 100 --station-step 1 --fields g_z" + common + holed_gravity.string());
  EXPECT_EQ(gaps.exit_code, 0) << gaps.errors;
  EXPECT_NE(gaps.errors.find("1 station position(s) without a DEM height (no-data) left out"), std::string::npos)
      << gaps.errors;
  const auto points = read_vtk_xml(holed_gravity / "gravity.vtu");
  ASSERT_NE(vtkUnstructuredGrid::SafeDownCast(points), nullptr);
  EXPECT_EQ(points->GetNumberOfElements(vtkDataObject::POINT), 62);
  EXPECT_FALSE(std::filesystem::exists(holed_gravity / "gravity.vts"));
}

TEST(TerrainStages, StationsOnTheTerrainSeeItFromAbove) {
  // Stations draped at clearance 0 lie on the top faces of the layer's cells
  // (the DEM nodes are the cell centres): g_zz and b_u are the limits from
  // above, the fields 1 µm above them to about 1e-8 (the tensor's gradient is
  // O(1/cell size)); the two-sided mean was 2πGρ = 559.8 E lower.
  const auto out = scratch("clearance_zero_layer");
  ASSERT_EQ(run_command(model_exe + " -q --dem " + utm_dem("flat.tif", false).string() + " --out " + out.string())
                .exit_code,
            0);
  const std::string layer = (out / "layer.vts").string();
  for (const char* stage : {"gravity", "magnetic"}) {
    const std::string exe = std::string(stage) == "gravity" ? gravity_exe : magnetic_exe;
    const std::string fields = std::string(stage) == "gravity"
                                   ? " --fields g_z,g_zz"
                                   : " --fields b_u --susceptibility 0.01 --field-intensity 51000 --inclination 64 "
                                     "--declination -5";
    const auto on = scratch(std::string(stage) + "_on_terrain"), above = scratch(std::string(stage) + "_above_terrain");
    const std::string common = exe + " -q --device cpu --prisms " + layer + " --stations-on-dem " + layer +
                               " --station-step 2" + fields + " --out ";
    const StageRun at_zero = run_command(common + on.string() + " --clearance 0");
    ASSERT_EQ(at_zero.exit_code, 0) << at_zero.errors;
    EXPECT_EQ(at_zero.errors.find("warning"), std::string::npos) << at_zero.errors;
    ASSERT_EQ(run_command(common + above.string() + " --clearance 1e-6").exit_code, 0);
    const auto a = read_csv_table((on / (std::string(stage) + ".csv")).string());
    const auto b = read_csv_table((above / (std::string(stage) + ".csv")).string());
    ASSERT_EQ(a.rows.size(), 20u);
    for (std::size_t r = 0; r < a.rows.size(); ++r)
      for (std::size_t c = 3; c < a.columns.size(); ++c)
        EXPECT_NEAR(a.rows[r][c], b.rows[r][c], 1e-6 * std::abs(b.rows[r][c])) << stage << " row " << r << " "
                                                                               << a.columns[c];
  }
}

}  // namespace
}  // namespace geobem::test

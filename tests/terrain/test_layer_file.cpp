// layer.vts (mesh/terrain/layer_file.hpp): one hexahedral cell per prism
// over a grid of the prisms' corners, as ParaView counts them, with the
// heights as cell data; read back to the same layer (NaN cells included),
// each cell's outline that of its prism (gravity::layer_prism), the upper
// sheet at the mean top of the prisms around each corner; and a layer of the
// earlier format (heights on points over the prism centres) refused with
// what to do.
#include <gtest/gtest.h>

#include <vtkCellData.h>
#include <vtkDataArray.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkStructuredGrid.h>

#include <array>
#include <cmath>
#include <limits>

#include "../support/test_files.hpp"
#include "mesh/io/vtk_output.hpp"
#include "mesh/terrain/layer_file.hpp"
#include "tests/support/structured_grid_file.hpp"

namespace geobem::terrain {
namespace {

using test::error_of;
using test::scratch;

/// A 4 x 3 layer: cells above and below the reference, one on it, one skipped.
LayerModel small_layer() {
  LayerModel model;
  model.layer.geometry = {4, 3, 730000.0, 4040000.0, 72.5, 90.0, 100.0, 2670.0, -1630.0};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  model.layer.surface = {250.0, 260.5, 270.0, 100.0, 240.0, nan, 90.0, 300.0, 210.0, 220.0, 230.0, 95.5};
  model.crs = "EPSG:32616";
  model.crs_wkt = "PROJCS[\"WGS 84 / UTM zone 16N\"]";
  return model;
}

TEST(LayerFile, OneCellPerPrismReadBackAsWritten) {
  const LayerModel model = small_layer();
  const gravity::LayerGeometry& g = model.layer.geometry;
  const auto path = scratch("layer.vts");
  write_layer_vts(path, model);

  // As ParaView sees it: 5 x 4 x 2 corner points, 4 x 3 cells, one per prism.
  const auto grid_file = geobem::test::read_structured_grid(path);
  vtkStructuredGrid* grid = grid_file.grid;
  ASSERT_NE(grid, nullptr);
  EXPECT_EQ(grid_file.dims, (std::array<int, 3>{5, 4, 2}));
  ASSERT_EQ(grid->GetNumberOfCells(), 12);
  vtkDataArray* surface = grid->GetCellData()->GetArray("surface");
  vtkDataArray* density = grid->GetCellData()->GetArray("density");
  ASSERT_NE(surface, nullptr);
  ASSERT_NE(density, nullptr);
  EXPECT_EQ(grid->GetPointData()->GetArray("surface"), nullptr);
  const double expected_density[] = {2670, 2670, 2670, 0, 2670, 0, -1630, 2670, 2670, 2670, 2670, -1630};
  for (vtkIdType c = 0; c < 12; ++c) {
    const double top = model.layer.surface[c];
    if (std::isnan(top))
      EXPECT_TRUE(std::isnan(surface->GetComponent(c, 0))) << c;
    else
      EXPECT_EQ(surface->GetComponent(c, 0), top) << c;
    EXPECT_EQ(density->GetComponent(c, 0), expected_density[c]) << c;
    // The cell's outline is its prism's: west..east, south..north.
    const gravity::Prism prism = gravity::layer_prism(g, c, top);
    double bounds[6];
    grid->GetCell(c)->GetBounds(bounds);
    EXPECT_DOUBLE_EQ(bounds[0], prism.west) << c;
    EXPECT_DOUBLE_EQ(bounds[1], prism.east) << c;
    EXPECT_DOUBLE_EQ(bounds[2], prism.south) << c;
    EXPECT_DOUBLE_EQ(bounds[3], prism.north) << c;
  }
  // The lower sheet at the reference; the upper at the mean top of the
  // prisms around each corner, the skipped one left out.
  const auto top = [&](int i, int j) { return model.layer.surface[static_cast<std::size_t>(i + 4 * j)]; };
  for (int j = 0; j <= 3; ++j)
    for (int i = 0; i <= 4; ++i) {
      double sum = 0;
      int count = 0;
      for (int cj = j - 1; cj <= j; ++cj)
        for (int ci = i - 1; ci <= i; ++ci)
          if (ci >= 0 && ci < 4 && cj >= 0 && cj < 3 && !std::isnan(top(ci, cj))) sum += top(ci, cj), ++count;
      double lower[3], upper[3];
      grid->GetPoint(i + 5 * j, lower);
      grid->GetPoint(i + 5 * j + 20, upper);
      EXPECT_DOUBLE_EQ(lower[0], g.west_centre + (i - 0.5) * g.spacing_e);
      EXPECT_DOUBLE_EQ(lower[1], g.south_centre + (j - 0.5) * g.spacing_n);
      EXPECT_EQ(lower[2], g.reference);
      EXPECT_EQ(upper[0], lower[0]);
      EXPECT_EQ(upper[1], lower[1]);
      EXPECT_DOUBLE_EQ(upper[2], sum / count) << i << ", " << j;
    }

  // As the stages read it: the same layer.
  const LayerModel back = read_layer_vts(path);
  const gravity::LayerGeometry& b = back.layer.geometry;
  EXPECT_EQ(b.shape_e, 4);
  EXPECT_EQ(b.shape_n, 3);
  EXPECT_EQ(b.west_centre, g.west_centre);
  EXPECT_EQ(b.south_centre, g.south_centre);
  EXPECT_EQ(b.spacing_e, g.spacing_e);
  EXPECT_EQ(b.spacing_n, g.spacing_n);
  EXPECT_EQ(b.reference, g.reference);
  EXPECT_EQ(b.density_above, g.density_above);
  EXPECT_EQ(b.density_below, g.density_below);
  ASSERT_EQ(back.layer.surface.size(), 12u);
  for (std::size_t c = 0; c < 12; ++c)
    if (std::isnan(model.layer.surface[c]))
      EXPECT_TRUE(std::isnan(back.layer.surface[c]));
    else
      EXPECT_EQ(back.layer.surface[c], model.layer.surface[c]);
  EXPECT_EQ(back.crs, model.crs);
  EXPECT_EQ(back.crs_wkt, model.crs_wkt);
}

TEST(LayerFile, EarlierFormatIsRefusedWithWhatToDo) {
  // Heights on the points of a 4 x 3 x 2 grid over the prism centres, as
  // geobem-model --dem wrote layers before they had one cell per prism.
  const LayerModel model = small_layer();
  auto grid = vtkSmartPointer<vtkStructuredGrid>::New();
  grid->SetDimensions(4, 3, 2);
  auto points = vtkSmartPointer<vtkPoints>::New();
  auto surface = vtkSmartPointer<vtkDoubleArray>::New();
  surface->SetName("surface");
  for (int k = 0; k < 2; ++k)
    for (int c = 0; c < 12; ++c) {
      points->InsertNextPoint(730000.0 + 72.5 * (c % 4), 4040000.0 + 90.0 * (c / 4), k == 0 ? 100.0 : 200.0);
      surface->InsertNextValue(model.layer.surface[c]);
    }
  grid->SetPoints(points);
  grid->GetPointData()->AddArray(surface);
  for (const char* name : {"reference", "density_above", "density_below", "west_centre", "south_centre"}) {
    auto value = vtkSmartPointer<vtkDoubleArray>::New();
    value->SetName(name);
    value->InsertNextValue(1.0);
    grid->GetFieldData()->AddArray(value);
  }
  const auto path = scratch("old_layer.vts");
  write_vtk_xml(grid, path);
  EXPECT_NE(error_of([&] { read_layer_vts(path); })
                .find("old_layer.vts: a prism layer of an earlier geobem (heights on points over the prism centres); "
                      "rerun geobem-model --dem"),
            std::string::npos)
      << error_of([&] { read_layer_vts(path); });
}

}  // namespace
}  // namespace geobem::terrain

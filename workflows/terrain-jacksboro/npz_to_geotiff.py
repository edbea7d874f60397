#!/usr/bin/python3
"""Jacksboro fault DEM (matplotlib's sample data) as a GeoTIFF GDAL reads.

The .npz (Debian package python-matplotlib-data) holds `elevation` (int16,
344 rows x 403 columns, metres, rows from north to south) and the bounds
xmin, xmax (longitude) and ymin, ymax (latitude; ymin is the northern edge,
as the rows run north to south), with cell sizes dx, dy in degrees. The
bounds span exactly 403 dx and 344 dy, so they are the outer edges of the
cells: the geotransform starts at (xmin, ymin) with steps dx and -dy. The
CRS is geographic WGS 84 (EPSG:4326): longitude, latitude in degrees.
With --step K only every K-th node along each axis is kept (cells K times as
large, centred on the nodes kept): a coarse DEM for quick runs.

Usage: npz_to_geotiff.py NPZ OUT.tif [--step K]
"""
import argparse
import os
import sys

import numpy as np
from osgeo import gdal, osr


def main():
    parser = argparse.ArgumentParser(usage=__doc__.strip().splitlines()[-1].split(": ", 1)[1])
    parser.add_argument("source")
    parser.add_argument("target")
    parser.add_argument("--step", type=int, default=1)
    arguments = parser.parse_args()
    source, target, step = arguments.source, arguments.target, arguments.step
    if step < 1:
        sys.exit(f"npz_to_geotiff: --step {step}: expected a whole number of at least 1")
    data = np.load(source)
    elevation = data["elevation"].astype(np.float32)
    rows, columns = elevation.shape
    west, north, dx, dy = float(data["xmin"]), float(data["ymin"]), float(data["dx"]), float(data["dy"])
    east, south = float(data["xmax"]), float(data["ymax"])
    if abs((east - west) / dx - columns) > 1e-6 or abs((north - south) / dy - rows) > 1e-6:
        sys.exit(f"{source}: bounds do not span {columns} x {rows} cells of {dx} x {dy} degrees")
    if step > 1:  # nodes 0, K, 2K, ...: the first cell's centre stays, cells K times as large
        elevation = elevation[::step, ::step]
        rows, columns = elevation.shape
        west, north = west + 0.5 * dx * (1 - step), north - 0.5 * dy * (1 - step)
        dx, dy = dx * step, dy * step
    gdal.UseExceptions()
    temporary = target + ".part.tif"  # complete file or none under the final name
    dataset = gdal.GetDriverByName("GTiff").Create(temporary, columns, rows, 1, gdal.GDT_Float32)
    dataset.SetGeoTransform((west, dx, 0.0, north, 0.0, -dy))
    crs = osr.SpatialReference()
    crs.ImportFromEPSG(4326)
    dataset.SetProjection(crs.ExportToWkt())
    dataset.GetRasterBand(1).WriteArray(elevation)
    dataset.FlushCache()
    dataset = None
    os.replace(temporary, target)
    print(f"npz_to_geotiff: {target}: {columns} x {rows} cells, {elevation.min():.0f} to {elevation.max():.0f} m",
          file=sys.stderr)


if __name__ == "__main__":
    main()

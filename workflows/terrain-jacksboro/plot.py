"""The terrain-jacksboro workflow's plot: g_z and the total-field anomaly over the DEM's relief.

Usage: plot.py OUT_FOLDER OUTPUT.png

Reads OUT_FOLDER/gravity/gravity.csv (g_z), OUT_FOLDER/magnetic/magnetic.csv
(tfa) and the CRS of their stations (gravity.prj), and the DEM
OUT_FOLDER/dem/jacksboro.tif, which Debian's python3-gdal projects into
that CRS for the relief. Draws three maps in the stations' coordinates: the
relief with the stations, g_z and the total-field anomaly, both with the
relief's contour lines. Prints each field's range.
"""
import os
import sys

import numpy as np
from osgeo import gdal

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import plots  # noqa: E402

KM = 1e-3


def relief(dem, crs_wkt):
    """The DEM projected into the stations' CRS (bilinear): easting and
    northing of its cell centres (1D, m) and heights (northing x easting, m,
    NaN outside the DEM)."""
    gdal.UseExceptions()
    projected = gdal.Warp("", dem, format="MEM", dstSRS=crs_wkt, resampleAlg="bilinear", dstNodata=np.nan,
                          outputType=gdal.GDT_Float64)
    heights = projected.GetRasterBand(1).ReadAsArray()
    x0, dx, _, y0, _, dy = projected.GetGeoTransform()
    easting = x0 + dx * (np.arange(heights.shape[1]) + 0.5)
    northing = y0 + dy * (np.arange(heights.shape[0]) + 0.5)
    return easting, northing, heights


def main(out, png):
    gravity = plots.read_csv(os.path.join(out, "gravity", "gravity.csv"), ["easting", "northing", "g_z"],
                             "run the gravity stage, with g_z among its --fields")
    magnetic = plots.read_csv(os.path.join(out, "magnetic", "magnetic.csv"), ["easting", "northing", "tfa"],
                              "run the magnetic stage, with tfa among its --fields")
    dem, prj = os.path.join(out, "dem", "jacksboro.tif"), os.path.join(out, "gravity", "gravity.prj")
    for path in (dem, prj):
        if not os.path.isfile(path):
            sys.exit(f"plot: {path} missing: run the dem and gravity stages first")
    with open(prj, encoding="utf-8") as text:
        crs_wkt = text.read().strip()
    easting, northing, heights = relief(dem, crs_wkt)
    levels = np.arange(200, 1200, 200)  # relief contours every 200 m

    figure, axes = plots.plt.subplots(1, 3, figsize=(19, 6.4))
    image = axes[0].pcolormesh(easting * KM, northing * KM, heights, shading="nearest", cmap="terrain",
                               vmin=np.nanmin(heights) - 150, vmax=np.nanmax(heights))
    figure.colorbar(image, ax=axes[0], label="height above sea level (m)", shrink=0.85)
    axes[0].plot(gravity["easting"] * KM, gravity["northing"] * KM, "k.", markersize=2.5,
                 label=f"{gravity.size:,} stations, draped above it")
    axes[0].set_title(f"relief of the DEM, {np.nanmin(heights):.0f} to {np.nanmax(heights):.0f} m")
    axes[0].legend(fontsize=8, loc="lower left")
    axes[0].set_aspect("equal")
    for axis, table, field, unit, meaning in ((axes[1], gravity, "g_z", "mGal", "terrain effect g_z (positive down)"),
                                              (axes[2], magnetic, "tfa", "nT", "total-field anomaly")):
        values = table[field]
        print(f"{field}: {values.min():.4g} to {values.max():.4g} {unit}")
        plots.station_map(axis, table["easting"], table["northing"], values, f"{field} ({unit})",
                          f"{meaning}, {values.min():.3g} to {values.max():.3g} {unit}",
                          diverging=field == "tfa", scale=KM, contours=False)
    for axis in axes[1:]:
        lines = axis.contour(easting * KM, northing * KM, heights, levels=levels, colors="k", linewidths=0.5,
                             alpha=0.6)
        axis.clabel(lines, fontsize=6, fmt="%.0f m")
    for axis in axes:
        axis.set_xlim(easting[0] * KM, easting[-1] * KM)
        axis.set_ylim(northing[-1] * KM, northing[0] * KM)
        axis.set_xlabel("easting (km, UTM)")
        axis.set_ylabel("northing (km, UTM)")
    figure.suptitle("Jacksboro topography as a prism layer: gravity and magnetic terrain effect, "
                    "relief contours every 200 m; "
                    "each square is one station's value")
    figure.tight_layout()
    plots.save(figure, png)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2])

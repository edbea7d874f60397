#!/usr/bin/env python3
"""The Jacksboro terrain case through the Python module, as a notebook would do it.

The DEM (geographic WGS 84, 3 arc-seconds, 403 x 344 nodes) is projected to
UTM zone 16N (EPSG:32616) with GDAL's warp (bilinear, the same node count;
nodes outside the DEM's footprint are NaN and hold no prism), turned into
Harmonica's prism layer (reference 0 m, 2670 kg/m^3, magnetized by induction:
susceptibility 0.01 SI in a 51,000 nT field, inclination 64 degrees,
declination -5 degrees) and evaluated from its grid on stations 100 m above
every --station-step-th node (30): g_z (mGal), the magnetic field and its
total-field anomaly (nT). Then Harmonica computes the same fields at every
--harmonica-step-th of those stations, and the script prints the largest
difference over the largest field and both times. Writes OUT/terrain.png (g_z
and the total-field anomaly over the topography) and OUT/fields.csv.

Usage: terrain.py DEM.tif OUT [--station-step K] [--harmonica-step K] [--device auto|cpu|cuda]
"""
import argparse
import os
import tempfile
import time

import numpy as np
from osgeo import gdal, osr

import geobem

CHI, INTENSITY, INCLINATION, DECLINATION = 0.01, 51000.0, 64.0, -5.0
MU0 = 4e-7 * np.pi  # H/m, as Harmonica


def projected_dem(path):
    """Heights (rows south to north) and the easting, northing of the node centres in UTM 16N."""
    gdal.UseExceptions()
    source = gdal.Open(path)
    utm = osr.SpatialReference()
    utm.ImportFromEPSG(32616)
    warped = gdal.Warp("", source, format="MEM", dstSRS=utm.ExportToWkt(), width=source.RasterXSize,
                       height=source.RasterYSize, resampleAlg="bilinear", dstNodata=np.nan,
                       outputType=gdal.GDT_Float64)
    west, step_e, _, north, _, step_n = warped.GetGeoTransform()
    heights = warped.GetRasterBand(1).ReadAsArray()[::-1]
    easting = west + step_e * (0.5 + np.arange(warped.RasterXSize))
    northing = north + step_n * (warped.RasterYSize - 0.5) - step_n * np.arange(warped.RasterYSize)
    return heights, easting, northing


def timed(call):
    start = time.perf_counter()
    result = call()
    return result, time.perf_counter() - start


def write_atomically(path, write):
    """write(temporary path), then the temporary renamed to `path`; nothing left on failure."""
    folder, name = os.path.split(path)
    handle, temporary = tempfile.mkstemp(prefix=f".{name}.", suffix=os.path.splitext(name)[1], dir=folder)
    os.close(handle)
    try:
        write(temporary)
        os.replace(temporary, path)
    except BaseException:
        os.unlink(temporary)
        raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dem", help="the Jacksboro DEM as GeoTIFF (terrain-jacksboro's npz_to_geotiff.py)")
    parser.add_argument("out", help="output folder")
    parser.add_argument("--station-step", type=int, default=30, help="stations over every K-th node (default 30)")
    parser.add_argument("--harmonica-step", type=int, default=10, help="Harmonica on every K-th station (default 10)")
    parser.add_argument("--device", default="auto", help="auto, cpu or cuda")
    parser.add_argument("--no-plot", action="store_true", help="write fields.csv and heights.npz only")
    options = parser.parse_args()
    if options.station_step < 1 or options.harmonica_step < 1:
        parser.error("--station-step and --harmonica-step must be >= 1")
    os.makedirs(options.out, exist_ok=True)

    heights, easting, northing = projected_dem(options.dem)
    inclination, declination = np.radians(INCLINATION), np.radians(DECLINATION)
    direction = np.array([np.cos(inclination) * np.sin(declination), np.cos(inclination) * np.cos(declination),
                          -np.sin(inclination)])  # easting, northing, upward
    magnetization = CHI * INTENSITY * 1e-9 / MU0 * direction  # induced, A/m
    names = ("magnetization_e", "magnetization_n", "magnetization_u")
    properties = {"density": np.full(heights.shape, 2670.0)}
    properties.update({name: np.full(heights.shape, value) for name, value in zip(names, magnetization)})
    layer = geobem.prism_layer((easting, northing), heights, 0.0, properties=properties)

    step = options.station_step
    e, n = np.meshgrid(easting[::step], northing[::step])
    h = heights[::step, ::step] + 100.0
    keep = np.isfinite(h)
    stations = (e[keep], n[keep], h[keep])
    g_z, gravity_seconds = timed(lambda: layer.geobem.gravity(stations, "g_z", device=options.device))
    b, magnetic_seconds = timed(lambda: layer.geobem.magnetic(stations, "b", device=options.device))
    tfa = geobem.total_field_anomaly(b, INCLINATION, DECLINATION)
    cells = int(np.sum(np.isfinite(heights)))
    print(f"terrain: {cells} prisms x {stations[0].size} stations ({options.device}): g_z in {gravity_seconds:.2f} s, "
          f"b_e, b_n, b_u in {magnetic_seconds:.2f} s")

    compare_with_harmonica(layer, stations, g_z, b, options.harmonica_step, gravity_seconds, magnetic_seconds)
    write_atomically(os.path.join(options.out, "fields.csv"), lambda path: np.savetxt(
        path, np.column_stack([*stations, g_z, *b, tfa]), delimiter=",", fmt="%.17g", comments="",
        header="easting,northing,upward,g_z,b_e,b_n,b_u,tfa"))
    write_atomically(os.path.join(options.out, "heights.npz"),
                     lambda path: np.savez(path, easting=easting, northing=northing, heights=heights))
    print(f"terrain: wrote {options.out}/fields.csv and heights.npz")
    if not options.no_plot:
        plot(options.out)


def compare_with_harmonica(layer, stations, g_z, b, every, gravity_seconds, magnetic_seconds):
    """Harmonica (Uieda et al. 2020) on every `every`-th station: its layer's g_z and prism_magnetic's b."""
    import harmonica as hm

    subset = tuple(c[::every] for c in stations)
    mask = np.isfinite(layer.top.values) & (layer.top.values > layer.bottom.values)
    centre_e, centre_n = np.meshgrid(layer.easting.values, layer.northing.values)
    half_e = (layer.easting.values[1] - layer.easting.values[0]) / 2
    half_n = (layer.northing.values[1] - layer.northing.values[0]) / 2
    e, n = centre_e[mask], centre_n[mask]
    prisms = np.column_stack([e - half_e, e + half_e, n - half_n, n + half_n, layer.bottom.values[mask],
                              layer.top.values[mask]])
    magnetization = tuple(layer[name].values[mask] for name in ("magnetization_e", "magnetization_n",
                                                                 "magnetization_u"))
    hm.prism_gravity(tuple(c[:1] for c in subset), prisms[:1], [1.0], field="g_z")  # numba compiles here
    hm.prism_magnetic(tuple(c[:1] for c in subset), prisms[:1], tuple(m[:1] for m in magnetization), field="b")
    theirs_g, harmonica_g = timed(lambda: layer.prism_layer.gravity(subset, "g_z"))
    theirs_b, harmonica_b = timed(lambda: hm.prism_magnetic(subset, prisms, magnetization, field="b"))
    scale = stations[0].size / subset[0].size
    print(f"harmonica {hm.__version__} on {subset[0].size} of {stations[0].size} stations: g_z {harmonica_g:.2f} s "
          f"(x{scale:.0f} for all: {harmonica_g * scale / gravity_seconds:.0f} times geobem's time), "
          f"b {harmonica_b:.2f} s (x{scale:.0f}: {harmonica_b * scale / magnetic_seconds:.0f} times)")
    for name, ours, theirs in (("g_z", g_z[::every], theirs_g), *zip(("b_e", "b_n", "b_u"), (c[::every] for c in b),
                                                                    theirs_b)):
        difference = np.max(np.abs(ours - theirs)) / np.max(np.abs(theirs))
        print(f"  {name}: largest |geobem - harmonica| / largest |field| = {difference:.1e}")


def plot(folder, path=None):
    """PATH (default FOLDER/terrain.png) from FOLDER/fields.csv and FOLDER/heights.npz."""
    fields = np.genfromtxt(os.path.join(folder, "fields.csv"), delimiter=",", names=True)
    with np.load(os.path.join(folder, "heights.npz")) as grid:
        easting, northing, heights = grid["easting"], grid["northing"], grid["heights"]
    stations = (fields["easting"], fields["northing"])
    path = path or os.path.join(folder, "terrain.png")
    write_atomically(path, lambda temporary: draw(temporary, easting, northing, heights, stations, fields["g_z"],
                                                  fields["tfa"]))
    print(f"terrain: wrote {path}")


def draw(path, easting, northing, heights, stations, g_z, tfa):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(13, 5.5), constrained_layout=True)
    extent = [easting[0] / 1e3, easting[-1] / 1e3, northing[0] / 1e3, northing[-1] / 1e3]
    for axis, values, title, unit, colours in ((axes[0], g_z, "terrain effect g_z", "mGal", "viridis"),
                                               (axes[1], tfa, "total-field anomaly", "nT", "RdBu_r")):
        axis.imshow(heights, origin="lower", extent=extent, cmap="gray", alpha=0.5)
        limit = np.max(np.abs(values)) if colours == "RdBu_r" else None
        shown = axis.scatter(stations[0] / 1e3, stations[1] / 1e3, c=values, s=18, cmap=colours,
                             vmin=-limit if limit else None, vmax=limit)
        figure.colorbar(shown, ax=axis, label=unit, shrink=0.85)
        axis.set(title=f"Jacksboro: {title}, 100 m above the terrain", xlabel="easting (km, UTM 16N)",
                 ylabel="northing (km)", aspect="equal")
    figure.savefig(path, dpi=110, format="png")
    plt.close(figure)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Harmonica's prism_gravity side by side with geobem on the same case.

Reads the case that `gravity_bench --peer-case DIR` wrote:
  prisms.npy    (P, 7) float64: west, east, south, north, bottom, top (m), density (kg/m³)
  stations.npy  (S, 3) float64: easting, northing, upward (m)
  geobem.npy    (10, S) float64: geobem's double results in docs/design.md's
                field order and units (J/kg, mGal, Eötvös)
  geobem.txt    "driver cuda|cpu", then lines "NAME SECONDS": geobem's timed
                calls (best of its --repeat; all ten fields, g_z alone:
                forward_model, and its driver alone as all_driver, g_z_driver)
Runs Harmonica's prism_gravity (Uieda et al. 2020, Harmonica; kernels of
choclo, Soler & Uieda) with parallel=True on every --stride-th station for each
field (one call per field, as Harmonica computes one field per call), after a
warm-up call on one station that takes numba's compilation out of the timing,
and prints per field: the largest |Harmonica - geobem| over the stations run
relative to geobem's largest |field| over the whole grid, Harmonica's time and
pairs/s, and that time scaled to the whole grid (time × S / stations run).
Harmonica and geobem share the conventions of docs/design.md (easting, northing,
upward; g_z positive downward; mGal, Eötvös), so values compare as they are.

Harmonica is imported whole when its dependencies are there; otherwise only
harmonica._forward.prism_gravity (needs numpy, numba, choclo) is loaded under
an empty `harmonica` package, skipping __init__'s imports (verde, xarray, ...).
The line "harmonica import:" says which.
"""
import argparse
import importlib
import importlib.util
import os
import sys
import time
import types

import numpy as np

FIELDS = ["potential", "g_e", "g_n", "g_z", "g_ee", "g_en", "g_ez", "g_nn", "g_nz", "g_zz"]
UNITS = ["J/kg"] + ["mGal"] * 3 + ["Eotvos"] * 6


def load_prism_gravity():
    """Harmonica's prism_gravity and how it was imported."""
    try:
        import harmonica

        return harmonica.prism_gravity, f"harmonica {harmonica.__version__} (whole package)"
    except ImportError as error:
        reason = str(error)
    spec = importlib.util.find_spec("harmonica")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("harmonica is not installed")
    for name in [name for name in sys.modules if name.split(".")[0] == "harmonica"]:
        del sys.modules[name]  # left by the failed import
    package = types.ModuleType("harmonica")
    package.__path__ = list(spec.submodule_search_locations)
    sys.modules["harmonica"] = package
    module = importlib.import_module("harmonica._forward.prism_gravity")
    version = importlib.import_module("harmonica._version").__version__
    return module.prism_gravity, f"harmonica {version} (_forward.prism_gravity only; whole package: {reason})"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", help="folder written by gravity_bench --peer-case")
    parser.add_argument("--stride", type=int, default=25, help="run every k-th station (1: all)")
    parser.add_argument("--fields", default=",".join(FIELDS), help="comma-separated fields")
    args = parser.parse_args()

    prisms = np.load(os.path.join(args.case, "prisms.npy"))
    stations = np.load(os.path.join(args.case, "stations.npy"))
    geobem = np.load(os.path.join(args.case, "geobem.npy"))
    geobem_times = {}
    with open(os.path.join(args.case, "geobem.txt")) as lines:
        driver = lines.readline().split()[1]
        for line in lines:
            name, seconds = line.split()
            geobem_times[name] = float(seconds)

    import numba

    prism_gravity, how = load_prism_gravity()
    print(f"harmonica import: {how}")
    print(f"numpy {np.__version__}, numba {numba.__version__}, {numba.get_num_threads()} numba threads")

    subset = np.arange(0, stations.shape[0], args.stride)
    coordinates = tuple(np.ascontiguousarray(stations[subset, i]) for i in range(3))
    boxes = np.ascontiguousarray(prisms[:, :6])
    density = np.ascontiguousarray(prisms[:, 6])
    pairs = boxes.shape[0] * subset.size
    scale = stations.shape[0] / subset.size
    print(f"{boxes.shape[0]} prisms, {stations.shape[0]} stations, Harmonica runs {subset.size} "
          f"(stride {args.stride}): {pairs:.4g} pairs per field; times scaled by {scale:.4g}")
    print(f"\n{'field':9s} {'max|diff|/max|field|':>21s} {'max|diff|':>11s} {'unit':6s} {'compile_s':>9s} "
          f"{'time_s':>8s} {'pairs_per_s':>11s} {'whole_grid_s':>12s}")

    whole_grid = {}
    for name in args.fields.split(","):
        f = FIELDS.index(name)
        start = time.perf_counter()
        prism_gravity(tuple(c[:1] for c in coordinates), boxes[:1], density[:1], field=name, parallel=True)
        compile_s = time.perf_counter() - start
        start = time.perf_counter()
        values = prism_gravity(coordinates, boxes, density, field=name, parallel=True, disable_checks=True)
        seconds = time.perf_counter() - start
        diff = np.max(np.abs(values - geobem[f, subset]))
        largest = np.max(np.abs(geobem[f]))
        whole_grid[name] = seconds * scale
        print(f"{name:9s} {diff / largest:21.3e} {diff:11.3e} {UNITS[f]:6s} {compile_s:9.2f} {seconds:8.3f} "
              f"{pairs / seconds:11.4g} {seconds * scale:12.4g}", flush=True)

    print()
    for name, seconds in geobem_times.items():
        print(f"geobem {driver} double, {name}: {seconds:.4f} s")
    if len(whole_grid) == len(FIELDS) and "all" in geobem_times:
        total = sum(whole_grid.values())
        print(f"Harmonica, all ten fields, whole grid (scaled): {total:.1f} s; "
              f"speed ratio Harmonica / geobem: {total / geobem_times['all']:.4g}")
    if "g_z" in whole_grid and "g_z" in geobem_times:
        print(f"Harmonica, g_z, whole grid (scaled): {whole_grid['g_z']:.1f} s; "
              f"speed ratio Harmonica / geobem: {whole_grid['g_z'] / geobem_times['g_z']:.4g}")

if __name__ == "__main__":
    main()

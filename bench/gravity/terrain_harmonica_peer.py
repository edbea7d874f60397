#!/usr/bin/env python3
"""Harmonica's prism_layer + prism_gravity and prism_magnetic beside geobem on a DEM layer.

Reads the case that `terrain_bench --peer-case DIR` wrote (its header lists
the files): the layer's prism centres and heights, the stations, geobem's g_z
(mGal) and b_e, b_n, b_u (nT), geobem's times. Builds the layer with
Harmonica's prism_layer (Uieda et al. 2020; cells with NaN heights are
ignored by Harmonica as by geobem), times it, then times
layer.prism_layer.gravity(field="g_z") (prism_gravity, choclo's kernels) and
prism_magnetic(field="b_u") and, with --fields including b, field="b" (all
three components), each with parallel=True on every --stride-th station
after a one-station warm-up call that takes numba's compilation out of the
timing. Prints per field: the largest |Harmonica - geobem| over the stations
run relative to geobem's largest |field| over all stations, Harmonica's time,
its pairs/s, that time scaled to all stations (x stations / stations run;
Harmonica loops over stations), and the speed ratio against geobem's time
(prism_layer's own time added to the gravity side). Then, at the stations
of reference.npy (kernels in long double), the largest difference of
Harmonica and of geobem from that reference, relative to the reference's
largest |field|: which of the two is closer to the exact value.
"""
import argparse
import os
import time

import numpy as np


def read_case(case):
    load = lambda name: np.load(os.path.join(case, name))
    info = {}
    with open(os.path.join(case, "geobem.txt")) as lines:
        for line in lines:
            key, *values = line.split()
            info[key] = values
    return {
        "easting": load("easting.npy")[0],
        "northing": load("northing.npy")[0],
        "surface": load("surface.npy"),
        "stations": load("stations.npy"),
        "g_z": load("geobem_g_z.npy")[0],
        "b": load("geobem_b.npy"),
        "info": info,
        "reference": load("reference.npy"),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("case", help="folder written by terrain_bench --peer-case")
    parser.add_argument("--stride", type=int, default=20, help="run every k-th station (1: all)")
    parser.add_argument("--fields", default="g_z,b_u", help="comma-separated: g_z, b_u, b (all three components)")
    args = parser.parse_args()

    import harmonica
    import numba

    case = read_case(args.case)
    info = case["info"]
    reference = float(info["reference"][0])
    above, below = (float(v) for v in info["density"])
    magnetization = [float(v) for v in info["magnetization"]]
    surface = case["surface"]
    density = np.where(surface > reference, above, below)
    print(f"harmonica {harmonica.__version__}, numpy {np.__version__}, numba {numba.__version__}, "
          f"{numba.get_num_threads()} numba threads")

    start = time.perf_counter()
    layer = harmonica.prism_layer((case["easting"], case["northing"]), surface, reference,
                                  properties={"density": density})
    layer_s = time.perf_counter() - start
    stations = case["stations"]
    subset = np.arange(0, stations.shape[0], args.stride)
    coordinates = tuple(np.ascontiguousarray(stations[subset, i]) for i in range(3))
    one = tuple(c[:1] for c in coordinates)
    cells = int(np.isfinite(surface).sum())
    pairs = cells * subset.size
    scale = stations.shape[0] / subset.size
    print(f"{cells} prisms (prism_layer: {layer_s:.3f} s), {stations.shape[0]} stations, Harmonica runs "
          f"{subset.size} (stride {args.stride}): {pairs:.4g} pairs per field; times scaled by {scale:.4g}")
    print(f"geobem ({info['driver'][0]}): g_z {float(info['g_z'][0]):.4f} s, b_e+b_n+b_u {float(info['b'][0]):.4f} s")

    finite = np.isfinite(layer.top.values.ravel())
    prisms = layer.prism_layer._to_prisms()[finite]
    m = tuple(np.full(prisms.shape[0], value) for value in magnetization)
    print(f"\n{'field':5s} {'max|diff|/max|field|':>21s} {'max|diff|':>11s} {'time_s':>8s} {'pairs_per_s':>11s} "
          f"{'all_stations_s':>14s} {'geobem_s':>9s} {'ratio':>8s}")
    for name in args.fields.split(","):
        if name == "g_z":
            run = lambda c, **kw: layer.prism_layer.gravity(c, field="g_z", parallel=True, **kw)
            ours, geobem_s, extra_s = case["g_z"], float(info["g_z"][0]), layer_s
        elif name in ("b_u", "b"):
            run = lambda c, **kw: harmonica.prism_magnetic(c, prisms, m, field=name, parallel=True, **kw)
            ours = case["b"][2] if name == "b_u" else case["b"]
            geobem_s, extra_s = float(info["b"][0]), 0.0
        else:
            raise SystemExit(f"unknown field {name}")
        run(one)
        start = time.perf_counter()
        values = run(coordinates, disable_checks=True)
        seconds = time.perf_counter() - start
        values = np.asarray(values)
        mine = ours[..., subset]
        diff = np.max(np.abs(values - mine))
        largest = np.max(np.abs(ours))
        whole = seconds * scale + extra_s
        print(f"{name:5s} {diff / largest:21.3e} {diff:11.3e} {seconds:8.3f} {pairs / seconds:11.4g} "
              f"{whole:14.4g} {geobem_s:9.4f} {whole / geobem_s:8.4g}", flush=True)

    exact_rows = case["reference"]
    chosen = exact_rows[0].astype(int)
    at = tuple(np.ascontiguousarray(stations[chosen, i]) for i in range(3))
    print(f"\nat {chosen.size} stations, against geobem's long-double kernels (max|diff| / max|reference|):")
    print(f"{'field':5s} {'Harmonica':>10s} {'geobem':>10s}")
    checks = {
        "g_z": (lambda: layer.prism_layer.gravity(at, field="g_z", parallel=True), case["g_z"][chosen], exact_rows[1]),
        "b_u": (lambda: harmonica.prism_magnetic(at, prisms, m, field="b_u", parallel=True), case["b"][2][chosen],
                exact_rows[4]),
        "b_e": (lambda: harmonica.prism_magnetic(at, prisms, m, field="b_e", parallel=True), case["b"][0][chosen],
                exact_rows[2]),
    }
    for name, (peer, ours, exact) in checks.items():
        largest = np.max(np.abs(exact))
        print(f"{name:5s} {np.max(np.abs(np.asarray(peer()) - exact)) / largest:10.3e} "
              f"{np.max(np.abs(ours - exact)) / largest:10.3e}", flush=True)


if __name__ == "__main__":
    main()

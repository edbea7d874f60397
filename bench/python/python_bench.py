#!/usr/bin/env python3
"""The Python module beside the C++ library call on the same cases, and Harmonica on a subset.

Reads the cases the C++ benchmarks write, with their times of the library's
public call, the one a C++ program and the stages make, from host vectors to
host results (best of --repeat after a warm-up):
  SEED: `gravity_bench --peer-case SEED` (the gravity-spheres workflow's
        model, 251,947 prisms, on its 150 x 100 station grid; all ten fields
        in one call, and g_z alone): gravity::forward_model, and beside it the
        driver alone (forward_cuda: no checks, no limits at stations on the
        model, no rounding estimate, no units), printed for what the public
        call adds,
  LAYER: `terrain_bench --layer layer.vts --station-step 1 --peer-case LAYER`
        (the Jacksboro prism layer, 138,632 cells, a station 100 m above every
        node; g_z, and b_e, b_n, b_u of the magnetized layer):
        gravity::forward_model_layer and magnetic::forward_magnetic_layer.
The module calls the same public functions, so the ratio (target <= 1.05)
measures what the module adds: argument handling, building the library's
prisms from the NumPy arrays, shaping the results and issuing the warnings.
Times the same computations through the module (geobem.prism_gravity,
layer.geobem.gravity / .magnetic: NumPy in, NumPy out, its checks, conversions
and warnings included), best of --repeat after a warm-up call, and prints per
case the module's time, the C++ call's, their ratio and the largest
difference of the results over the largest field. With
--harmonica-stride K, Harmonica (prism_gravity, the layer's
prism_layer.gravity, prism_magnetic; numba on every core, compiled by a
warm-up call) runs on every K-th station, and its time scaled by K is set
beside the module's (Harmonica's loop is over stations: its time is linear
in them).

Usage: python_bench.py SEED [LAYER] [--device cuda] [--repeat 3] [--harmonica-stride K]

What the module and the public call add to the driver shows best where the
kernels take little time, e.g. on the CPU with one station (no device needed):
  gravity_bench --peer-case /tmp/seed1 --shape-e 1 --shape-n 1 --repeat 7
  OMP_NUM_THREADS=1 python_bench.py /tmp/seed1 --device cpu --repeat 7
"""
import argparse
import os
import time

import numpy as np

import geobem

FIELDS = ("potential", "g_e", "g_n", "g_z", "g_ee", "g_en", "g_ez", "g_nn", "g_nz", "g_zz")


def read_times(folder):
    times = {}
    with open(os.path.join(folder, "geobem.txt")) as lines:
        for line in lines:
            key, *values = line.split()
            times[key] = values
    return times


def best(repeat, call):
    result = call()  # warm-up: CUDA context, module load, first touch
    seconds = []
    for _ in range(repeat):
        start = time.perf_counter()
        result = call()
        seconds.append(time.perf_counter() - start)
    return result, min(seconds)


def difference(ours, reference):
    return float(np.max(np.abs(np.asarray(ours) - reference)) / np.max(np.abs(reference)))


def report(name, python_seconds, cpp_seconds, diff, pairs):
    print(f"{name:<34} python {python_seconds:9.4f} s   C++ {cpp_seconds:9.4f} s   ratio {python_seconds / cpp_seconds:6.3f}"
          f"   {pairs / python_seconds:10.4g} pairs/s   max diff / max field {diff:.1e}")


def driver_row(cpp_seconds, driver_seconds, python_seconds):
    print(f"{'':<34} (driver alone {driver_seconds:.4f} s: the C++ call adds {cpp_seconds - driver_seconds:+.4f} s,"
          f" the module {python_seconds - driver_seconds:+.4f} s)")


def harmonica_row(name, seconds, stride, python_seconds):
    print(f"{name:<34} harmonica {seconds:8.3f} s on 1/{stride} of the stations, x{stride} = {seconds * stride:9.1f} s:"
          f" {seconds * stride / python_seconds:8.0f} x the module's time")


def seed_case(folder, options, hm):
    prisms = np.load(os.path.join(folder, "prisms.npy"))
    stations = np.load(os.path.join(folder, "stations.npy"))
    reference = np.load(os.path.join(folder, "geobem.npy"))
    times = read_times(folder)
    coordinates = tuple(stations[:, k] for k in range(3))
    pairs = prisms.shape[0] * stations.shape[0]
    print(f"seed case: {prisms.shape[0]} prisms x {stations.shape[0]} stations ({times['driver'][0]} C++ times)")
    everything, seconds = best(options.repeat, lambda: geobem.prism_gravity(
        coordinates, prisms[:, :6], prisms[:, 6], FIELDS, device=options.device))
    report("seed, all ten fields", seconds, float(times["all"][0]),
           max(difference(v, reference[f]) for f, v in enumerate(everything)), pairs)
    driver_row(float(times["all"][0]), float(times["all_driver"][0]), seconds)
    g_z, seconds_gz = best(options.repeat, lambda: geobem.prism_gravity(
        coordinates, prisms[:, :6], prisms[:, 6], "g_z", device=options.device))
    report("seed, g_z", seconds_gz, float(times["g_z"][0]), difference(g_z, reference[3]), pairs)
    driver_row(float(times["g_z"][0]), float(times["g_z_driver"][0]), seconds_gz)
    if hm:
        subset = tuple(c[::options.harmonica_stride] for c in coordinates)
        hm.prism_gravity(tuple(c[:1] for c in subset), prisms[:1, :6], prisms[:1, 6], field="g_z")
        theirs, harmonica_seconds = best(1, lambda: hm.prism_gravity(subset, prisms[:, :6], prisms[:, 6], field="g_z"))
        harmonica_row("seed, g_z", harmonica_seconds, options.harmonica_stride, seconds_gz)
        print(f"{'':<34} harmonica vs module: max diff / max field "
              f"{difference(g_z[::options.harmonica_stride], theirs):.1e}")


def layer_case(folder, options, hm):
    easting = np.load(os.path.join(folder, "easting.npy"))[0]
    northing = np.load(os.path.join(folder, "northing.npy"))[0]
    surface = np.load(os.path.join(folder, "surface.npy"))
    stations = np.load(os.path.join(folder, "stations.npy"))
    times = read_times(folder)
    reference = float(times["reference"][0])
    above, below = (float(v) for v in times["density"])
    magnetization = [float(v) for v in times["magnetization"]]
    names = ("magnetization_e", "magnetization_n", "magnetization_u")
    properties = {"density": np.where(surface > reference, above, below)}
    properties.update({n: np.where(surface > reference, m, 0.0) for n, m in zip(names, magnetization)})
    coordinates = tuple(stations[:, k] for k in range(3))
    cells = int(np.sum(np.isfinite(surface) & (surface != reference)))
    pairs = cells * stations.shape[0]
    print(f"layer case: {surface.shape[1]} x {surface.shape[0]} cells ({cells} with mass) x {stations.shape[0]} "
          f"stations ({times['driver'][0]} C++ times)")
    layer, build_seconds = best(options.repeat, lambda: geobem.prism_layer((easting, northing), surface, reference,
                                                                           properties=properties))
    g_z, seconds = best(options.repeat, lambda: layer.geobem.gravity(coordinates, "g_z", device=options.device))
    report("layer, g_z", seconds, float(times["g_z"][0]),
           difference(g_z, np.load(os.path.join(folder, "geobem_g_z.npy"))[0]), pairs)
    b, seconds_b = best(options.repeat, lambda: layer.geobem.magnetic(coordinates, "b", device=options.device))
    reference_b = np.load(os.path.join(folder, "geobem_b.npy"))
    report("layer, b_e b_n b_u", seconds_b, float(times["b"][0]),
           max(difference(v, reference_b[k]) for k, v in enumerate(b)), pairs)
    print(f"{'':<34} (geobem.prism_layer itself: {build_seconds:.4f} s, not in the times above)")
    if hm:
        stride = options.harmonica_stride
        subset = tuple(c[::stride] for c in coordinates)
        layer.prism_layer.gravity(tuple(c[:1] for c in subset), "g_z")
        theirs, harmonica_seconds = best(1, lambda: layer.prism_layer.gravity(subset, "g_z"))
        harmonica_row("layer, g_z", harmonica_seconds, stride, seconds)
        print(f"{'':<34} harmonica vs module: max diff / max field {difference(g_z[::stride], theirs):.1e}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("seed", help="folder of gravity_bench --peer-case")
    parser.add_argument("layer", nargs="?", help="folder of terrain_bench --peer-case (none: the seed case only)")
    parser.add_argument("--device", default="cuda", help="auto, cpu or cuda (default cuda)")
    parser.add_argument("--repeat", type=int, default=3, help="timed calls per case after a warm-up (best reported)")
    parser.add_argument("--harmonica-stride", type=int, default=0, help="Harmonica on every K-th station (0: none)")
    options = parser.parse_args()
    hm = None
    if options.harmonica_stride > 0:
        import harmonica as hm

        print(f"harmonica {hm.__version__}, numba threads {__import__('numba').config.NUMBA_NUM_THREADS}")
    seed_case(options.seed, options, hm)
    if options.layer:
        layer_case(options.layer, options, hm)


if __name__ == "__main__":
    main()

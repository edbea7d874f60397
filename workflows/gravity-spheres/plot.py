"""The gravity-spheres workflow's plot: maps of g_z and g_zz over the station grid.

Usage: plot.py GRAVITY_FOLDER OUTPUT.png

Reads geobem-gravity's gravity.csv (easting, northing, upward, then the
fields it computed) and draws a map of g_z (mGal, positive down) and one of
g_zz (Eötvös), whichever of the two were computed (the first field
otherwise). Prints each field's range.
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import plots  # noqa: E402

UNITS = {"potential": "J/kg", "g_e": "mGal", "g_n": "mGal", "g_z": "mGal"}
MEANING = {"g_z": "vertical gravity g_z (positive down)", "g_zz": "gravity gradient g_zz"}


def main(folder, png):
    stations = plots.read_csv(os.path.join(folder, "gravity.csv"), ["easting", "northing", "upward"],
                              "run the gravity stage first")
    fields = [name for name in ("g_z", "g_zz") if name in stations.dtype.names]
    if not fields:
        fields = [name for name in stations.dtype.names if name not in ("easting", "northing", "upward")][:1]
    if not fields:
        sys.exit(f"plot: {folder}/gravity.csv holds no field: give the gravity stage --fields")
    figure, axes = plots.plt.subplots(1, len(fields), figsize=(7.2 * len(fields), 6.2), squeeze=False)
    for axis, field in zip(axes[0], fields):
        unit = UNITS.get(field, "Eötvös")
        values = stations[field]
        print(f"{field}: {np.min(values):.4g} to {np.max(values):.4g} {unit}")
        plots.station_map(axis, stations["easting"], stations["northing"], values, f"{field} ({unit})",
                          f"{MEANING.get(field, field)}, {np.min(values):.3g} to {np.max(values):.3g} {unit}")
        axis.set_xlabel("easting (km)")
        axis.set_ylabel("northing (km)")
    heights = np.unique(stations["upward"])
    where = f"{heights[0]:g} m up" if heights.size == 1 else f"{heights.min():g} to {heights.max():g} m up"
    figure.suptitle(f"prism model of seven spheres: {stations.size:,} stations at {where}; "
                    "red over positive density contrasts, blue over negative")
    figure.tight_layout()
    plots.save(figure, png)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2])

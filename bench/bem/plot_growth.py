#!/usr/bin/python3
"""The growth of the CQ-BEM's solvers with the mesh: seconds per CQ frequency
and bytes of one frequency's system against the unknowns n, log-log, dense
and hierarchical, each with its fitted exponent (least squares on the logs);
for the hierarchical system also its parts as stored (near field, low-rank
factors, admissible leaves formed dense) where the CSV has them.

Usage: plot_growth.py GROWTH.csv [GROWTH.csv ...] OUT.png

The CSV files are what `bench_hierarchical growth` prints (one line per mesh
and solver; files concatenated, their header lines skipped). Debian's
python3-matplotlib and python3-numpy (scripts/setup.sh installs both).
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def read_rows(paths):
    rows = []
    for path in paths:
        with open(path, newline="", encoding="utf-8") as f:
            for row in csv.DictReader(line for line in f if not line.startswith("#")):
                if row.get("solver") and row["unknowns"] != "unknowns":
                    rows.append(row)
    if not rows:
        sys.exit("plot_growth.py: no rows in " + ", ".join(paths))
    return rows


def fitted_exponent(n, y):
    """Slope of log y against log n, and the line's values at n."""
    slope, intercept = np.polyfit(np.log(n), np.log(y), 1)
    return slope, np.exp(intercept) * n**slope


# The parts of a hierarchical system, where the CSV has them (bench_hierarchical growth prints them).
PARTS = (("near_field_bytes", "near field"), ("factor_bytes", "low-rank factors"),
         ("dense_admissible_bytes", "admissible leaves formed dense"))


def plot_parts(axis, rows, device):
    """The near field, the factors and the dense-formed admissible leaves of the
    largest system against n, dashed, each with its exponent (rows where it is > 0)."""
    for column, name in PARTS:
        points = [(float(row["unknowns"]), float(row[column])) for row in rows
                  if row.get(column) and float(row[column]) > 0]
        if len(points) < 2:
            continue
        n, y = (np.array(values) for values in zip(*points))
        slope, _ = fitted_exponent(n, y)
        axis.loglog(n, y, "--", marker=".", linewidth=0.9, label=f"  its {name}: n^{slope:.2f}")
        print(f"{device} hierarchical {column}: exponent {slope:.2f} over n = {int(n[0])}..{int(n[-1])}")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = read_rows(sys.argv[1:-1])
    devices = sorted({row["device"] for row in rows})
    figure, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    for device in devices:
        for solver, marker in (("dense", "s"), ("hierarchical", "o")):
            picked = sorted((row for row in rows if row["device"] == device and row["solver"] == solver),
                            key=lambda row: int(row["unknowns"]))
            if len(picked) < 2:
                continue
            n = np.array([float(row["unknowns"]) for row in picked])
            for axis, column, unit in ((axes[0], "per_frequency_s", "s"), (axes[1], "system_bytes", "bytes")):
                y = np.array([float(row[column]) for row in picked])
                slope, line = fitted_exponent(n, y)
                label = f"{solver} ({device}): n^{slope:.2f}"
                axis.loglog(n, y, marker, label=label)
                axis.loglog(n, line, "-", color=axis.lines[-1].get_color(), linewidth=0.8)
                print(f"{device} {solver} {column}: exponent {slope:.2f} over n = {int(n[0])}..{int(n[-1])}")
            if solver == "hierarchical":
                plot_parts(axes[1], picked, device)
    axes[0].set_ylabel("seconds per CQ frequency (assembly + solve)")
    axes[1].set_ylabel("bytes of one frequency's system")
    for axis in axes:
        axis.set_xlabel("unknowns n")
        axis.grid(True, which="both", linewidth=0.3)
        axis.legend(fontsize=8)
    figure.suptitle("CQ-BEM on the pressurized cavity: dense against hierarchical")
    figure.tight_layout()
    figure.savefig(sys.argv[-1], dpi=120)


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""The growth of the CQ-BEM's solvers with the mesh: seconds per CQ frequency
and bytes of one frequency's system against the unknowns n, log-log, dense
and hierarchical, each with its fitted exponent (least squares on the logs);
for the hierarchical system also its parts as stored (near field, low-rank
factors, admissible leaves formed dense) where the CSV has them.

Usage: plot_growth.py GROWTH.csv [GROWTH.csv ...] OUT.png

The CSV files are what `bench_hierarchical growth` prints (one line per mesh
and solver; its header and comment lines skipped). Each file's
`# time step:` comment names its series: a time step fixed on every mesh
(`dt = ...`) or a fixed β = c_P Δt / h_min (`beta = ...`, Δt shrinking with
the mesh); files of the same series are drawn as one. Beside each fitted
exponent the legend and the printed lines give the local slope between the
two largest meshes ("top"). Debian's python3-matplotlib and python3-numpy
(scripts/setup.sh installs both).
"""
import csv
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def series_name(comment, path):
    """'Δt = 2 µs' or 'β = 1' from bench_hierarchical's `# time step:` comment."""
    if comment.startswith("beta = "):
        return "β = " + comment.split()[2]
    if comment.startswith("dt = "):
        return f"Δt = {float(comment.split()[2]) * 1e6:g} µs"
    return path


def read_rows(paths):
    """The rows of every file, each with its series' name under 'series'."""
    rows = []
    for path in paths:
        with open(path, newline="", encoding="utf-8") as f:
            lines = f.readlines()
        comment = next((line[len("# time step:"):].strip() for line in lines if line.startswith("# time step:")), "")
        series = series_name(comment, path)
        for row in csv.DictReader(line for line in lines if not line.startswith("#")):
            if row.get("solver") and row["unknowns"] != "unknowns":
                row["series"] = series
                rows.append(row)
    if not rows:
        sys.exit("plot_growth.py: no rows in " + ", ".join(paths))
    return rows


def fitted_exponent(n, y):
    """Slope of log y against log n, and the line's values at n."""
    slope, intercept = np.polyfit(np.log(n), np.log(y), 1)
    return slope, np.exp(intercept) * n**slope


def report(name, n, y):
    """Prints the fitted exponent over all n and the local slope between the two
    largest n; returns both as a legend's text, and the fitted line at n."""
    slope, line = fitted_exponent(n, y)
    top = np.log(y[-1] / y[-2]) / np.log(n[-1] / n[-2])
    print(f"{name}: exponent {slope:.2f} over n = {int(n[0])}..{int(n[-1])}, "
          f"local {top:.2f} over {int(n[-2])}..{int(n[-1])}")
    return f"n^{slope:.2f} (top n^{top:.2f})", line


# The parts of a hierarchical system, where the CSV has them (bench_hierarchical growth prints them).
PARTS = (("near_field_bytes", "near field"), ("factor_bytes", "low-rank factors"),
         ("dense_admissible_bytes", "admissible leaves formed dense"))


def plot_parts(axis, rows, label, style):
    """The near field, the factors and the dense-formed admissible leaves of the
    largest system against n, one colour per part, one line style per series,
    each with its exponent (rows where it is > 0)."""
    for (column, name), colour in zip(PARTS, ("tab:green", "tab:purple", "tab:red")):
        points = [(float(row["unknowns"]), float(row[column])) for row in rows
                  if row.get(column) and float(row[column]) > 0]
        if len(points) < 2:
            continue
        n, y = (np.array(values) for values in zip(*points))
        growth, _ = report(f"{label} hierarchical {column}", n, y)
        axis.loglog(n, y, style, color=colour, marker=".", linewidth=0.9, label=f"{name}, {label}: {growth}")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    rows = read_rows(sys.argv[1:-1])
    figure, axes = plt.subplots(1, 3, figsize=(16, 5))
    for series, style in zip(dict.fromkeys(row["series"] for row in rows), ("-", "--", ":", "-.")):
        for device in sorted({row["device"] for row in rows if row["series"] == series}):
            label = f"{series}, {device}"
            for solver, marker in (("dense", "s"), ("hierarchical", "o")):
                picked = sorted((row for row in rows if row["series"] == series and row["device"] == device
                                 and row["solver"] == solver), key=lambda row: int(row["unknowns"]))
                if len(picked) < 2:
                    continue
                n = np.array([float(row["unknowns"]) for row in picked])
                for axis, column in ((axes[0], "per_frequency_s"), (axes[1], "system_bytes")):
                    y = np.array([float(row[column]) for row in picked])
                    growth, line = report(f"{label} {solver} {column}", n, y)
                    axis.loglog(n, y, marker, fillstyle="full" if style == "-" else "none",
                                label=f"{solver}, {label}: {growth}")
                    axis.loglog(n, line, style, color=axis.lines[-1].get_color(), linewidth=0.8)
                if solver == "hierarchical":
                    plot_parts(axes[2], picked, label, style)
    axes[0].set_ylabel("seconds per CQ frequency (assembly + solve)")
    axes[1].set_ylabel("bytes of one frequency's system (the largest)")
    axes[2].set_ylabel("bytes of the largest hierarchical system, by part")
    for axis in axes:
        axis.set_xlabel("unknowns n")
        axis.grid(True, which="both", linewidth=0.3)
        axis.legend(fontsize=7)
    figure.suptitle("CQ-BEM on the pressurized cavity, 64 steps: dense against hierarchical, "
                    "at a fixed time step and at a fixed β = c_P Δt / h_min")
    figure.tight_layout()
    figure.savefig(sys.argv[-1], dpi=120)


if __name__ == "__main__":
    main()

"""The cavity-pressure workflow's plot: the BEM against Sharpe's closed form.

Usage: plot.py TIME_FOLDER OUTPUT.png

Reads geobem-time's probes.csv (wall_u_r, wall_u_r_closed_form),
receivers.csv (receiverK_u_r, receiverK_u_r_closed_form) and
receiver_points.csv, all written with --closed-form cavity, and draws three
panels: the wall's mean radial displacement, the receivers off the z axis
(r = 2a and 5a), and the receivers on the z axis as a record section (u_r
scaled by the closed form's peak at each r, offset by r) with the P-wave
arrival t = (r - a)/c of the closed form. Prints the relative L2 error of each curve.
"""
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
import numpy as np


def read(path):
    return np.genfromtxt(path, delimiter=",", names=True)


def relative_l2(bem, exact):
    return float(np.sqrt(np.sum((bem - exact) ** 2) / np.sum(exact**2)))


def main(folder, png):
    probes = read(f"{folder}/probes.csv")
    receivers = read(f"{folder}/receivers.csv")
    points = np.atleast_1d(read(f"{folder}/receiver_points.csv"))
    t_ms = probes["time"] * 1e3
    micro = 1e6  # m -> um

    figure, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    wall, wall_exact = probes["wall_u_r"], probes["wall_u_r_closed_form"]
    error = relative_l2(wall, wall_exact)
    print(f"wall: relative L2 error {error:.2%}")
    axes[0].plot(t_ms, wall_exact * micro, "k-", label="Sharpe (closed form)")
    axes[0].plot(t_ms, wall * micro, "C0o", markersize=3, label=f"BEM, mean over the wall nodes ({error:.1%})")
    axes[0].set_title("cavity wall r = a")

    on_axis = (np.abs(points["x"]) < 1e-9) & (np.abs(points["y"]) < 1e-9)
    radius = np.sqrt(points["x"] ** 2 + points["y"] ** 2 + points["z"] ** 2)
    colours, seen = {}, {}  # one colour per radius (one Sharpe curve), one marker per receiver there
    for k in np.flatnonzero(~on_axis):
        bem, exact = receivers[f"receiver{k}_u_r"], receivers[f"receiver{k}_u_r_closed_form"]
        error = relative_l2(bem, exact)
        label = f"({points['x'][k]:g}, {points['y'][k]:g}, {points['z'][k]:g}) m"
        print(f"receiver {k} at {label}, r = {radius[k]:g} m: relative L2 error {error:.2%}")
        key = round(float(radius[k]), 9)
        if key not in colours:
            colours[key], seen[key] = f"C{len(colours)}", 0
            axes[1].plot(t_ms, exact * micro, "-", linewidth=1, color=colours[key])
        marker = "os^vD"[seen[key] % 5]
        seen[key] += 1
        axes[1].plot(t_ms, bem * micro, marker, markersize=4, fillstyle="none", color=colours[key],
                     label=f"{label} ({error:.1%})")
    axes[1].plot([], [], "k-", label="lines: Sharpe; dots: BEM")
    axes[1].set_title("receivers in the rock")

    line_receivers = np.flatnonzero(on_axis)
    gaps = np.diff(np.unique(np.round(radius[line_receivers], 9)))
    spacing = np.min(gaps) if gaps.size else 1.0
    arrivals = []
    for k in line_receivers:
        bem, exact = receivers[f"receiver{k}_u_r"], receivers[f"receiver{k}_u_r_closed_form"]
        peak = np.max(np.abs(exact)) or 1.0
        axes[2].plot(t_ms, radius[k] + 0.9 * spacing * exact / peak, "k-", linewidth=1)
        axes[2].plot(t_ms, radius[k] + 0.9 * spacing * bem / peak, "C3o", markersize=2)
        first = np.flatnonzero(exact > 0)
        if first.size:
            arrivals.append((t_ms[max(first[0] - 1, 0)], radius[k]))
    if len(arrivals) > 1:
        arrivals.sort(key=lambda pair: pair[1])
        axes[2].plot(*zip(*arrivals), "C0--", linewidth=1, label="P arrival (r - a)/c")
        axes[2].legend(fontsize=8, loc="lower right")
    axes[2].set_title("z axis: u_r / its peak, offset by r (black Sharpe, red BEM)")
    axes[2].set_ylabel("r (m)")

    for axis in axes:
        axis.set_xlabel("time (ms)")
        axis.grid(True, alpha=0.3)
    axes[0].set_ylabel("radial displacement (um)")
    axes[1].set_ylabel("radial displacement (um)")
    axes[0].legend(fontsize=8)
    axes[1].legend(fontsize=8)
    figure.suptitle("pressurized spherical cavity: CQ-BEM against Sharpe (1942); relative L2 errors in brackets")
    figure.tight_layout()
    figure.savefig(png, dpi=110)
    print(f"wrote {png}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2])

"""The cavity-pressure workflow's plot: the BEM against Sharpe's closed form.

Usage: plot.py TIME_FOLDER OUTPUT.png

Reads geobem-time's probes.csv (wall_u_r, wall_u_r_closed_form),
receivers.csv (receiverK_u_r, receiverK_u_r_closed_form) and
receiver_points.csv, all written with --closed-form cavity, and draws three
panels: the wall's mean radial displacement, the receivers off the z axis
(r = 2a and 5a), and the receivers on the z axis as a record section (u_r
scaled by the closed form's peak at each r, offset by r) with the P-wave
arrival t = (r - a)/c of the closed form. Prints the relative L2 error of each curve.

Without the closed form (another load history, --closed-form none) it draws
the BEM alone: the receivers' displacement along the direction from the
cavity's centre, the origin as mesh.ini places it (receivers.csv has
receiverK_u_x/_u_y/_u_z), in the last two panels; the wall's mean is written
with the closed form only.
"""
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt
import numpy as np


def read(path):
    return np.genfromtxt(path, delimiter=",", names=True)


def relative_l2(bem, exact):
    """The relative L2 error; NaN where the closed form is zero throughout (the wave has not arrived)."""
    norm = np.sum(exact**2)
    return float(np.sqrt(np.sum((bem - exact) ** 2) / norm)) if norm > 0 else float("nan")


def percent(error, digits=1):
    return f"{error:.{digits}%}" if np.isfinite(error) else "no wave yet"


def main(folder, png):
    probes = read(f"{folder}/probes.csv")
    receivers = read(f"{folder}/receivers.csv")
    points = np.atleast_1d(read(f"{folder}/receiver_points.csv"))
    t_ms = np.atleast_1d(probes["time"]) * 1e3
    micro = 1e6  # m -> um
    closed = "wall_u_r_closed_form" in (probes.dtype.names or ())
    radius = np.sqrt(points["x"] ** 2 + points["y"] ** 2 + points["z"] ** 2)

    def radial(k):
        """Receiver k's u_r (m) and Sharpe's (None without the closed form)."""
        if closed:
            return receivers[f"receiver{k}_u_r"], receivers[f"receiver{k}_u_r_closed_form"]
        direction = [points[axis][k] / radius[k] for axis in "xyz"]
        return sum(receivers[f"receiver{k}_u_{axis}"] * d for axis, d in zip("xyz", direction)), None

    figure, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    if closed:
        wall, wall_exact = probes["wall_u_r"], probes["wall_u_r_closed_form"]
        error = relative_l2(wall, wall_exact)
        print(f"wall: relative L2 error {percent(error, 2)}")
        axes[0].plot(t_ms, wall_exact * micro, "k-", label="Sharpe (closed form)")
        axes[0].plot(t_ms, wall * micro, "C0o", markersize=3, label=f"BEM, mean over the wall nodes ({percent(error)})")
        axes[0].legend(fontsize=8)
    else:
        axes[0].text(0.5, 0.5, "the wall's mean u_r is written\nwith --closed-form cavity only", ha="center",
                     va="center", transform=axes[0].transAxes)
        axes[0].set_xticks([])
        axes[0].set_yticks([])
    axes[0].set_title("cavity wall r = a")

    on_axis = (np.abs(points["x"]) < 1e-9) & (np.abs(points["y"]) < 1e-9)
    colours, seen = {}, {}  # one colour per radius (one Sharpe curve), one marker per receiver there
    for k in np.flatnonzero(~on_axis):
        bem, exact = radial(k)
        label = f"({points['x'][k]:g}, {points['y'][k]:g}, {points['z'][k]:g}) m"
        key = round(float(radius[k]), 9)
        if key not in colours:
            colours[key], seen[key] = f"C{len(colours) % 10}", 0
            if exact is not None:
                axes[1].plot(t_ms, exact * micro, "-", linewidth=1, color=colours[key])
        if exact is not None:
            error = relative_l2(bem, exact)
            print(f"receiver {k} at {label}, r = {radius[k]:g} m: relative L2 error {percent(error, 2)}")
            label += f" ({percent(error)})"
        marker = "os^vD"[seen[key] % 5]
        seen[key] += 1
        axes[1].plot(t_ms, bem * micro, marker + ("" if closed else "-"), markersize=4, fillstyle="none",
                     color=colours[key], label=label)
    if closed:
        axes[1].plot([], [], "k-", label="lines: Sharpe; dots: BEM")
    axes[1].set_title("receivers in the rock")

    line_receivers = np.flatnonzero(on_axis)
    gaps = np.diff(np.unique(np.round(radius[line_receivers], 9)))
    spacing = np.min(gaps) if gaps.size else 1.0
    arrivals = []
    for k in line_receivers:
        bem, exact = radial(k)
        peak = np.max(np.abs(exact if exact is not None else bem)) or 1.0
        if exact is not None:
            axes[2].plot(t_ms, radius[k] + 0.9 * spacing * exact / peak, "k-", linewidth=1)
            first = np.flatnonzero(exact > 0)
            if first.size:
                arrivals.append((t_ms[max(first[0] - 1, 0)], radius[k]))
        axes[2].plot(t_ms, radius[k] + 0.9 * spacing * bem / peak, "C3o", markersize=2)
    if len(arrivals) > 1:
        arrivals.sort(key=lambda pair: pair[1])
        axes[2].plot(*zip(*arrivals), "C0--", linewidth=1, label="P arrival (r - a)/c")
        axes[2].legend(fontsize=8, loc="lower right")
    axes[2].set_title("z axis: u_r / its peak, offset by r" + (" (black Sharpe, red BEM)" if closed else " (BEM)"))
    axes[2].set_ylabel("r (m)")

    for axis in axes:
        axis.set_xlabel("time (ms)")
        axis.grid(True, alpha=0.3)
    axes[0].set_ylabel("radial displacement (um)")
    axes[1].set_ylabel("radial displacement (um)")
    axes[1].legend(fontsize=8)
    figure.suptitle("pressurized spherical cavity: CQ-BEM against Sharpe (1942); relative L2 errors in brackets"
                    if closed else "spherical cavity: CQ-BEM (no closed form for this load history)")
    figure.tight_layout()
    figure.savefig(png, dpi=110)
    print(f"wrote {png}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2])

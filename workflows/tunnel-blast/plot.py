"""The tunnel-blast workflow's plot: the loaded wall, the receivers' displacement and their arrivals.

Usage: plot.py TIME_FOLDER OUTPUT.png

Reads geobem-time's probes.csv, receivers.csv, receiver_points.csv and
probes.txt (the wall probes' nodes, where each receiver comes from, the load
history, the laplace stage's manifest.ini, whose [material] gives the rock's
wave speeds) and draws four panels:
  (a) the wall probes' outward displacement (radial from the tunnel axis, or
      along it on an end wall) with the load's time factor;
  (b) the --receiver-line receivers as a record section: the component
      radial from the axis, each trace scaled by its own peak and drawn at
      its position along the tunnel, with the P and S arrival times
      d / c_P and d / c_S from the nearest point of the loaded section;
  (c) the peak displacement magnitude over the --receiver-grid receivers, a
      map beside the tunnel and its loaded section;
  (d) the line's farthest receivers from the loaded section on either side:
      u along the axis and radial from it, with their arrival times.
Prints each wall probe's largest outward displacement and each line
receiver's peak and first arrival (|u| first reaching a tenth of its peak)
beside d / c_P.

The tunnel's axis, radius and loaded section are those of tunnel.geo
(the constants below).
"""
import configparser
import os
import re
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import plots  # noqa: E402

# tunnel.geo: the axis is the x axis, the tunnel runs from x = -30 to 30 m.
RADIUS = 2.5  # m
HALF_LENGTH = 30.0  # m
SECTION = (-2.5, 2.5)  # m, the loaded section's ends along x
MICRO = 1e6  # m -> um
MILLI = 1e3  # s -> ms


def wave_speeds(manifest):
    """c_P and c_S (m/s) of the rock of a geobem-laplace manifest.ini ([material]:
    young_modulus, poisson_ratio, density), the isotropic solid's
    c_P = sqrt(E (1 - nu) / (rho (1 + nu) (1 - 2 nu))), c_S = sqrt(E / (2 rho (1 + nu)))."""
    parser = configparser.ConfigParser()
    try:
        if not parser.read(manifest, encoding="utf-8"):
            sys.exit(f"plot: {manifest} missing: the time stage's laplace folder was moved or removed")
        young, poisson, density = (parser.getfloat("material", key)
                                   for key in ("young_modulus", "poisson_ratio", "density"))
    except (configparser.Error, ValueError) as error:
        sys.exit(f"plot: {manifest}: no [material] young_modulus, poisson_ratio and density ({error})")
    if not (young > 0 and density > 0 and -1 < poisson < 0.5):
        sys.exit(f"plot: {manifest}: E = {young}, nu = {poisson}, rho = {density} is no elastic solid")
    return {"c_P": np.sqrt(young * (1 - poisson) / (density * (1 + poisson) * (1 - 2 * poisson))),
            "c_S": np.sqrt(young / (2 * density * (1 + poisson)))}


def notes(folder):
    """probes.txt as (wave speeds {"c_P", "c_S"} from the manifest its first line names,
    load history text, {probeK: node position}, {receiverK: where it comes from})."""
    path = os.path.join(folder, "probes.txt")
    if not os.path.isfile(path):
        sys.exit(f"plot: {path} missing: run the time stage first")
    manifest, history, nodes, sources = None, None, {}, {}
    number = r"[-+0-9.eE]+"
    with open(path, encoding="utf-8") as text:
        for line in text:
            line = line.strip()
            if match := re.match(r"geobem-time: .* from (.*manifest\.ini)$", line):
                manifest = match.group(1)
            elif line.startswith("load case 0 "):
                history = line.split("history ", 1)[1]
            elif match := re.match(rf"(probe\d+): .*nearest node \d+ at \(({number}), ({number}), ({number})\)", line):
                nodes[match.group(1)] = np.array([float(match.group(k)) for k in (2, 3, 4)])
            elif match := re.match(r"(receiver\d+): \(.*\) m, from (.*)", line):
                sources[match.group(1)] = match.group(2)
    if manifest is None:
        sys.exit(f"plot: {path} names no laplace manifest on its first line: rerun the time stage")
    return wave_speeds(manifest), history, nodes, sources


def load_factor(history, t):
    """The load history's time factor at times t (s), for the histories of
    geobem-time --load-history with a formula; None for csv:FILE."""
    kind, _, arguments = (history or "heaviside").partition(":")
    values = [float(v) for v in arguments.split(":") if v]
    if kind == "heaviside":
        return np.ones_like(t)
    if kind == "ramp":
        return np.clip(t / values[0], 0.0, 1.0)
    if kind == "friedlander":
        duration, decay = values
        return (1 - t / duration) * np.exp(-decay * t / duration)
    if kind == "ricker":
        centre = values[0]
        delay = values[1] if len(values) > 1 else 1.5 / centre
        phase = (np.pi * centre * (t - delay)) ** 2
        return (1 - 2 * phase) * np.exp(-phase)
    return None


def section_distance(x, y, z):
    """Distance (m) from points in the rock to the nearest point of the loaded section."""
    along = x - np.clip(x, *SECTION)
    return np.hypot(along, np.hypot(y, z) - RADIUS)


def first_arrival(t, magnitude):
    """The first time |u| reaches a tenth of its peak (linear between steps)."""
    threshold = 0.1 * np.max(magnitude)
    n = int(np.argmax(magnitude >= threshold))
    if n == 0:
        return t[0]
    return t[n - 1] + (threshold - magnitude[n - 1]) / (magnitude[n] - magnitude[n - 1]) * (t[n] - t[n - 1])


def wall_panel(axis, probes, nodes, history):
    t = probes["time"]
    for k, probe in enumerate(sorted(nodes, key=lambda name: int(name[5:]))):
        x, y, z = nodes[probe]
        u = np.array([probes[f"{probe}_u_{c}"] for c in "xyz"])
        if abs(abs(x) - HALF_LENGTH) < 1e-6 * HALF_LENGTH:
            outward, where = np.sign(x) * u[0], "end wall, along the axis"
        else:
            outward = (y * u[1] + z * u[2]) / np.hypot(y, z)
            where = "loaded section, radial" if SECTION[0] <= x <= SECTION[1] else "wall, radial"
        peak = int(np.argmax(outward))
        print(f"{probe} at ({x:.3g}, {y:.3g}, {z:.3g}) m ({where}): largest outward displacement "
              f"{outward[peak] * MICRO:.3g} um at {t[peak] * MILLI:.3g} ms")
        axis.plot(t * MILLI, outward * MICRO, f"C{k}-", marker="os^vD"[k % 5], markersize=3,
                  label=f"{probe} ({x:.1f}, {y:.1f}, {z:.1f}) m, {where}")
    axis.axhline(0.0, color="k", linewidth=0.6)
    factor = load_factor(history, t)
    if factor is not None:
        twin = axis.twinx()
        twin.plot(t * MILLI, factor, "k--", linewidth=1, label=f"load factor ({history})")
        twin.set_ylabel("load factor p(t) / p")
        low, high = axis.get_ylim()
        if low < 0 < high:  # zero at the same height on both axes
            top = 1.05 * max(np.max(factor), 0.0) or 1.0
            twin.set_ylim(top * low / high, top)
        twin.legend(fontsize=7, loc="lower right")
    axis.set_ylabel("outward displacement (µm)")
    axis.set_title("(a) tunnel wall: outward displacement of the probes' nodes")
    axis.legend(fontsize=7, loc="upper right")


def record_section(axis, t, receivers, points, line, speeds):
    x = points["x"][line]
    spacing = np.min(np.diff(np.unique(x))) if np.unique(x).size > 1 else 1.0
    distance = section_distance(points["x"][line], points["y"][line], points["z"][line])
    for k, offset in zip(line, x):
        radial = radial_displacement(receivers, points, k)
        peak = np.max(np.abs(radial)) or 1.0
        axis.plot(t * MILLI, offset + 0.9 * spacing * radial / peak, "C0-", linewidth=0.9)
    order = np.argsort(x)
    for name, colour in (("c_P", "C3"), ("c_S", "C2")):
        axis.plot(distance[order] / speeds[name] * MILLI, x[order], f"{colour}--", linewidth=1.2,
                  label=f"d / {name} ({speeds[name]:.0f} m/s)")
    axis.set_xlim(t[0] * MILLI, t[-1] * MILLI)
    axis.set_ylabel("receiver's x along the tunnel (m)")
    axis.set_title("(b) receiver line: radial displacement / its peak\n(d: distance to the loaded section)")
    axis.legend(fontsize=7, loc="upper right")


def peak_map(axis, receivers, points, grid):
    coordinates = {c: points[c][grid] for c in "xyz"}
    varying = [c for c in "xyz" if np.ptp(coordinates[c]) > 0]
    if len(varying) != 2:
        axis.text(0.5, 0.5, "the receiver grid is not a plane", ha="center", va="center", transform=axis.transAxes)
        return
    peak = np.array([np.max(np.sqrt(sum(receivers[f"receiver{k}_u_{c}"] ** 2 for c in "xyz"))) for k in grid])
    first, second = varying
    (fixed,) = set("xyz") - set(varying)
    plots.station_map(axis, coordinates[first], coordinates[second], peak * MICRO, "peak |u| (µm)",
                      f"(c) receiver grid, {fixed} = {coordinates[fixed][0]:g} m: peak displacement magnitude",
                      diverging=False, scale=1.0)
    if varying == ["x", "y"]:  # a map: the tunnel and its loaded section in plan
        axis.add_patch(plots.plt.Rectangle((-HALF_LENGTH, -RADIUS), 2 * HALF_LENGTH, 2 * RADIUS, color="0.6",
                                           label="tunnel"))
        axis.add_patch(plots.plt.Rectangle((SECTION[0], -RADIUS), SECTION[1] - SECTION[0], 2 * RADIUS, color="C3",
                                           label="loaded section"))
        axis.set_ylim(-RADIUS - 1, np.max(coordinates[second]) + 1)
        axis.legend(fontsize=7, loc="upper right")
    axis.set_xlabel(f"{first} (m)")
    axis.set_ylabel(f"{second} (m)")


def radial_displacement(receivers, points, k):
    """Receiver k's displacement radial from the tunnel axis (m), over time."""
    y, z = points["y"][k], points["z"][k]
    return (y * receivers[f"receiver{k}_u_y"] + z * receivers[f"receiver{k}_u_z"]) / np.hypot(y, z)


def farthest_receivers(axis, t, receivers, points, line, speeds):
    x = points["x"][line]
    distance = section_distance(x, points["y"][line], points["z"][line])
    ends = [line[side][np.argmax(distance[side])] for side in (x >= 0, x < 0) if np.any(side)]
    for k, style in zip(ends, ("-", ":")):
        label = f"receiver{k} ({points['x'][k]:g}, {points['y'][k]:g}, {points['z'][k]:g}) m"
        axis.plot(t * MILLI, receivers[f"receiver{k}_u_x"] * MICRO, f"C0{style}", label=f"{label}: u_x (along)")
        axis.plot(t * MILLI, radial_displacement(receivers, points, k) * MICRO, f"C1{style}",
                  label=f"{label}: u_r (radial)")
    d = section_distance(*(points[c][ends[0]] for c in "xyz"))
    for name, colour in (("c_P", "C3"), ("c_S", "C2")):
        arrival = d / speeds[name] * MILLI
        axis.axvline(arrival, color=colour, linewidth=1, label=f"d / {name} = {arrival:.2f} ms")
    axis.axhline(0.0, color="k", linewidth=0.6)
    axis.set_ylabel("displacement (µm)")
    axis.set_title(f"(d) the line's farthest receivers on either side (d = {d:.1f} m):\n"
                   "P moves them along the tunnel, S across it; u_x changes sign with x, u_r does not")
    axis.legend(fontsize=7, loc="upper left")


def main(folder, png):
    hint = "run the time stage with receivers (time.ini's receiver-line and receiver-grid)"
    probes = plots.read_csv(os.path.join(folder, "probes.csv"), ["time"], "run the time stage first")
    points = plots.read_csv(os.path.join(folder, "receiver_points.csv"), ["receiver", "x", "y", "z"], hint)
    speeds, history, nodes, sources = notes(folder)
    columns = [f"receiver{k}_u_{c}" for k in range(points.size) for c in "xyz"]
    receivers = plots.read_csv(os.path.join(folder, "receivers.csv"), ["time"] + columns, hint)
    line = np.array([k for k in range(points.size) if sources.get(f"receiver{k}", "").startswith("--receiver-line")])
    grid = np.array([k for k in range(points.size) if sources.get(f"receiver{k}", "").startswith("--receiver-grid")])
    t = receivers["time"]

    figure, axes = plots.plt.subplots(2, 2, figsize=(16, 10))
    wall_panel(axes[0, 0], probes, nodes, history)
    for k in line:
        x, y, z = points["x"][k], points["y"][k], points["z"][k]
        magnitude = np.sqrt(sum(receivers[f"receiver{k}_u_{c}"] ** 2 for c in "xyz"))
        print(f"receiver{k} at ({x:g}, {y:g}, {z:g}) m: peak |u| {np.max(magnitude) * MICRO:.3g} um, "
              f"first arrival {first_arrival(t, magnitude) * MILLI:.3g} ms "
              f"(d / c_P = {section_distance(x, y, z) / speeds['c_P'] * MILLI:.3g} ms)")

    for axis, part, draw in ((axes[0, 1], line, lambda a: record_section(a, t, receivers, points, line, speeds)),
                             (axes[1, 0], grid, lambda a: peak_map(a, receivers, points, grid)),
                             (axes[1, 1], line, lambda a: farthest_receivers(a, t, receivers, points, line, speeds))):
        if part.size:
            draw(axis)
        else:
            axis.text(0.5, 0.5, "no receivers of this kind", ha="center", va="center", transform=axis.transAxes)
    for axis in (axes[0, 0], axes[0, 1], axes[1, 1]):
        axis.set_xlabel("time (ms)")
        axis.grid(True, alpha=0.3)
    figure.suptitle(f"blast ({history}) on a 5 m section of a tunnel in rock: CQ-BEM, an unbounded solid")
    figure.tight_layout()
    plots.save(figure, png)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2])

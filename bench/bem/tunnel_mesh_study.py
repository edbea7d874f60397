"""The tunnel-blast workflow on several meshes: each run's receivers and
loaded wall against a reference run's (bench/RESULTS.md, "Tunnel blast").

Usage: tunnel_mesh_study.py REFERENCE_TIME_FOLDER TIME_FOLDER...

Each folder is a geobem-time output of the workflow (run.sh --out DIR, then
DIR/time) with the same receivers. For each TIME_FOLDER prints, over the
line receivers and the grid receivers (as probes.txt says where each comes
from): the median and largest relative L2 difference of a receiver's
displacement (three components over the run's steps, the reference
interpolated linearly onto them) from the reference's, and the median and
largest relative difference of its peak |u|; and the largest outward
(radial from the tunnel's axis, the x axis) displacement of the probes 0
and 1 (the loaded section's crown and springline) with its time.
"""
import os
import re
import sys

import numpy as np


def read(folder):
    receivers = np.genfromtxt(os.path.join(folder, "receivers.csv"), delimiter=",", names=True)
    probes = np.genfromtxt(os.path.join(folder, "probes.csv"), delimiter=",", names=True)
    nodes, sources = {}, {}
    number = r"[-+0-9.eE]+"
    with open(os.path.join(folder, "probes.txt"), encoding="utf-8") as notes:
        for line in notes:
            if match := re.match(rf"(probe\d+): .*nearest node \d+ at \(({number}), ({number}), ({number})\)", line):
                nodes[match.group(1)] = np.array([float(match.group(k)) for k in (2, 3, 4)])
            elif match := re.match(r"receiver(\d+): .* from --receiver-(line|grid)", line):
                sources[int(match.group(1))] = match.group(2)
    return receivers, probes, nodes, sources


def wall_peaks(probes, nodes):
    peaks = []
    for name in ("probe0", "probe1"):
        _, y, z = nodes[name]
        outward = (y * probes[f"{name}_u_y"] + z * probes[f"{name}_u_z"]) / np.hypot(y, z)
        peaks.append(f"{name} {np.max(outward) * 1e6:.2f} um at {probes['time'][np.argmax(outward)] * 1e3:.2f} ms")
    return ", ".join(peaks)


def main(reference_folder, folders):
    reference, reference_probes, reference_nodes, sources = read(reference_folder)
    print(f"{reference_folder}: {len(reference)} steps; wall {wall_peaks(reference_probes, reference_nodes)}")
    t_reference = reference["time"]
    for folder in folders:
        run, probes, nodes, _ = read(folder)
        t = run["time"]
        t = t[t <= t_reference[-1]]
        differences, peaks = {}, {}
        for k, kind in sorted(sources.items()):
            u = np.array([run[f"receiver{k}_u_{c}"][: t.size] for c in "xyz"])
            v = np.array([np.interp(t, t_reference, reference[f"receiver{k}_u_{c}"]) for c in "xyz"])
            differences.setdefault(kind, []).append(np.sqrt(np.sum((u - v) ** 2) / np.sum(v**2)))
            peaks.setdefault(kind, []).append(abs(np.max(np.linalg.norm(u, axis=0)) /
                                                  np.max(np.linalg.norm(v, axis=0)) - 1))
        print(f"{folder}: {t.size} steps; wall {wall_peaks(probes, nodes)}")
        for kind in differences:
            d, p = np.array(differences[kind]), np.array(peaks[kind])
            print(f"  {kind} ({d.size} receivers): L2 difference median {np.median(d):.1%}, largest {np.max(d):.1%}; "
                  f"peak |u| median {np.median(p):.1%}, largest {np.max(p):.1%}")


if __name__ == "__main__":
    if len(sys.argv) < 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2:])

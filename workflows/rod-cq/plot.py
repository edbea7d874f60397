"""The rod-cq workflow's plot: the free end's displacement against the 1D closed form.

Usage: plot.py TIME_FOLDER OUTPUT.png

Reads geobem-time's probes.csv (time, probeK_u_x, and closed_form when the
stage ran with --closed-form rod) and probes.txt (what each probe is), and
draws two panels: the displacement along the rod (u_x) of every probe
against time with the closed form, and each probe's difference from the
closed form. Prints the relative L2 error of each probe.
"""
import os
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import plots  # noqa: E402

MICRO = 1e6  # m -> um
MILLI = 1e3  # s -> ms


def probe_names(folder):
    """probeK -> its description in probes.txt ("group 'x_max': area-weighted mean ...")."""
    names = {}
    path = os.path.join(folder, "probes.txt")
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as notes:
            for line in notes:
                match = re.match(r"(probe\d+): (.*)", line.strip())
                if match:
                    names[match.group(1)] = match.group(2).split(":")[0]
    return names


def main(folder, png):
    probes = plots.read_csv(os.path.join(folder, "probes.csv"), ["time"], "run the time stage first")
    columns = [name for name in probes.dtype.names if re.fullmatch(r"probe\d+_u_x", name)]
    if not columns:
        sys.exit(f"plot: {folder}/probes.csv has no probeK_u_x column (give the time stage a --probe)")
    names = probe_names(folder)
    t = probes["time"] * MILLI
    closed = probes["closed_form"] if "closed_form" in probes.dtype.names else None

    figure, (upper, lower) = plots.plt.subplots(2, 1, figsize=(10, 7.5), sharex=True,
                                                 gridspec_kw={"height_ratios": [3, 2]})
    if closed is not None:
        upper.plot(t, closed * MICRO, "k-", linewidth=1.5, label="1D closed form (free end)")
    for k, column in enumerate(columns):
        probe = column[: -len("_u_x")]
        label = f"BEM {probe}: {names.get(probe, probe)}"
        if closed is not None:
            error = plots.relative_l2(probes[column], closed)
            print(f"{probe}: relative L2 error {error:.2%} against the closed form")
            label += f" ({error:.1%} L2)"
            lower.plot(t, (probes[column] - closed) * MICRO, f"C{k}-", linewidth=1, label=probe)
        upper.plot(t, probes[column] * MICRO, f"C{k}" + "os^vD"[k % 5], markersize=3.5, fillstyle="none",
                   markeredgewidth=0.8, label=label)
    upper.set_ylabel("displacement u_x along the rod (µm)")
    upper.set_title("free end x = 3 m")
    upper.legend(fontsize=8, loc="upper center")
    if closed is not None:
        lower.axhline(0.0, color="k", linewidth=0.8)
        lower.set_ylabel("BEM − closed form (µm)")
        lower.legend(fontsize=8)
    else:
        lower.text(0.5, 0.5, "no closed form (the time stage ran with --closed-form none)", ha="center",
                   va="center", transform=lower.transAxes)
        lower.set_yticks([])
    lower.set_xlabel("time (ms)")
    for axis in (upper, lower):
        axis.grid(True, alpha=0.3)
    figure.suptitle("rod under a step traction: CQ-BEM against the 1D bar (triangle wave, period 4l/c)")
    figure.tight_layout()
    plots.save(figure, png)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2])

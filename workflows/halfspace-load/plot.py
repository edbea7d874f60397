"""The halfspace-load workflow's plot: the settlement u_z against Timoshenko & Goodier's closed form.

Usage: plot.py OUT_FOLDER OUTPUT.png

Reads OUT_FOLDER/displacement/displacement.csv (r, u_z, u_z_closed_form,
u_z_error_estimate, status per station) with the disk radius from that
stage's options record, and the tolerance from the integrate stage's record
(OUT_FOLDER/integrate/integrals.csv.ini). Draws three panels: u_z against
r/a with the closed form, the relative difference from the closed form
beside the integrator's own error estimate and the tolerance, and a map of
u_z with the disk's rim. Prints the largest relative difference.
"""
import os
import sys

import numpy as np

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
import plots  # noqa: E402


def record_value(path, key):
    """The value of `key = value` in a stage's options record, as a float; None if absent."""
    if not os.path.isfile(path):
        return None
    with open(path, encoding="utf-8") as record:
        for line in record:
            name, _, value = line.partition("=")
            if name.strip() == key:
                return float(value.split("#")[0])
    return None


def main(out, png):
    folder = os.path.join(out, "displacement")
    stations = plots.read_csv(os.path.join(folder, "displacement.csv"),
                              ["easting", "northing", "r", "u_z", "u_z_closed_form", "u_z_error_estimate", "status"],
                              "run the displacement stage first")
    a = record_value(os.path.join(folder, "geobem-halfspace-displacement.ini"), "disk-radius")
    centre = [record_value(os.path.join(folder, "geobem-halfspace-displacement.ini"), key) or 0.0
              for key in ("disk-easting", "disk-northing")]
    tolerance = record_value(os.path.join(out, "integrate", "integrals.csv.ini"), "rel-tol")
    if a is None:
        sys.exit(f"plot: {folder}/geobem-halfspace-displacement.ini does not give the disk-radius")
    r, u, exact = stations["r"], stations["u_z"], stations["u_z_closed_form"]
    difference = np.abs(u - exact) / np.abs(exact)
    estimate = stations["u_z_error_estimate"] / np.abs(exact)
    converged = stations["status"] == "converged"
    print(f"largest relative difference from the closed form {difference.max():.2g} "
          f"({np.count_nonzero(converged)} of {r.size} stations converged)")

    figure, (profile, errors, plan) = plots.plt.subplots(1, 3, figsize=(18, 5.6),
                                                          gridspec_kw={"width_ratios": [1.1, 1.1, 1]})
    order = np.argsort(r)
    profile.plot(r / a, u, "C0o", markersize=4, label="Longman's method, each station")
    profile.plot(r[order] / a, exact[order], "k-", linewidth=1, label="Timoshenko & Goodier (closed form)")
    profile.axvline(1.0, color="C3", linestyle="--", linewidth=1, label="rim of the disk, r = a")
    profile.invert_yaxis()  # u_z is positive down, with the pressure: the profile of the settled surface
    profile.set_xlabel("distance from the centre r / a")
    profile.set_ylabel("settlement u_z (m, positive down)")
    profile.set_title(f"surface settlement, disk of radius a = {a:g} m")
    profile.legend(fontsize=8, loc="lower right")

    floor = 1e-16  # about half a unit in the last place: smaller differences (exact matches) are drawn on it
    errors.semilogy(r / a, np.maximum(difference, floor), "C0.", markersize=3,
                    label="|u_z − closed form| / closed form (below 1e-16: at 1e-16)")
    errors.semilogy(r / a, np.maximum(estimate, floor), "C1.", markersize=2, alpha=0.6,
                    label="the integrator's error estimate / closed form")
    if tolerance:
        errors.axhline(tolerance, color="k", linewidth=1, label=f"tolerance rel-tol = {tolerance:g}")
    if not converged.all():
        errors.semilogy(r[~converged] / a, np.maximum(difference[~converged], floor), "rx", markersize=5,
                        label="not converged (status column)")
    errors.axvline(1.0, color="C3", linestyle="--", linewidth=1)
    errors.set_ylim(floor / 2, 1e3 * max(tolerance or 0.0, difference.max(), estimate.max()))
    errors.set_xlabel("distance from the centre r / a")
    errors.set_ylabel("relative size")
    errors.set_title("accuracy per station")
    errors.legend(fontsize=8, loc="upper right")

    plots.station_map(plan, stations["easting"], stations["northing"], u, "u_z (m, positive down)",
                      f"u_z on the {r.size:,} stations", diverging=False, scale=1.0)
    angle = np.linspace(0, 2 * np.pi, 361)
    plan.plot(centre[0] + a * np.cos(angle), centre[1] + a * np.sin(angle), "w--", linewidth=1)
    plan.set_xlabel("easting (m)")
    plan.set_ylabel("northing (m)")
    for axis in (profile, errors):
        axis.grid(True, alpha=0.3)
    figure.suptitle("elastic half-space under a uniform disk pressure: Hankel integrals by Longman's method "
                    "against the closed form")
    figure.tight_layout()
    plots.save(figure, png)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__.split("\n\n")[1])
    main(sys.argv[1], sys.argv[2])

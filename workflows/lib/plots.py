"""What the workflows' plot stages share: reading the stages' CSVs, station
maps, relative errors, and writing the PNG whole or not at all.

Runs on Debian's /usr/bin/python3 with python3-matplotlib and python3-numpy
(scripts/setup.sh installs them).
"""
import os
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402  (after the backend)
import numpy as np  # noqa: E402


def read_csv(path, columns, hint):
    """A stage's CSV (header line, then rows) as a numpy record array. Exits
    with a message naming the file, and no traceback, when it is missing,
    unreadable, without rows, or without one of `columns` (`hint` says which
    stage or option writes them)."""
    if not os.path.isfile(path):
        sys.exit(f"plot: {path} missing: {hint}")
    try:
        table = np.atleast_1d(np.genfromtxt(path, delimiter=",", names=True, dtype=None, encoding="utf-8"))
    except ValueError as error:
        sys.exit(f"plot: {path}: not a table the stages write ({error})")
    if table.dtype.names is None or table.size == 0:
        sys.exit(f"plot: {path}: no rows")
    missing = [name for name in columns if name not in table.dtype.names]
    if missing:
        sys.exit(f"plot: {path} has no column {', '.join(missing)}: {hint}")
    return table


def relative_l2(values, reference):
    """sqrt(sum (values - reference)^2 / sum reference^2)."""
    return float(np.sqrt(np.sum((values - reference) ** 2) / np.sum(reference**2)))


def station_grid(easting, northing, *values):
    """The stations as a grid when they form one (easting fastest, as the
    stages write grids): (easting axis, northing axis, each of `values` as a
    northing x easting array); None for scattered stations."""
    axis_e, axis_n = np.unique(easting), np.unique(northing)
    if axis_e.size * axis_n.size != easting.size or axis_e.size < 2 or axis_n.size < 2:
        return None
    shape = (axis_n.size, axis_e.size)
    rows_east, columns_north = easting.reshape(shape)[0], northing.reshape(shape)[:, 0]
    if not (np.array_equal(rows_east, axis_e) and np.array_equal(columns_north, axis_n)):
        return None
    return (axis_e, axis_n) + tuple(v.reshape(shape) for v in values)


def station_map(axis, easting, northing, value, label, title, diverging=True, scale=1e-3, contours=True):
    """A map of `value` at the stations on `axis` (coordinates shown in km
    with scale 1e-3): cells on a station grid, filled contours for scattered
    stations, with thin contour lines (16 levels, solid: the colours give the
    sign) that show weak anomalies too unless not `contours`;
    a colour bar labelled `label`. Diverging values get a colour map centred
    on zero."""
    norm, colours = None, "viridis"
    if diverging and np.nanmin(value) < 0 < np.nanmax(value):
        norm, colours = matplotlib.colors.TwoSlopeNorm(vcenter=0.0), "RdBu_r"
    grid = station_grid(easting, northing, value)
    if grid:
        e, n, v = grid
        image = axis.pcolormesh(e * scale, n * scale, v, shading="nearest", cmap=colours, norm=norm)
        if contours:
            axis.contour(e * scale, n * scale, v, levels=16, colors="k", linewidths=0.4, alpha=0.5,
                         linestyles="solid")
    else:
        image = axis.tricontourf(easting * scale, northing * scale, value, levels=32, cmap=colours, norm=norm)
        if contours:
            axis.tricontour(easting * scale, northing * scale, value, levels=16, colors="k", linewidths=0.4,
                            alpha=0.5, linestyles="solid")
    axis.figure.colorbar(image, ax=axis, label=label, shrink=0.85)
    axis.set_title(title)
    axis.set_aspect("equal")
    return image


def save(figure, png):
    """Writes the figure to `png` through a temporary file beside it, renamed
    when complete, so that `png` is the whole new plot or the earlier one."""
    folder = os.path.dirname(os.path.abspath(png))
    handle, temporary = tempfile.mkstemp(prefix=".plot-", suffix=".png", dir=folder)
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.fchmod(handle, 0o666 & ~umask)  # as a plain open() would make it, not mkstemp's 0600
        with os.fdopen(handle, "wb") as stream:
            figure.savefig(stream, format="png", dpi=110)
        os.replace(temporary, png)
    except BaseException:
        os.unlink(temporary)
        raise
    plt.close(figure)
    print(f"wrote {png}")

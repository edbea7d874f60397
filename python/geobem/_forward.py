"""Gravity and magnetic fields of prism lists, with Harmonica's calls."""
import numpy as np

from . import _geobem
from ._arrays import (
    GeobemWarning,
    array_namespace,
    field_names,
    host_array,
    issue_warnings,
    on_cuda,
    resolve_device,
    station_table,
)

__all__ = ["GeobemWarning", "prism_gravity", "prism_magnetic", "total_field_anomaly"]

GRAVITY_FIELDS = ("potential", "g_e", "g_n", "g_z", "g_ee", "g_en", "g_ez", "g_nn", "g_nz", "g_zz")
MAGNETIC_FIELDS = ("b_e", "b_n", "b_u")


def prism_columns(prisms, values, names, function):
    """Prisms as a float64 (P, 6) array and their per-prism values as float64
    (P,) arrays, each as NumPy holds it (columns of one table stay views: the
    extension reads them in place and builds its prisms in one pass)."""
    prisms = np.atleast_2d(host_array(prisms, "prisms", function))
    check_prisms(prisms, function)
    columns = []
    for value, name in zip(values, names):
        column = host_array(value, name, function).reshape(-1)
        check_column(column, name, prisms, function)
        columns.append(column)
    return prisms, columns


def check_prisms(prisms, function):
    """ValueError unless ``prisms`` (a NumPy or device array) has shape (P, 6)."""
    if prisms.ndim != 2 or prisms.shape[1] != 6:
        raise ValueError(
            f"{function}: prisms needs rows of west, east, south, north, bottom, top, not shape {prisms.shape}"
        )


def check_column(column, name, prisms, function):
    """ValueError unless the flat per-prism ``column`` has one value per row of ``prisms``."""
    if column.size != prisms.shape[0]:
        raise ValueError(f"{function}: {name} has {column.size} values for {prisms.shape[0]} prisms")


def shaped(rows, fields, names, shape, dtype, single):
    """The rows of the fields asked for, in the order asked, each in the coordinates' shape."""
    by_name = dict(zip(fields, rows))
    results = tuple(by_name[name].reshape(shape).astype(dtype, copy=False) for name in names)
    return results[0] if single else results


def magnetic_field_names(field, function):
    """(names, single) as :func:`field_names` for a magnetic field; ``"b"`` is the three components."""
    if field == "b":
        return list(MAGNETIC_FIELDS), False
    return field_names(field, MAGNETIC_FIELDS, function)


def prism_gravity(
    coordinates,
    prisms,
    density,
    field,
    *,
    device="auto",
    precision="double",
    force=False,
    progress=False,
    parallel=True,
    dtype=np.float64,
    progressbar=False,
    disable_checks=False,
):
    """Gravitational fields of right rectangular prisms.

    The closed forms of Nagy et al. (2000, 2002) with the cancellation-free
    logarithm and principal-value arctangent of Fukushima (2020), summed over
    the prisms on a CUDA GPU or on every CPU core: Harmonica's
    ``prism_gravity`` with the same arguments, units and signs.

    Parameters
    ----------
    coordinates : tuple of array_like
        ``easting``, ``northing``, ``upward`` of the stations (m), arrays that
        broadcast together; extra entries are ignored. CuPy arrays (with
        ``prisms`` and ``density``) keep the computation and its result on
        their GPU.
    prisms : array_like, shape (6,) or (P, 6)
        ``west, east, south, north, bottom, top`` of each prism (m), with
        ``west < east``, ``south < north``, ``bottom < top``.
    density : array_like, shape (P,)
        Density of each prism (kg/m³); zero-density prisms are skipped.
    field : str or sequence of str
        ``potential`` (J/kg), ``g_e``, ``g_n``, ``g_z`` (mGal, ``g_z``
        positive downward), ``g_ee``, ``g_en``, ``g_ez``, ``g_nn``, ``g_nz``,
        ``g_zz`` (Eötvös). A sequence computes them all in one pass.
    device : {"auto", "cpu", "cuda"}
        Where to compute: "auto" takes the GPU when there is one.
    precision : {"double", "single"}
        Arithmetic of the kernels (station-relative coordinates are formed and
        the sums accumulated in double either way).
    force : bool
        Compute in single precision even where no station's estimated
        rounding error is within 1e-3 (refused otherwise).
    progress : bool
        Progress lines with an estimate of the time left on stderr.
    parallel, disable_checks : bool
        Harmonica's; accepted and ignored (geobem always uses every core or
        the GPU, and always checks).
    dtype : data-type
        Type of the returned arrays.
    progressbar : bool
        Harmonica's name for ``progress``.

    Returns
    -------
    result : ndarray or tuple of ndarray
        The field on every station, in the broadcast shape of the coordinates;
        a tuple in the order of ``field`` when it is a sequence. CuPy arrays
        for CuPy input.

    Raises
    ------
    ValueError
        A prism that is not a finite box, a non-finite station, an unknown
        field, precision or device, arrays of mismatched sizes; the message
        names the value. Single precision where no station's estimate is
        within 1e-3, unless ``force``.
    geobem.DeviceError
        A failing CUDA call, or ``device="cuda"`` without a GPU.
    geobem.ResourceError
        CuPy arrays whose problem exceeds the device memory budget.

    Warns
    -----
    GeobemWarning
        Stations whose estimated rounding error misses 1e-6 (double) or 1e-3
        (single), with the largest estimate; fields undefined (NaN) at
        stations on an edge or vertex of the model or inside it on a face
        between different densities (a station on a face gets the limit from
        the side the survey sees: docs/references.md#singular-stations); an
        overflow.

    References
    ----------
    Nagy, Papp, Benedek (2000), J. Geodesy 74, 552-560; Nagy, Papp, Benedek
    (2002), J. Geodesy 76, 475; Fukushima (2020), Geophys. J. Int. 220,
    1120-1133 (docs/references.md).
    """
    names, single = field_names(field, GRAVITY_FIELDS, "prism_gravity")
    show = bool(progress or progressbar)
    if any(on_cuda(a) for a in (*coordinates[:3], prisms, density)):
        return _prism_gravity_on_device(coordinates, prisms, density, names, single, device, precision, force, show,
                                        dtype)
    stations, shape = station_table(coordinates, "prism_gravity")
    prisms, (density,) = prism_columns(prisms, [density], ["density"], "prism_gravity")
    rows, fields, messages = _geobem.prism_gravity(
        stations, prisms, density, ",".join(names), resolve_device(device), precision, show, bool(force)
    )
    issue_warnings(messages, stacklevel=2)
    return shaped(rows, fields, names, shape, dtype, single)


def _prism_gravity_on_device(coordinates, prisms, density, names, single, device, precision, force, show, dtype):
    """prism_gravity on CUDA arrays: packed on their device, computed there, returned there."""
    if resolve_device(device) != "cuda":
        raise ValueError("prism_gravity: arrays on a CUDA device need device='auto' or 'cuda', not " + repr(device))
    first = next(a for a in (*coordinates[:3], prisms, density) if on_cuda(a))
    xp = array_namespace(first)
    arrays = xp.broadcast_arrays(*(xp.asarray(c, dtype=xp.float64) for c in coordinates[:3]))
    shape = arrays[0].shape
    stations = xp.ascontiguousarray(xp.stack([a.ravel() for a in arrays], axis=1))
    prisms = xp.asarray(prisms, dtype=xp.float64)
    prisms = prisms.reshape(1, -1) if prisms.ndim == 1 else prisms
    density = xp.asarray(density, dtype=xp.float64).ravel()
    check_prisms(prisms, "prism_gravity")
    check_column(density, "density", prisms, "prism_gravity")
    table = xp.ascontiguousarray(xp.concatenate([prisms, density[:, None]], axis=1))
    rows, fields, messages = _geobem.prism_gravity_on_device(stations, table, ",".join(names), precision, show,
                                                                   bool(force))
    issue_warnings(messages, stacklevel=3)
    return shaped(xp.from_dlpack(rows), fields, names, shape, dtype, single)


def prism_magnetic(
    coordinates,
    prisms,
    magnetization,
    field,
    *,
    device="auto",
    precision="double",
    force=False,
    progress=False,
    parallel=True,
    dtype=np.float64,
    progressbar=False,
    disable_checks=False,
):
    """Magnetic field of uniformly magnetized right rectangular prisms.

    Outside a prism the field is B = (μ0/4π)·T·M, T the Hessian of the
    prism's volume integral of 1/r (Blakely 1995, eqs. 5.4-5.5), the same
    tensor kernels as the gravity gradients: Harmonica's ``prism_magnetic``
    with the same arguments, units and signs.

    Parameters
    ----------
    coordinates : tuple of array_like
        ``easting``, ``northing``, ``upward`` of the stations (m), arrays that
        broadcast together.
    prisms : array_like, shape (6,) or (P, 6)
        ``west, east, south, north, bottom, top`` of each prism (m).
    magnetization : tuple of 3 array_like, each shape (P,)
        ``magnetization_e``, ``magnetization_n``, ``magnetization_u`` of each
        prism (A/m).
    field : str or sequence of str
        ``b`` (the three components), ``b_e``, ``b_n`` or ``b_u`` (nT, ``b_u``
        positive upward), or a sequence of the last three.
    device, precision, force, progress, parallel, dtype, progressbar, disable_checks
        As in :func:`prism_gravity`.

    Returns
    -------
    result : ndarray or tuple of ndarray
        The component on every station in the coordinates' broadcast shape
        (nT); a tuple ``(b_e, b_n, b_u)`` for ``field="b"``, or in the order of
        a sequence.

    Raises
    ------
    ValueError
        A prism that is not a finite box, a non-finite magnetization or
        station, an unknown field, arrays of mismatched sizes, device arrays;
        single precision as :func:`prism_gravity`.
    geobem.DeviceError
        A failing CUDA call, or ``device="cuda"`` without a GPU.

    Warns
    -----
    GeobemWarning
        As :func:`prism_gravity`, with magnetizations for densities.

    References
    ----------
    Blakely (1995), Potential Theory in Gravity and Magnetic Applications,
    §5.2; Nagy et al. (2000, 2002) and Fukushima (2020) for the tensor
    (docs/references.md).
    """
    names, single = magnetic_field_names(field, "prism_magnetic")
    if len(magnetization) != 3:
        raise ValueError(f"prism_magnetic: magnetization needs 3 components (e, n, u), not {len(magnetization)}")
    stations, shape = station_table(coordinates, "prism_magnetic")
    prisms, magnetization = prism_columns(prisms, magnetization,
                                          ["magnetization_e", "magnetization_n", "magnetization_u"], "prism_magnetic")
    rows, fields, messages = _geobem.prism_magnetic(
        stations, prisms, *magnetization, ",".join(names), resolve_device(device), precision,
        bool(progress or progressbar), bool(force),
    )
    issue_warnings(messages, stacklevel=2)
    return shaped(rows, fields, names, shape, dtype, single)


def total_field_anomaly(magnetic_field, inclination, declination):
    """Total-field anomaly: the anomalous field along the regional field.

    ΔT = b·F̂, F̂ = (cos I sin D, cos I cos D, −sin I) in easting, northing,
    upward: the total-field anomaly to first order in |b|/|F| (Blakely 1995,
    eq. 12.3), as Harmonica's ``total_field_anomaly``.

    Parameters
    ----------
    magnetic_field : tuple of 3 array_like
        ``b_e``, ``b_n``, ``b_u`` of the anomalous field (any unit; nT from
        :func:`prism_magnetic`).
    inclination : float or array_like
        Inclination of the regional field, degrees, positive downward.
    declination : float or array_like
        Declination of the regional field, degrees, positive east of north.

    Returns
    -------
    tfa : ndarray
        The total-field anomaly in the unit of ``magnetic_field``, in the
        broadcast shape of the arguments.

    Raises
    ------
    ValueError
        A field that does not have three components.

    References
    ----------
    Blakely (1995), Potential Theory in Gravity and Magnetic Applications, eq. 12.3.
    """
    if len(magnetic_field) != 3:
        raise ValueError(f"total_field_anomaly: magnetic_field needs 3 components, not {len(magnetic_field)}")
    b_e, b_n, b_u = (host_array(b, name, "total_field_anomaly") for b, name in zip(magnetic_field, MAGNETIC_FIELDS))
    inclination = host_array(inclination, "inclination", "total_field_anomaly")
    declination = host_array(declination, "declination", "total_field_anomaly")
    if inclination.ndim == 0 and declination.ndim == 0:
        f_e, f_n, f_u = _geobem.field_direction(float(inclination), float(declination))
    else:
        f_e, f_n, f_u = np.vectorize(_geobem.field_direction, otypes=[float, float, float])(inclination, declination)
    return b_e * f_e + b_n * f_n + b_u * f_u

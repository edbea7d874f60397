"""Prism layers: Harmonica's prism_layer Dataset, evaluated from its grid."""
import numpy as np
import xarray as xr

from . import _geobem
from ._arrays import field_names, host_array, issue_warnings, resolve_device, station_table
from ._forward import GRAVITY_FIELDS, magnetic_field_names, prism_gravity, prism_magnetic, shaped

__all__ = ["DatasetAccessorGeobem", "prism_layer"]

MAGNETIZATION_NAMES = ("magnetization_e", "magnetization_n", "magnetization_u")


def _centres(values, name):
    """Strictly increasing, evenly spaced prism centres (at least two)."""
    values = np.asarray(values, dtype=np.float64)
    if values.ndim != 1 or values.size < 2:
        raise ValueError(f"prism_layer: {name} needs at least two prism centres, not shape {values.shape}")
    steps = np.diff(values)
    if not (np.all(np.isfinite(values)) and steps[0] > 0 and np.allclose(steps, steps[0])):
        raise ValueError(f"prism_layer: the {name} centres are not finite, increasing and evenly spaced")
    return values


def prism_layer(coordinates, surface, reference, properties=None):
    """A layer of prisms of equal horizontal size, as Harmonica builds it.

    One prism per grid node, centred on it and spanning half a spacing each
    side, between ``reference`` and ``surface``: top at the surface where it
    lies above the reference, bottom where below (Harmonica's ``prism_layer``;
    Uieda et al. 2020). The Dataset's ``geobem`` accessor evaluates the layer
    from its grid (:meth:`DatasetAccessorGeobem.gravity`,
    :meth:`DatasetAccessorGeobem.magnetic`); Harmonica's ``prism_layer``
    accessor works on it too.

    Parameters
    ----------
    coordinates : tuple of array_like
        ``easting`` and ``northing`` of the prism centres (m): 1-D arrays, or
        2-D arrays as :func:`numpy.meshgrid` returns; increasing and evenly spaced.
    surface : array_like, shape (northing, easting)
        Heights of the surface (m); NaN leaves a cell without a prism.
    reference : float or array_like, shape (northing, easting)
        Height of the reference surface (m).
    properties : dict of str to array_like, optional
        Physical properties per prism, SI units, each of shape (northing,
        easting): ``density`` (kg/m³) for gravity, ``magnetization_e``,
        ``magnetization_n``, ``magnetization_u`` (A/m) for magnetics.

    Returns
    -------
    layer : xarray.Dataset
        Coordinates ``easting``, ``northing`` (centres), ``top``, ``bottom``
        (northing × easting); the properties as data variables; attributes
        ``coords_units`` and ``properties_units``.

    Raises
    ------
    ValueError
        Centres that are not increasing and evenly spaced, or arrays whose
        shape is not (northing, easting).

    References
    ----------
    Uieda, Soler and others (2020), Harmonica: Forward modeling, inversion,
    and processing gravity and magnetic data (docs/references.md).
    """
    easting, northing = (host_array(c, name, "prism_layer") for c, name in zip(coordinates, ("easting", "northing")))
    if easting.ndim == 2:
        easting, northing = easting[0, :], northing[:, 0]
    easting, northing = _centres(easting, "easting"), _centres(northing, "northing")
    shape = (northing.size, easting.size)

    def grid(value, name):
        array = np.broadcast_to(host_array(value, name, "prism_layer"), shape) if np.ndim(value) == 0 else \
            host_array(value, name, "prism_layer")
        if array.shape != shape:
            raise ValueError(f"prism_layer: {name} has shape {array.shape}, not (northing, easting) = {shape}")
        return np.array(array)

    surface, reference_grid = grid(surface, "surface"), grid(reference, "reference")
    top = np.where(surface < reference_grid, reference_grid, surface)
    bottom = np.where(surface < reference_grid, surface, reference_grid)
    dims = ("northing", "easting")
    data = {name: (dims, grid(value, name)) for name, value in (properties or {}).items()}
    layer = xr.Dataset(data, coords={"easting": easting, "northing": northing, "top": (dims, top),
                                     "bottom": (dims, bottom)})
    layer.attrs = {"coords_units": "meters", "properties_units": "SI"}
    return layer


@xr.register_dataset_accessor("geobem")
class DatasetAccessorGeobem:
    """``layer.geobem``: fields of a :func:`prism_layer` Dataset, from its grid.

    Where the layer has one reference height and one value of each property
    above it and one below (a terrain layer), the library forms each cell's
    prism from its heights as it goes: no prism list, memory for the heights
    alone. A layer with varying properties on one side, or without a common
    reference, is evaluated as the prism list of its cells.
    """

    def __init__(self, dataset):
        self._layer = dataset

    def _grid(self):
        easting, northing = self._layer.easting.values, self._layer.northing.values
        return [float(easting[0]), float(northing[0]), float(easting[1] - easting[0]),
                float(northing[1] - northing[0])]

    def _cells(self, names, thickness_threshold):
        """The cells that hold a prism: top, bottom and property values not NaN, and no thinner than the threshold."""
        top, bottom = self._layer.top.values, self._layer.bottom.values
        keep = ~(np.isnan(top) | np.isnan(bottom))
        values = [self._layer[name].values for name in names]
        for name, value in zip(names, values):
            missing = keep & np.isnan(value)
            if missing.any():
                issue_warnings([f"Found missing values in '{name}' property of the prisms layer. The prisms with a "
                                f"nan as '{name}' will be ignored."], stacklevel=3)
                keep &= ~missing
        if thickness_threshold is not None:
            keep &= (top - bottom) >= thickness_threshold
        return top, bottom, values, keep

    @staticmethod
    def _sides(top, bottom, values, keep):
        """(surface, reference, above, below) where the kept cells share one reference and one value of each
        property on each side of it; None otherwise."""
        kept_bottom, kept_top = bottom[keep], top[keep]
        if kept_bottom.size == 0:
            return None
        candidates = np.unique(np.concatenate([kept_bottom[:1], kept_top[:1]]))
        for reference in candidates:
            if not np.all((kept_bottom == reference) | (kept_top == reference)):
                continue
            surface = np.where(bottom == reference, top, bottom)
            surface[~keep] = np.nan
            above, below = surface > reference, surface < reference
            sides = []
            for value in values:
                up, down = np.unique(value[above]), np.unique(value[below])
                if up.size > 1 or down.size > 1:
                    return None
                sides.append((float(up[0]) if up.size else 0.0, float(down[0]) if down.size else 0.0))
            return surface, float(reference), sides
        return None

    def _prisms(self, top, bottom, keep):
        easting, northing = np.meshgrid(self._layer.easting.values, self._layer.northing.values)
        half_e = (self._layer.easting.values[1] - self._layer.easting.values[0]) / 2
        half_n = (self._layer.northing.values[1] - self._layer.northing.values[0]) / 2
        volume = keep & (top > bottom)
        e, n = easting[volume], northing[volume]
        return np.column_stack([e - half_e, e + half_e, n - half_n, n + half_n, bottom[volume], top[volume]]), volume

    def _from_heights(self, kernel, function, coordinates, surface, reference, above, below, names, single, device,
                      precision, show, force, dtype):
        """The fields ``names`` on the stations from the library's layer ``kernel`` (layer_gravity or
        layer_magnetic), which forms each cell's prism from ``surface`` and ``reference`` as it goes; ``above``
        and ``below`` are the property values on each side, as :meth:`_sides` finds them."""
        stations, shape = station_table(coordinates, function)
        rows, fields, messages = kernel(stations, np.ascontiguousarray(surface), self._grid(), reference, above, below,
                                        ",".join(names), resolve_device(device), precision, show, bool(force))
        issue_warnings(messages, stacklevel=3)
        return shaped(rows, fields, names, shape, dtype, single)

    def gravity(
        self,
        coordinates,
        field,
        *,
        density_name="density",
        thickness_threshold=None,
        device="auto",
        precision="double",
        force=False,
        progress=False,
        progressbar=False,
        dtype=np.float64,
        **kwargs,
    ):
        """Gravitational fields of the layer.

        Same fields, units and signs as :func:`geobem.prism_gravity` (and
        Harmonica's ``layer.prism_layer.gravity``): cells whose top, bottom or
        density is NaN, or thinner than ``thickness_threshold``, hold no prism.

        Parameters
        ----------
        coordinates : tuple of array_like
            ``easting``, ``northing``, ``upward`` of the stations (m).
        field : str or sequence of str
            As in :func:`geobem.prism_gravity`.
        density_name : str
            The data variable holding the density (kg/m³).
        thickness_threshold : float, optional
            Cells thinner than this (m) are left out.
        device, precision, force, progress, progressbar, dtype
            As in :func:`geobem.prism_gravity`; other keyword arguments of
            Harmonica (``parallel``, ``disable_checks``) are accepted and ignored.

        Returns
        -------
        result : ndarray or tuple of ndarray
            The field(s) on the stations, in the coordinates' broadcast shape.

        Raises
        ------
        ValueError, geobem.DeviceError
            As :func:`geobem.prism_gravity`; ValueError for an unknown keyword.

        References
        ----------
        Nagy et al. (2000, 2002); Fukushima (2020) (docs/references.md).
        """
        _check_kwargs(kwargs)
        names, single = field_names(field, GRAVITY_FIELDS, "gravity")
        top, bottom, (density,), keep = self._cells([density_name], thickness_threshold)
        sides = self._sides(top, bottom, [density], keep)
        show = bool(progress or progressbar)
        if sides is None:
            prisms, volume = self._prisms(top, bottom, keep)
            return prism_gravity(coordinates, prisms, density[volume], names[0] if single else names, device=device,
                                 precision=precision, force=force, progress=show, dtype=dtype)
        surface, reference, ((above, below),) = sides
        return self._from_heights(_geobem.layer_gravity, "gravity", coordinates, surface, reference, above, below,
                                  names, single, device, precision, show, force, dtype)

    def magnetic(
        self,
        coordinates,
        field,
        *,
        magnetization_names=MAGNETIZATION_NAMES,
        thickness_threshold=None,
        device="auto",
        precision="double",
        force=False,
        progress=False,
        progressbar=False,
        dtype=np.float64,
        **kwargs,
    ):
        """Magnetic field of the layer, its cells magnetized as its data variables say.

        Same fields, units and signs as :func:`geobem.prism_magnetic`; cells
        whose top, bottom or a magnetization component is NaN, or thinner than
        ``thickness_threshold``, hold no prism.

        Parameters
        ----------
        coordinates : tuple of array_like
            ``easting``, ``northing``, ``upward`` of the stations (m).
        field : str or sequence of str
            ``b``, ``b_e``, ``b_n``, ``b_u`` or a sequence of the last three (nT).
        magnetization_names : tuple of 3 str
            The data variables of the easting, northing and upward
            magnetization (A/m).
        thickness_threshold : float, optional
            Cells thinner than this (m) are left out.
        device, precision, force, progress, progressbar, dtype
            As in :func:`geobem.prism_gravity`.

        Returns
        -------
        result : ndarray or tuple of ndarray
            The component(s) on the stations (nT); ``(b_e, b_n, b_u)`` for "b".

        Raises
        ------
        ValueError, geobem.DeviceError
            As :func:`geobem.prism_magnetic`.

        References
        ----------
        Blakely (1995), §5.2 (docs/references.md).
        """
        _check_kwargs(kwargs)
        names, single = magnetic_field_names(field, "magnetic")
        if len(magnetization_names) != 3:
            raise ValueError(f"magnetic: magnetization_names needs 3 names, not {len(magnetization_names)}")
        top, bottom, values, keep = self._cells(list(magnetization_names), thickness_threshold)
        sides = self._sides(top, bottom, values, keep)
        show = bool(progress or progressbar)
        if sides is None:
            prisms, volume = self._prisms(top, bottom, keep)
            return prism_magnetic(coordinates, prisms, [v[volume] for v in values], names[0] if single else names,
                                  device=device, precision=precision, force=force, progress=show, dtype=dtype)
        surface, reference, per_component = sides
        above = [side[0] for side in per_component]
        below = [side[1] for side in per_component]
        return self._from_heights(_geobem.layer_magnetic, "magnetic", coordinates, surface, reference, above, below,
                                  names, single, device, precision, show, force, dtype)


def _check_kwargs(kwargs):
    unknown = set(kwargs) - {"parallel", "disable_checks"}
    if unknown:
        raise ValueError(f"unknown keyword argument(s): {', '.join(sorted(unknown))}")

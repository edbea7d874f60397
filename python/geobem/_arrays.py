"""Argument handling the public functions share: station coordinates, field
names, host versus CUDA arrays, and the library's warnings."""
import sys
import warnings

import numpy as np

from . import _geobem

#: DLPack device types of CUDA memory (kDLCUDA, kDLCUDAManaged).
_CUDA_DEVICE_TYPES = (2, 13)


class GeobemWarning(UserWarning):
    """An accuracy limit or an undefined field reported by geobem's library.

    Examples: stations whose estimated rounding error misses 1e-6 (double
    precision) or 1e-3 (single), fields undefined (NaN) at stations on an edge
    or vertex of the model, or an arithmetic overflow.
    """


def issue_warnings(messages, stacklevel):
    """Issues the library's messages as GeobemWarning at the caller's line."""
    for message in messages:
        warnings.warn(message, GeobemWarning, stacklevel=stacklevel + 1)


def on_cuda(value):
    """Whether ``value`` is an array in CUDA memory (it exports DLPack there)."""
    device = getattr(value, "__dlpack_device__", None)
    if device is None or isinstance(value, np.ndarray):
        return False
    try:
        return device()[0] in _CUDA_DEVICE_TYPES
    except Exception:  # an object that cannot say is not a device array
        return False


def array_namespace(value):
    """The array module of a device array (``cupy`` for CuPy arrays)."""
    namespace = getattr(value, "__array_namespace__", None)
    if namespace is not None:
        return namespace()
    return sys.modules[type(value).__module__.split(".")[0]]


def host_array(value, name, function, ndim=None):
    """``value`` as a float64 NumPy array; ValueError naming ``name`` for a
    CUDA array (only prism_gravity takes those) or a wrong number of dimensions."""
    if on_cuda(value):
        raise ValueError(
            f"{function}: {name} is an array on a CUDA device; {function} takes host (NumPy) arrays "
            "(prism_gravity takes device arrays)"
        )
    array = np.asarray(value, dtype=np.float64)
    if ndim is not None and array.ndim != ndim:
        raise ValueError(f"{function}: {name} needs {ndim} dimension(s), not {array.ndim} (shape {array.shape})")
    return array


def station_table(coordinates, function):
    """Stations as a (S, 3) C-ordered table and the broadcast shape of the coordinates."""
    if len(coordinates) < 3:
        raise ValueError(f"{function}: coordinates needs easting, northing and upward, not {len(coordinates)} arrays")
    arrays = [host_array(c, name, function) for c, name in zip(coordinates[:3], ("easting", "northing", "upward"))]
    return broadcast_table(arrays, "coordinates", function)


def broadcast_table(arrays, what, function):
    """(table, shape): the NumPy ``arrays`` broadcast together as the columns of a C-ordered (N, K) table, and
    their broadcast shape; ValueError naming ``what`` when they do not broadcast."""
    try:
        arrays = np.broadcast_arrays(*arrays)
    except ValueError as error:
        raise ValueError(f"{function}: {what} do not broadcast together: {error}") from None
    return np.ascontiguousarray(np.stack([a.ravel() for a in arrays], axis=1)), arrays[0].shape


def field_names(field, valid, function):
    """(names, single): ``field`` as a list of field names, and whether one
    name (not a list) was given. ValueError naming anything that is not one of ``valid``."""
    single = isinstance(field, str)
    names = [field] if single else list(field)
    if not names:
        raise ValueError(f"{function}: the field list is empty")
    for name in names:
        if name not in valid:
            raise ValueError(f"{function}: unknown field {name!r} (expected one of {', '.join(valid)})")
    return names, single


def resolve_device(device):
    """"cpu" or "cuda" for device="auto"|"cpu"|"cuda"; DeviceError for a CUDA request without CUDA."""
    if not isinstance(device, str):
        raise ValueError(f"unknown device {device!r} (expected auto, cpu or cuda)")
    return _geobem.resolve_device(device)

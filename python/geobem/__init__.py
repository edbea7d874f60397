"""GPU forward modelling of prisms and adaptive integrators, with Harmonica's calls.

geobem computes the gravity and magnetic fields of right rectangular prisms,
prism lists and prism layers, on a CUDA GPU or on every CPU core, from the same
compiled library as its command-line stages. The functions take Harmonica's
arguments, units and sign conventions (easting, northing, upward in metres;
g_z positive downward in mGal; tensor in Eötvös; b_u positive upward in nT)
and add ``device`` ("auto", "cpu" or "cuda") and ``precision`` ("double" or
"single").

Functions
---------
prism_gravity, prism_magnetic, total_field_anomaly
    Fields of prism lists (NumPy arrays; prism_gravity also takes CuPy arrays
    on the GPU and returns them there).
prism_layer
    A layer of prisms as an :class:`xarray.Dataset`, evaluated from its grid by
    ``layer.geobem.gravity(...)`` and ``layer.geobem.magnetic(...)``.
longman, adaptive, cubature
    Batches of integrals: value, error estimate, evaluations and a status word
    per integral.

Errors are ``ValueError`` (bad input, with the library's message naming the
value), :class:`DeviceError` (a failing CUDA call, or ``device="cuda"`` where
there is none), :class:`ResourceError` (a problem beyond the memory there
is); accuracy limits and undefined fields come as
:class:`GeobemWarning`. Nothing is printed unless ``progress=True``.
"""
from ._geobem import DeviceError, ResourceError
from ._forward import GeobemWarning, prism_gravity, prism_magnetic, total_field_anomaly
from ._integrate import IntegrationResult, adaptive, cubature, longman
from ._layer import DatasetAccessorGeobem, prism_layer

__version__ = "0.1.0"

__all__ = [
    "DatasetAccessorGeobem",
    "DeviceError",
    "GeobemWarning",
    "IntegrationResult",
    "ResourceError",
    "adaptive",
    "cubature",
    "longman",
    "prism_gravity",
    "prism_layer",
    "prism_magnetic",
    "total_field_anomaly",
]

"""prism_gravity on CuPy arrays (DLPack): computed on their GPU by the
library's device-resident path, returned there, equal to the CPU's result;
checks and warnings as for host arrays. Marked gpu: skipped without CuPy or a device."""
import warnings

import numpy as np
import pytest

import geobem
from conftest import cuda_available, largest_relative_difference, random_prisms, stations_away_from

pytestmark = pytest.mark.gpu
FIELDS = ("potential", "g_e", "g_n", "g_z", "g_ee", "g_en", "g_ez", "g_nn", "g_nz", "g_zz")


@pytest.fixture(scope="module")
def cp():
    cupy = pytest.importorskip("cupy")
    if not cuda_available():
        pytest.skip("no CUDA device")
    return cupy


def test_cupy_arrays_stay_on_the_device_and_match_the_cpu(cp):
    rng = np.random.default_rng(21)
    prisms, density = random_prisms(rng, 500)
    coordinates = stations_away_from(rng, prisms, 400)
    on_device = [cp.asarray(c) for c in coordinates]
    d_prisms, d_density = cp.asarray(prisms), cp.asarray(density)
    results = geobem.prism_gravity(on_device, d_prisms, d_density, FIELDS)
    cpu = geobem.prism_gravity(coordinates, prisms, density, FIELDS, device="cpu")
    for name, value, reference in zip(FIELDS, results, cpu):
        assert isinstance(value, cp.ndarray) and value.device.id == on_device[0].device.id, name
        assert largest_relative_difference(cp.asnumpy(value), reference) <= 1e-12, name
    grid = cp.meshgrid(cp.linspace(-2000, 2000, 30), cp.linspace(-2000, 2000, 20))
    g_z = geobem.prism_gravity((grid[0], grid[1], 400.0), d_prisms, d_density, "g_z", precision="single")
    assert g_z.shape == (20, 30)
    host = geobem.prism_gravity((cp.asnumpy(grid[0]), cp.asnumpy(grid[1]), 400.0), prisms, density, "g_z",
                                device="cuda", precision="single")
    assert largest_relative_difference(cp.asnumpy(g_z), host) <= 1e-12


def test_cupy_arrays_are_checked_and_warned_as_host_arrays(cp):
    prisms = cp.asarray([[0.0, 1.0, 0.0, 1.0, 0.0, 1.0], [2.0, 3.0, 0.0, 1.0, 1.0, 0.5]])
    with pytest.raises(ValueError, match="prism 1"):
        geobem.prism_gravity((cp.zeros(3), cp.zeros(3), cp.full(3, 5.0)), prisms, cp.ones(2), "g_z")
    with pytest.raises(ValueError, match="device='auto' or 'cuda'"):
        geobem.prism_gravity((cp.zeros(3), cp.zeros(3), cp.full(3, 5.0)), prisms[:1], cp.ones(1), "g_z", device="cpu")
    with pytest.warns(geobem.GeobemWarning) as caught:
        value = geobem.prism_gravity((cp.asarray([1.0, 1e9]), cp.zeros(2), cp.asarray([1.0, 0.0])), prisms[:1],
                                     cp.ones(1) * 1000, "g_zz")
    messages = " ".join(str(w.message) for w in caught)
    assert "undefined (NaN) at 1 station" in messages and "relative accuracy" in messages
    assert bool(cp.isnan(value[0]))
    with pytest.raises(ValueError, match="CUDA device"):
        geobem.prism_magnetic((cp.zeros(1), cp.zeros(1), cp.ones(1) * 5), prisms[:1].get(), ([1.0], [0.0], [0.0]), "b")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        geobem.prism_gravity((cp.zeros(1), cp.zeros(1), cp.ones(1) * 5), prisms[:1], cp.ones(1), "g_z")

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


def both_paths(cp, coordinates, prisms, density, fields, **options):
    """The device path's values (on the host) and warnings, and the host path's (host arrays, the same device)."""
    with warnings.catch_warnings(record=True) as device_caught:
        warnings.simplefilter("always")
        on_device = geobem.prism_gravity(tuple(cp.asarray(c) for c in coordinates), cp.asarray(prisms),
                                         cp.asarray(density), fields, **options)
    with warnings.catch_warnings(record=True) as host_caught:
        warnings.simplefilter("always")
        on_host = geobem.prism_gravity(coordinates, prisms, density, fields, device="cuda", **options)
    return ([cp.asnumpy(v) for v in on_device], [str(w.message) for w in device_caught],
            on_host, [str(w.message) for w in host_caught])


def test_generic_stations_leave_the_tables_on_the_device(cp):
    # The library counts what the device path copies to the host: counts and
    # the warnings' summary only, far below the tables (56 bytes a prism, 24 a station).
    rng = np.random.default_rng(5)
    prisms, density = random_prisms(rng, 2000)
    coordinates = stations_away_from(rng, prisms, 3000)
    device, device_warnings, host, host_warnings = both_paths(cp, coordinates, prisms, density, FIELDS)
    assert geobem._geobem.prism_gravity_on_device_host_bytes() <= 1024
    assert device_warnings == host_warnings
    for name, value, reference in zip(FIELDS, device, host):
        assert largest_relative_difference(value, reference) <= 1e-12, name


def test_a_top_face_a_vertex_and_far_stations_as_on_the_host(cp):
    # The unit cube at 1000 kg/m³: from (0.5, 0.5, 1) on its top face g_zz is
    # 365.60171012785 E (the limit from above; mpmath, tests/gravity/edge_reference.py),
    # at the vertex (1, 1, 1) NaN with a warning, at 1e9 m a warning of the estimate.
    cube, density = np.array([[0.0, 1.0, 0.0, 1.0, 0.0, 1.0]]), np.array([1000.0])
    coordinates = (np.array([0.5, 1.0, 1e9, 0.5]), np.array([0.5, 1.0, 0.0, 0.5]), np.array([1.0, 1.0, 0.0, 3.0]))
    for precision in ("double", "single"):
        device, device_warnings, host, host_warnings = both_paths(cp, coordinates, cube, density, FIELDS,
                                                                  precision=precision, force=True)
        assert device_warnings == host_warnings, precision
        messages = " ".join(device_warnings)
        assert "undefined (NaN) at 1 station" in messages and "relative accuracy" in messages
        # The face and the station above to rounding, relative to the largest
        # value of the field's group (potential, g, tensor); the far one is warned about.
        near, tolerance = [0, 3], 1e-12 if precision == "double" else 1e-5
        groups = (FIELDS[:1], FIELDS[1:4], FIELDS[4:])
        for name, value, reference in zip(FIELDS, device, host):
            assert np.array_equal(np.isnan(value), np.isnan(reference)), name
            group = next(g for g in groups if name in g)
            scale = max(np.max(np.abs(host[FIELDS.index(other)][near])) for other in group)
            assert np.max(np.abs(value[near] - reference[near])) <= tolerance * scale, name
        g_zz = device[FIELDS.index("g_zz")]
        assert np.isnan(g_zz[1])
        assert abs(g_zz[0] - 365.60171012785) <= (1e-9 if precision == "double" else 1e-3) * 365.6
    # Only the two stations on the cube and the cube itself travel besides the counts.
    assert geobem._geobem.prism_gravity_on_device_host_bytes() <= 1024 + 2 * 32 + 56

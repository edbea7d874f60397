"""Every function of the module with device="cuda" against device="cpu" on
the same NumPy input: the CUDA drivers behind the module agree with the
OpenMP ones. Marked gpu: skipped without a CUDA device."""
import numpy as np
import pytest

import geobem
from conftest import cuda_available, largest_relative_difference, log_uniform, random_prisms, stations_away_from

pytestmark = [pytest.mark.gpu, pytest.mark.skipif(not cuda_available(), reason="no CUDA device")]
FIELDS = ("potential", "g_e", "g_n", "g_z", "g_ee", "g_en", "g_ez", "g_nn", "g_nz", "g_zz")


def both(call):
    return call("cuda"), call("cpu")


def test_prism_lists_and_layers_match_the_cpu():
    rng = np.random.default_rng(41)
    prisms, density = random_prisms(rng, 300)
    coordinates = stations_away_from(rng, prisms, 200)
    gpu, cpu = both(lambda device: geobem.prism_gravity(coordinates, prisms, density, FIELDS, device=device))
    for name, a, b in zip(FIELDS, gpu, cpu):
        assert largest_relative_difference(a, b) <= 1e-12, name
    magnetization = tuple(rng.uniform(-2, 2, (3, prisms.shape[0])))
    gpu, cpu = both(lambda device: geobem.prism_magnetic(coordinates, prisms, magnetization, "b", device=device))
    for a, b in zip(gpu, cpu):
        assert largest_relative_difference(a, b) <= 1e-12
    easting, northing = np.linspace(0, 2000, 41), np.linspace(0, 1500, 31)
    surface = 300 * np.outer(np.sin(northing / 400), np.cos(easting / 500))
    properties = {"density": np.where(surface > 0, 2670.0, -1630.0), "magnetization_e": np.full(surface.shape, 0.1),
                  "magnetization_n": np.full(surface.shape, 0.2), "magnetization_u": np.full(surface.shape, -0.3)}
    layer = geobem.prism_layer((easting, northing), surface, 0.0, properties=properties)
    stations = (rng.uniform(0, 2000, 150), rng.uniform(0, 1500, 150), np.full(150, 400.0))
    for field in ("g_z", ["g_z", "g_zz", "potential"]):
        gpu, cpu = both(lambda device: layer.geobem.gravity(stations, field, device=device))
        for a, b in zip(np.atleast_2d(gpu), np.atleast_2d(cpu)):
            assert largest_relative_difference(a, b) <= 1e-12
    gpu, cpu = both(lambda device: layer.geobem.magnetic(stations, "b", device=device))
    for a, b in zip(gpu, cpu):
        assert largest_relative_difference(a, b) <= 1e-12


def test_integrators_match_the_cpu():
    rng = np.random.default_rng(42)
    omega = log_uniform(rng, 1e-2, 1e3, 200)
    lam = omega * log_uniform(rng, 0.02, 1e3, 200)
    gpu, cpu = both(lambda device: geobem.longman("exp-cos", {"lambda": lam, "omega": omega}, rel_tol=1e-10,
                                                  device=device))
    exact = lam / (lam**2 + omega**2)
    for result in (gpu, cpu):
        assert np.all(result.converged)
        assert np.all(np.abs(result.value - exact) <= np.maximum(1e-10 * np.abs(exact), result.error) * 1.0001)
    gpu, cpu = both(lambda device: geobem.longman(expression="exp(-a*x)", oscillation="cos:w", decay_rate="a",
                                                  parameters={"a": lam[:50], "w": omega[:50]}, device=device))
    np.testing.assert_allclose(gpu.value, cpu.value, rtol=1e-11)
    upper = log_uniform(rng, 0.5, 20, 64)
    gpu, cpu = both(lambda device: geobem.adaptive(expression="exp(-a*x)*cos(w*x)", lower=0.0, upper=upper,
                                                   parameters={"a": 1.5, "w": 4.0}, rel_tol=1e-10, device=device))
    assert np.all(gpu.converged) and np.all(cpu.converged)
    np.testing.assert_allclose(gpu.value, cpu.value, rtol=1e-9)
    gpu, cpu = both(lambda device: geobem.cubature("gaussian", 4, genz_a=2.0, genz_u=0.3, rel_tol=1e-8,
                                                   min_regions=4096, device=device))
    assert gpu.status[0] == cpu.status[0] == "converged"
    assert abs(gpu.value[0] - cpu.value[0]) <= gpu.error[0] + cpu.error[0]

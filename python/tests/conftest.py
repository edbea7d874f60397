"""Fixtures of the geobem module's tests (run by ctest: python_module, and
python_module_gpu for the tests marked gpu)."""
import os
import shutil

import numpy as np
import pytest

import geobem


def pytest_configure(config):
    config.addinivalue_line("markers", "gpu: needs a CUDA device and CuPy (skipped without them)")


@pytest.fixture(scope="session")
def stage():
    """Path of a stage executable of this build (GEOBEM_BIN, set by ctest), else on PATH."""

    def find(name):
        folder = os.environ.get("GEOBEM_BIN")
        path = os.path.join(folder, name) if folder else shutil.which(name)
        if not path or not os.access(path, os.X_OK):
            pytest.fail(f"{name} not found (set GEOBEM_BIN to the build's bin folder)")
        return path

    return find


def log_uniform(rng, low, high, size):
    """Values drawn log-uniformly over [low, high], both ends included."""
    values = np.exp(rng.uniform(np.log(low), np.log(high), size))
    values[:2] = low, high
    return rng.permutation(values)


def random_prisms(rng, count):
    """Prisms of sides 1 m to 1 km (log-uniform, the ends included) under the surface, densities of either sign."""
    sides = np.stack([log_uniform(rng, 1.0, 1000.0, count) for _ in range(3)], axis=1)
    centre_e, centre_n = rng.uniform(-1500, 1500, count), rng.uniform(-1500, 1500, count)
    top = -log_uniform(rng, 1.0, 500.0, count)
    prisms = np.column_stack([centre_e - sides[:, 0] / 2, centre_e + sides[:, 0] / 2, centre_n - sides[:, 1] / 2,
                              centre_n + sides[:, 1] / 2, top - sides[:, 2], top])
    return prisms, rng.uniform(-800, 3000, count)


def stations_away_from(rng, prisms, count, margin=0.05):
    """Stations around the prisms, each farther from every prism than `margin` times the prism's smallest side
    (away from faces, edges and vertices, where the two codes' limits differ)."""
    chosen = []
    smallest = np.min(prisms[:, 1::2] - prisms[:, ::2], axis=1)
    while len(chosen) < count:
        point = np.array([rng.uniform(-2500, 2500), rng.uniform(-2500, 2500), rng.uniform(-1500, 300)])
        low, high = prisms[:, ::2], prisms[:, 1::2]
        gap = np.maximum(np.maximum(low - point, point - high), 0.0)
        distance = np.sqrt(np.sum(gap**2, axis=1))
        if np.all(distance > margin * smallest):
            chosen.append(point)
    chosen = np.array(chosen)
    return chosen[:, 0], chosen[:, 1], chosen[:, 2]


def largest_relative_difference(value, reference):
    """max |value - reference| over max |reference|."""
    value, reference = np.asarray(value), np.asarray(reference)
    return np.max(np.abs(value - reference)) / np.max(np.abs(reference))


@pytest.fixture
def rng():
    return np.random.default_rng(20261129)


def cuda_available():
    try:
        return geobem._geobem.cuda_device_count() > 0
    except Exception:
        return False

"""geobem against Harmonica (an independent code: choclo's kernels) on random
prisms and stations away from faces: every gravity field, the magnetic field,
the total-field anomaly and prism layers, to 1e-9 of each field's largest
value. Harmonica runs with parallel=False (its numba compilation dominates)."""
import harmonica as hm
import numpy as np
import pytest

import geobem
from conftest import largest_relative_difference, random_prisms, stations_away_from

FIELDS = ("potential", "g_e", "g_n", "g_z", "g_ee", "g_en", "g_ez", "g_nn", "g_nz", "g_zz")
TOLERANCE = 1e-9


@pytest.fixture(scope="module")
def case():
    rng = np.random.default_rng(32)
    prisms, density = random_prisms(rng, 40)
    coordinates = stations_away_from(rng, prisms, 150)
    return prisms, density, coordinates


def test_every_gravity_field_in_one_pass_matches_harmonica(case):
    prisms, density, coordinates = case
    ours = geobem.prism_gravity(coordinates, prisms, density, FIELDS, device="cpu")
    for name, value in zip(FIELDS, ours):
        theirs = hm.prism_gravity(coordinates, prisms, density, field=name, parallel=False)
        assert largest_relative_difference(value, theirs) <= TOLERANCE, name


def test_one_field_keeps_the_coordinates_shape(case):
    prisms, density, _ = case
    easting, northing = np.meshgrid(np.linspace(-2000, 2000, 7), np.linspace(-1000, 1000, 5))
    coordinates = (easting, northing, np.full_like(easting, 400.0))  # Harmonica does not broadcast
    ours = geobem.prism_gravity(coordinates, prisms, density, "g_z", device="cpu")
    theirs = hm.prism_gravity(coordinates, prisms, density, field="g_z", parallel=False)
    assert ours.shape == theirs.shape == (5, 7)
    assert largest_relative_difference(ours, theirs) <= TOLERANCE


def test_magnetic_field_and_total_field_anomaly_match_harmonica(case):
    prisms, _, coordinates = case
    rng = np.random.default_rng(7)
    magnetization = tuple(rng.uniform(-5, 5, prisms.shape[0]) for _ in range(3))
    ours = geobem.prism_magnetic(coordinates, prisms, magnetization, "b", device="cpu")
    theirs = hm.prism_magnetic(coordinates, prisms, magnetization, field="b", parallel=False)
    for name, a, b in zip(("b_e", "b_n", "b_u"), ours, theirs):
        assert largest_relative_difference(a, b) <= TOLERANCE, name
    b_u = geobem.prism_magnetic(coordinates, prisms, magnetization, "b_u", device="cpu")
    np.testing.assert_array_equal(b_u, ours[2])
    for inclination, declination in ((64.0, -5.0), (-90.0, 0.0), (0.0, 180.0)):
        tfa = geobem.total_field_anomaly(ours, inclination, declination)
        assert largest_relative_difference(tfa, hm.total_field_anomaly(theirs, inclination, declination)) <= TOLERANCE


def test_prisms_are_read_in_place_whatever_their_strides(case):
    """Columns of one table, Fortran order, reversed rows and every other row
    are read where NumPy holds them: the fields equal those of contiguous
    copies bit for bit (same prisms, same order), gravity and magnetics."""
    prisms, density, coordinates = case
    rng = np.random.default_rng(11)
    magnetization = rng.uniform(-5, 5, (prisms.shape[0], 3))
    table = np.column_stack([prisms, density, magnetization])  # (P, 10): every column a strided view
    views = {
        "table columns": (table[:, :6], table[:, 6], table[:, 7:10].T),
        "Fortran order": (np.asfortranarray(prisms), density, np.asfortranarray(magnetization).T),
        "reversed rows": (table[::-1, :6], table[::-1, 6], table[::-1, 7:10].T),
        "every other row": (table[::2, :6], table[::2, 6], table[::2, 7:10].T),
    }
    for name, (bounds, rho, m) in views.items():
        copies = (np.ascontiguousarray(bounds), np.ascontiguousarray(rho), [np.ascontiguousarray(c) for c in m])
        ours = geobem.prism_gravity(coordinates, bounds, rho, FIELDS, device="cpu")
        reference = geobem.prism_gravity(coordinates, copies[0], copies[1], FIELDS, device="cpu")
        for field, a, b in zip(FIELDS, ours, reference):
            np.testing.assert_array_equal(a, b, err_msg=f"{name}: {field}")
        ours = geobem.prism_magnetic(coordinates, bounds, tuple(m), "b", device="cpu")
        reference = geobem.prism_magnetic(coordinates, copies[0], tuple(copies[2]), "b", device="cpu")
        for field, a, b in zip(("b_e", "b_n", "b_u"), ours, reference):
            np.testing.assert_array_equal(a, b, err_msg=f"{name}: {field}")
    # The strided reading is not a no-op: half the prisms give other fields.
    half = geobem.prism_gravity(coordinates, table[::2, :6], table[::2, 6], "g_z", device="cpu")
    assert largest_relative_difference(half, geobem.prism_gravity(coordinates, prisms, density, "g_z",
                                                                  device="cpu")) > 1e-3


def terrain(rng):
    """A 14 × 11 layer whose surface crosses the reference, and stations 50 m above its top."""
    easting, northing = np.linspace(-650, 650, 14), np.linspace(1000, 2000, 11)
    e, n = np.meshgrid(easting, northing)
    surface = 120 * np.sin(e / 400) * np.cos(n / 300) + rng.uniform(-20, 20, e.shape)
    stations = (e.ravel()[::3] + 17.0, n.ravel()[::3] - 11.0, np.full(e.size, 200.0)[::3])
    return (easting, northing), surface, stations


def test_layer_from_its_grid_matches_harmonicas_layer():
    coordinates, surface, stations = terrain(np.random.default_rng(3))
    density = np.where(surface > 10.0, 2670.0, -1630.0)
    layer = geobem.prism_layer(coordinates, surface, 10.0, properties={"density": density})
    for field in ("g_z", "g_zz", "potential"):
        ours = layer.geobem.gravity(stations, field, device="cpu")
        theirs = layer.prism_layer.gravity(stations, field, parallel=False)  # Harmonica's accessor, same Dataset
        assert largest_relative_difference(ours, theirs) <= TOLERANCE, field


def test_layer_with_varying_density_matches_harmonica():
    # Densities vary on one side: evaluated as the prism list of its cells.
    coordinates, surface, stations = terrain(np.random.default_rng(4))
    density = 2000.0 + 10.0 * np.arange(surface.size).reshape(surface.shape)
    layer = geobem.prism_layer(coordinates, surface, -30.0, properties={"density": density})
    ours = layer.geobem.gravity(stations, "g_z", device="cpu", thickness_threshold=5.0)
    theirs = layer.prism_layer.gravity(stations, "g_z", parallel=False, thickness_threshold=5.0)
    assert largest_relative_difference(ours, theirs) <= TOLERANCE


def test_magnetized_layer_matches_harmonicas_prisms():
    coordinates, surface, stations = terrain(np.random.default_rng(5))
    magnetization = dict(zip(("magnetization_e", "magnetization_n", "magnetization_u"),
                             hm.magnetic_angles_to_vec(0.4, 64.0, -5.0)))
    properties = {name: np.full(surface.shape, value) for name, value in magnetization.items()}
    layer = geobem.prism_layer(coordinates, surface, 0.0, properties=properties)
    ours = layer.geobem.magnetic(stations, "b", device="cpu")
    mask = layer.top.values > layer.bottom.values
    prisms = layer.prism_layer._to_prisms()[mask.ravel()]
    theirs = hm.prism_magnetic(stations, prisms, tuple(np.full(prisms.shape[0], v) for v in magnetization.values()),
                               field="b", parallel=False)
    for name, a, b in zip(("b_e", "b_n", "b_u"), ours, theirs):
        assert largest_relative_difference(a, b) <= TOLERANCE, name

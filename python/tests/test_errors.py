"""Bad input raises ValueError naming the value; accuracy limits and
undefined fields are Python warnings; nothing reaches stderr unless progress=True."""
import warnings

import numpy as np
import pytest

import geobem

PRISM = [[0.0, 1.0, 0.0, 1.0, 0.0, 1.0]]


@pytest.mark.parametrize(
    "call, words",
    [
        (lambda: geobem.prism_gravity((0, 0, 2), [[0, 1, 0, 1, 0, 1], [0, 1, 3, 2, 0, 1]], [1, 1], "g_z"),
         ["prism 1", "south < north"]),
        (lambda: geobem.prism_gravity(([0, np.nan], 0, 2), PRISM, [1], "g_z"), ["station 1", "non-finite"]),
        (lambda: geobem.prism_gravity((0, 0, 2), PRISM, [np.inf], "g_z"), ["prism 0", "finite"]),
        (lambda: geobem.prism_gravity((0, 0, 2), PRISM, [1, 2], "g_z"), ["density has 2 values for 1 prisms"]),
        (lambda: geobem.prism_gravity((0, 0, 2), [[0, 1, 0, 1, 0]], [1], "g_z"), ["shape (1, 5)"]),
        (lambda: geobem.prism_gravity((0, 0, 2), PRISM, [1], "g_up"), ["'g_up'"]),
        (lambda: geobem.prism_gravity((0, 0, 2), PRISM, [1], "g_z", precision="half"), ["'half'"]),
        (lambda: geobem.prism_gravity((0, 0, 2), PRISM, [1], "g_z", device="gpu"), ["'gpu'"]),
        (lambda: geobem.prism_gravity(([0, 1], [0, 1, 2], 2), PRISM, [1], "g_z"), ["broadcast"]),
        (lambda: geobem.prism_magnetic((0, 0, 2), PRISM, ([1], [1]), "b"), ["3 components"]),
        (lambda: geobem.prism_magnetic((0, 0, 2), PRISM, ([1], [np.nan], [1]), "b"), ["prism 0"]),
        (lambda: geobem.prism_magnetic((0, 0, 2), PRISM, ([1], [1], [1]), "tfa"), ["'tfa'"]),
        (lambda: geobem.prism_layer(([0, 1, 3], [0, 1]), np.ones((2, 3)), 0.0), ["easting", "evenly spaced"]),
        (lambda: geobem.prism_layer(([0, 1, 2], [0, 1]), np.ones((3, 3)), 0.0), ["surface", "(3, 3)"]),
        (lambda: geobem.longman("exp-cos", {"lambda": [1.0, 1e-9], "omega": 1.0}), ["row 1", "lambda/omega"]),
        (lambda: geobem.longman("exp-cos", {"lambda": 1.0}), ["'omega'"]),
        (lambda: geobem.longman("exp-cosh", {"lambda": 1.0, "omega": 1.0}), ["exp-cosh"]),
        (lambda: geobem.longman("exp-cos", {"lambda": 1.0, "omega": 1.0}, accelerator="aitken"), ["aitken"]),
        (lambda: geobem.adaptive("sinc", 0.0, 1.0, {"p0": np.nan}), ["p0"]),
        (lambda: geobem.adaptive("exp_sin", 1.0, 0.0), ["lower"]),
        (lambda: geobem.adaptive(expression="exp(-a*x", lower=0, upper=1, parameters={"a": 1.0}), ["exp(-a*x"]),
        (lambda: geobem.adaptive(expression="exp(-b*x)", lower=0, upper=1, parameters={"a": 1.0}), ["'b'"]),
        (lambda: geobem.cubature("f3", 11), ["11"]),
        (lambda: geobem.cubature("gaussian", 3, genz_a=1e6), ["1000000", "gaussian"]),
        (lambda: geobem.cubature("f3", 3, rel_tol=-1.0), ["-1"]),
    ],
)
def test_bad_input_raises_value_error_naming_the_value(call, words):
    with pytest.raises(ValueError) as raised:
        call()
    for word in words:
        assert word in str(raised.value), str(raised.value)


def test_cuda_without_a_device_is_a_device_error():
    if geobem._geobem.cuda_device_count() > 0:
        pytest.skip("a CUDA device is present")
    with pytest.raises(geobem.DeviceError, match="device='cuda'"):
        geobem.prism_gravity((0, 0, 2), PRISM, [1], "g_z", device="cuda")
    with pytest.raises(geobem.DeviceError):
        geobem.longman("exp-cos", {"lambda": 1.0, "omega": 1.0}, device="cuda")


def test_far_stations_and_edges_warn_through_python_warnings(capfd):
    with pytest.warns(geobem.GeobemWarning, match="relative accuracy") as far:
        geobem.prism_gravity((1e9, 0.0, 0.0), PRISM, [1000.0], "g_z", device="cpu")
    assert far[0].filename == __file__  # the warning points at the caller's line
    with pytest.warns(geobem.GeobemWarning, match="g_zz is undefined"):
        value = geobem.prism_gravity((1.0, 1.0, 1.0), PRISM, [1000.0], "g_zz", device="cpu")
    assert np.isnan(value)
    with pytest.warns(geobem.GeobemWarning, match="b_u is undefined"):
        geobem.prism_magnetic((1.0, 1.0, 1.0), PRISM, ([0.0], [0.0], [1.0]), "b_u", device="cpu")
    assert capfd.readouterr().err == ""


def test_quiet_unless_progress(capfd):
    rng = np.random.default_rng(1)
    prisms = np.column_stack([rng.uniform(0, 1, 3000), rng.uniform(2, 3, 3000), rng.uniform(0, 1, 3000),
                              rng.uniform(2, 3, 3000), rng.uniform(-3, -2, 3000), rng.uniform(-1, 0, 3000)])
    stations = (np.linspace(-5, 5, 50), 0.0, 10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # nothing to warn about here
        quiet = geobem.prism_gravity(stations, prisms, np.ones(3000), "g_z", device="cpu")
    assert capfd.readouterr().err == ""
    loud = geobem.prism_gravity(stations, prisms, np.ones(3000), "g_z", device="cpu", progress=True)
    assert "gravity prisms (cpu): done" in capfd.readouterr().err
    np.testing.assert_array_equal(quiet, loud)
    geobem.longman("exp-cos", {"lambda": 1.0, "omega": 1.0}, device="cpu")
    geobem.cubature("gaussian", 2, device="cpu", min_regions=64)
    assert capfd.readouterr().err == ""


def test_the_gil_is_released_while_the_library_computes():
    import threading
    import time

    rng = np.random.default_rng(2)
    count = 5000
    prisms = np.column_stack([rng.uniform(0, 1, count), rng.uniform(2, 3, count), rng.uniform(0, 1, count),
                              rng.uniform(2, 3, count), rng.uniform(-3, -2, count), rng.uniform(-1, 0, count)])
    stations = (np.linspace(-50, 50, 200), 0.0, 10.0)
    done = threading.Event()
    ticks = []

    def tick():
        while not done.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    counter = threading.Thread(target=tick, daemon=True)
    counter.start()
    start = time.perf_counter()
    try:
        geobem.prism_gravity(stations, prisms, np.ones(count), ["potential", "g_z", "g_zz"], device="cpu")
        elapsed = time.perf_counter() - start
    finally:
        done.set()
        counter.join()
    during = [t for t in ticks if start < t < start + elapsed]
    # A thread blocked on the GIL would tick once or twice; a free one every millisecond or so.
    assert elapsed > 0.05 and len(during) > 0.2 * elapsed / 0.001, (elapsed, len(during))


def test_stations_on_the_model_get_the_limit_from_the_survey_side():
    # The unit cube at 1000 kg/m³ seen from (0.5, 0.5, 1) on its top face:
    # g_zz 365.60171012785 E and, magnetized (0, 0, 1) A/m, b_u 547.77536270310
    # nT (mpmath, tests/gravity/edge_reference.py); the two-sided mean was
    # 419.4 E and 628.3 nT lower.
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a face has a limit: nothing to warn about
        g_zz = geobem.prism_gravity((0.5, 0.5, 1.0), PRISM, [1000.0], "g_zz", device="cpu")
        b_u = geobem.prism_magnetic((0.5, 0.5, 1.0), PRISM, ([0.0], [0.0], [1.0]), "b_u", device="cpu")
    assert abs(g_zz - 365.60171012785) <= 1e-9 * 365.6
    assert abs(b_u - 547.77536270310) <= 1e-9 * 547.8
    # A terrain layer with stations on its surface (the cells' top-face
    # centres) sees it from above: the field 1 µm above to 1e-6.
    easting, northing = np.array([0.0, 10.0, 20.0]), np.array([0.0, 10.0])
    surface = np.array([[5.0, 7.0, 6.0], [4.0, 8.0, 5.0]])
    layer = geobem.prism_layer((easting, northing), surface, 0.0, properties={"density": np.full((2, 3), 2670.0)})
    e, n = np.meshgrid(easting, northing)
    on = layer.geobem.gravity((e, n, surface), "g_zz", device="cpu")
    above = layer.geobem.gravity((e, n, surface + 1e-6), "g_zz", device="cpu")
    np.testing.assert_allclose(on, above, rtol=1e-6)


def test_single_precision_no_station_can_use_is_refused_unless_forced():
    # A 10 m cube 1e5 sides away: single precision's estimate is far above 1e-3.
    far = ((5e5, -4e5), (3e5, 2e5), (1e5, 3e5))
    cube = [[0.0, 10.0, 0.0, 10.0, -10.0, 0.0]]
    with pytest.raises(ValueError, match="single precision cannot give a relative accuracy of 0.001"):
        geobem.prism_gravity(far, cube, [1000.0], "g_z", device="cpu", precision="single")
    with pytest.warns(geobem.GeobemWarning, match="2 station.s. miss the relative accuracy of 0.001"):
        geobem.prism_gravity(far, cube, [1000.0], "g_z", device="cpu", precision="single", force=True)

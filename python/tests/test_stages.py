"""The module against the command-line stages on the same input: the same
library calls, so the fields agree to 1e-14 of each field's largest value
(the CSV files carry 17 significant digits)."""
import subprocess

import numpy as np
import pytest

import geobem
from conftest import largest_relative_difference, random_prisms, stations_away_from

IDENTICAL = 1e-14
FIELDS = ("potential", "g_e", "g_n", "g_z", "g_ee", "g_en", "g_ez", "g_nn", "g_nz", "g_zz")


def run(command):
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def write_csv(path, header, columns):
    np.savetxt(path, np.column_stack(columns), delimiter=",", header=header, comments="", fmt="%.17g")


def read_csv(path):
    return np.genfromtxt(path, delimiter=",", names=True)


def assert_identical(ours, table, names):
    for name, value in zip(names, ours):
        assert largest_relative_difference(value, table[name]) <= IDENTICAL, name


@pytest.fixture(scope="module")
def prism_case():
    rng = np.random.default_rng(11)
    prisms, density = random_prisms(rng, 60)
    return prisms, density, stations_away_from(rng, prisms, 120)


def test_prism_gravity_equals_geobem_gravity(tmp_path, stage, prism_case):
    prisms, density, stations = prism_case
    write_csv(tmp_path / "prisms.csv", "west,east,south,north,bottom,top,density", [prisms, density])
    write_csv(tmp_path / "stations.csv", "easting,northing,upward", list(stations))
    run([stage("geobem-gravity"), "--prisms", tmp_path / "prisms.csv", "--stations", tmp_path / "stations.csv",
         "--device", "cpu", "--quiet", "--out", tmp_path / "gravity"])
    ours = geobem.prism_gravity(stations, prisms, density, FIELDS, device="cpu")
    assert_identical(ours, read_csv(tmp_path / "gravity" / "gravity.csv"), FIELDS)


def test_prism_magnetic_equals_geobem_magnetic(tmp_path, stage, prism_case):
    prisms, _, stations = prism_case
    magnetization = tuple(np.random.default_rng(12).uniform(-3, 3, (3, prisms.shape[0])))
    write_csv(tmp_path / "prisms.csv", "west,east,south,north,bottom,top,magnetization_e,magnetization_n,magnetization_u",
              [prisms, *magnetization])
    write_csv(tmp_path / "stations.csv", "easting,northing,upward", list(stations))
    run([stage("geobem-magnetic"), "--prisms", tmp_path / "prisms.csv", "--stations", tmp_path / "stations.csv",
         "--inclination", 64, "--declination", -5, "--device", "cpu", "--quiet", "--out", tmp_path / "magnetic"])
    table = read_csv(tmp_path / "magnetic" / "magnetic.csv")
    ours = geobem.prism_magnetic(stations, prisms, magnetization, "b", device="cpu")
    assert_identical(ours, table, ("b_e", "b_n", "b_u"))
    tfa = geobem.total_field_anomaly(ours, 64.0, -5.0)
    assert largest_relative_difference(tfa, table["tfa"]) <= IDENTICAL


@pytest.fixture(scope="module")
def dem(tmp_path_factory):
    """A projected 23 × 17 DEM (UTM 16N, 50 m pixels) whose heights cross 100 m, as GeoTIFF, and its
    prism centres (the pixel centres) and heights."""
    from osgeo import gdal, osr

    gdal.UseExceptions()
    rows, columns, west, north, step = 17, 23, 500000.0, 4000000.0, 50.0
    e, n = np.meshgrid(np.arange(columns), np.arange(rows))
    heights = (100 + 80 * np.sin(e / 4.0) * np.cos(n / 3.0)).astype(np.float32)
    path = tmp_path_factory.mktemp("dem") / "dem.tif"
    raster = gdal.GetDriverByName("GTiff").Create(str(path), columns, rows, 1, gdal.GDT_Float32)
    raster.SetGeoTransform((west, step, 0.0, north, 0.0, -step))
    crs = osr.SpatialReference()
    crs.ImportFromEPSG(32616)
    raster.SetProjection(crs.ExportToWkt())
    raster.GetRasterBand(1).WriteArray(heights)
    raster = None
    easting = west + step / 2 + step * np.arange(columns)
    northing = north - step * (rows - 0.5) + step * np.arange(rows)
    return path, (easting, northing), heights[::-1].astype(np.float64)  # rows from south to north


def test_layer_gravity_equals_geobem_gravity_on_layer_vts(tmp_path, stage, dem):
    path, centres, surface = dem
    run([stage("geobem-model"), "--dem", path, "--reference", 100, "--density-above", 2670, "--density-below", -1630,
         "--quiet", "--out", tmp_path / "model"])
    stations = (centres[0][::2] + 13.0, np.full(centres[0][::2].size, centres[1][5]), np.full(centres[0][::2].size, 300.0))
    write_csv(tmp_path / "stations.csv", "easting,northing,upward", list(stations))
    run([stage("geobem-gravity"), "--prisms", tmp_path / "model" / "layer.vts", "--stations", tmp_path / "stations.csv",
         "--fields", "g_z,g_zz,g_ez", "--device", "cpu", "--quiet", "--out", tmp_path / "gravity"])
    density = np.where(surface > 100, 2670.0, -1630.0)
    layer = geobem.prism_layer(centres, surface, 100.0, properties={"density": density})
    ours = layer.geobem.gravity(stations, ["g_z", "g_zz", "g_ez"], device="cpu")
    assert_identical(ours, read_csv(tmp_path / "gravity" / "gravity.csv"), ("g_z", "g_zz", "g_ez"))


def test_layer_magnetic_equals_geobem_magnetic_on_layer_vts(tmp_path, stage, dem):
    path, centres, surface = dem
    run([stage("geobem-model"), "--dem", path, "--reference", 0, "--quiet", "--out", tmp_path / "model"])
    stations = (centres[0][1::3], np.full(centres[0][1::3].size, centres[1][9] - 7.0), np.full(centres[0][1::3].size, 250.0))
    write_csv(tmp_path / "stations.csv", "easting,northing,upward", list(stations))
    run([stage("geobem-magnetic"), "--prisms", tmp_path / "model" / "layer.vts", "--stations", tmp_path / "stations.csv",
         "--magnetization", "0.5,-0.25,1.5", "--fields", "b_e,b_n,b_u", "--device", "cpu", "--quiet", "--out",
         tmp_path / "magnetic"])
    properties = {name: np.full(surface.shape, value)
                  for name, value in zip(("magnetization_e", "magnetization_n", "magnetization_u"), (0.5, -0.25, 1.5))}
    layer = geobem.prism_layer(centres, surface, 0.0, properties=properties)
    ours = layer.geobem.magnetic(stations, "b", device="cpu")
    assert_identical(ours, read_csv(tmp_path / "magnetic" / "magnetic.csv"), ("b_e", "b_n", "b_u"))


def test_longman_equals_geobem_integrate_longman(tmp_path, stage):
    rng = np.random.default_rng(13)
    omega = np.exp(rng.uniform(np.log(0.1), np.log(100), 40))
    lam = omega * np.exp(rng.uniform(np.log(0.05), np.log(20), 40))
    write_csv(tmp_path / "rows.csv", "lambda,omega", [lam, omega])
    run([stage("geobem-integrate"), "longman", "--input", tmp_path / "rows.csv", "--family", "exp-cos",
         "--device", "cpu", "--quiet", "--output", tmp_path / "out.csv"])
    table = np.genfromtxt(tmp_path / "out.csv", delimiter=",", names=True, dtype=None, encoding="utf-8")
    ours = geobem.longman("exp-cos", {"lambda": lam, "omega": omega}, device="cpu")
    np.testing.assert_array_equal(ours.value, table["value"])
    np.testing.assert_array_equal(ours.error, table["error"])
    np.testing.assert_array_equal(ours.count, table["areas"])
    np.testing.assert_array_equal(ours.status, table["status"])
    np.testing.assert_allclose(ours.value, lam / (lam**2 + omega**2), rtol=1e-11)

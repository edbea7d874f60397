"""The integrators through the module, against closed forms on random rows
(fixed seeds, log-uniform over the documented ranges with their ends)."""
import numpy as np
import pytest

import geobem
from conftest import log_uniform


def test_longman_families_and_expressions_meet_closed_forms(rng):
    omega = log_uniform(rng, 1e-2, 1e3, 60)
    lam = omega * log_uniform(rng, 0.02, 1e3, 60)
    for accelerator in ("epsilon", "euler", "mw"):
        result = geobem.longman("exp-cos", {"lambda": lam, "omega": omega}, rel_tol=1e-10, accelerator=accelerator,
                                device="cpu")
        exact = lam / (lam**2 + omega**2)
        assert np.all(result.converged), accelerator
        assert np.all(np.abs(result.value - exact) <= np.maximum(1e-10 * np.abs(exact), result.error) * 1.0001)
    expression = geobem.longman(expression="exp(-a*x)", oscillation="sin:w", decay_rate="a",
                                parameters={"a": lam[:20], "w": omega[:20]}, rel_tol=1e-10, device="cpu")
    exact = omega[:20] / (lam[:20] ** 2 + omega[:20] ** 2)
    assert np.all(expression.converged)
    np.testing.assert_allclose(expression.value, exact, rtol=1e-9)


def test_adaptive_single_and_batch_meet_closed_forms(rng):
    single = geobem.adaptive("exp_sin", 0.0, 5.0, rel_tol=1e-12, device="cpu")
    exact = (np.exp(10) * (2 * np.sin(15) - 3 * np.cos(15)) + 3) / 13  # ∫ e^{2x} sin 3x over [0, 5]
    assert single.status == "converged" and single.value.shape == ()
    assert abs(single.value - exact) <= 1e-12 * abs(exact)
    a, w = log_uniform(rng, 0.1, 10, 30), log_uniform(rng, 0.1, 30, 30)
    upper = log_uniform(rng, 0.5, 20, 30)
    batch = geobem.adaptive(expression="exp(-a*x)*cos(w*x)", lower=0.0, upper=upper, parameters={"a": a, "w": w},
                            rel_tol=1e-10, device="cpu")
    closed = (a - np.exp(-a * upper) * (a * np.cos(w * upper) - w * np.sin(w * upper))) / (a**2 + w**2)
    assert batch.value.shape == (30,) and np.all(batch.converged)
    assert np.all(np.abs(batch.value - closed) <= np.maximum(1e-10 * np.abs(closed), batch.error) * 1.0001)


@pytest.mark.parametrize("dim", [2, 4])
def test_cubature_genz_gaussian_and_expression_meet_closed_forms(dim):
    from math import erf, pi, sqrt

    a, u = 2.0, 0.3
    result = geobem.cubature("gaussian", dim, genz_a=a, genz_u=u, rel_tol=1e-8, min_regions=1024, device="cpu")
    exact = (sqrt(pi) / (2 * a) * (erf(a * (1 - u)) + erf(a * u))) ** dim
    assert result.status[0] == "converged"
    assert abs(result.value[0] - exact) <= max(1e-8 * abs(exact), result.error[0])
    scales = np.array([0.5, 1.0, 3.0])
    terms = "*".join(f"x{i + 1}" for i in range(dim))
    expression = geobem.cubature(expression=f"c*{terms}", dim=dim, parameters={"c": scales}, rel_tol=1e-10,
                                 min_regions=1024, device="cpu")
    np.testing.assert_allclose(expression.value, scales / 2**dim, rtol=1e-10)
    assert np.all(expression.converged) and expression.evaluations.dtype == np.int64

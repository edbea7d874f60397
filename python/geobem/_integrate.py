"""Batches of integrals: Longman's method, adaptive 1D quadrature, n-D cubature."""
from dataclasses import dataclass

import numpy as np

from . import _geobem
from ._arrays import broadcast_table, host_array, resolve_device

__all__ = ["IntegrationResult", "adaptive", "cubature", "longman"]


@dataclass(frozen=True)
class IntegrationResult:
    """One value per integral, in the broadcast shape of the parameters.

    Attributes
    ----------
    value : ndarray of float
        The integral.
    error : ndarray of float
        The method's own error estimate (absolute).
    evaluations : ndarray of int
        Integrand evaluations.
    count : ndarray of int
        Half-cycle areas (longman), accepted blocks (adaptive) or final
        regions (cubature).
    status : ndarray of str
        ``converged`` (a promise: within the tolerance and within the error
        estimate), ``evaluation_cap_reached``, ``not_converged``,
        ``rounding_limited``, ``extrapolation_unreliable`` or ``non_finite``;
        ``geobem-integrate --help`` says what each means for each method.
    """

    value: np.ndarray
    error: np.ndarray
    evaluations: np.ndarray
    count: np.ndarray
    status: np.ndarray

    @property
    def converged(self):
        """Boolean array: where the status is ``converged``."""
        return self.status == "converged"


def _table(columns, function):
    """(names, (N, K) table, shape) of a mapping of equally broadcastable columns."""
    columns = dict(columns or {})
    for name in columns:
        if not isinstance(name, str):
            raise ValueError(f"{function}: parameter names are strings, not {name!r}")
    arrays = [host_array(value, name, function) for name, value in columns.items()]
    if not arrays:
        return [], np.zeros((1, 0)), ()
    table, shape = broadcast_table(arrays, "the parameters", function)
    return list(columns), table, shape


def _integrate(method, shape, *arguments, device, progress):
    """The extension's ``method`` on ``arguments`` then the device and progress options, as an
    IntegrationResult in ``shape``."""
    rows, statuses = method(*arguments, resolve_device(device), bool(progress))
    return IntegrationResult(
        value=rows[0].reshape(shape),
        error=rows[1].reshape(shape),
        evaluations=rows[2].astype(np.int64).reshape(shape),
        count=rows[3].astype(np.int64).reshape(shape),
        status=np.array(statuses, dtype=str).reshape(shape),
    )


def longman(
    family=None,
    parameters=None,
    *,
    expression=None,
    oscillation=None,
    decay_rate=None,
    rel_tol=1e-12,
    abs_tol=0.0,
    accelerator="epsilon",
    min_areas=4,
    max_areas=200,
    quadrature_order=16,
    device="auto",
    progress=False,
):
    """Oscillatory improper integrals ∫_0^∞ f(x) dx by Longman's method.

    The integral is summed over half cycles of its oscillation (Gauss-Legendre
    panels) and the series of half-cycle areas is accelerated (Longman 1956;
    Wynn's ε, Sidi's mW), one integral per parameter row, on the GPU or the
    CPU: ``geobem-integrate longman``'s computation.

    Parameters
    ----------
    family : str, optional
        A built-in family: ``exp-cos``, ``exp-sin``, ``lorentzian-cos``,
        ``lorentzian-sin``, ``hankel-exp``, ``halfspace-disk``
        (``geobem-integrate longman --help`` lists their parameters and ranges).
    parameters : dict of str to array_like
        One column per parameter name (the family's, or the names the
        expression uses); the columns broadcast together, one integral per element.
    expression : str, optional
        Instead of a family: the non-oscillating part of the integrand, an
        expression in ``x`` and the parameter names (docs/expressions.md).
    oscillation : str
        With ``expression``: ``"KIND:NAME"``, the factor KIND(ω x), KIND one
        of cos, sin, J0, J1 and NAME the parameter holding ω > 0.
    decay_rate : str, optional
        With ``expression``: the parameter holding the decay rate λ ≥ 0 of the
        expression's envelope e^{-λx}.
    rel_tol, abs_tol : float
        Converged when the error estimate ≤ max(rel_tol·|value|, abs_tol).
    accelerator : {"epsilon", "euler", "mw"}
        Series acceleration.
    min_areas, max_areas : int
        Half-cycle areas always used, and the cap (≤ 256).
    quadrature_order : int
        Gauss-Legendre points per panel (1 to 64).
    device : {"auto", "cpu", "cuda"}
        Where to compute; an expression is compiled by NVRTC on the GPU.
    progress : bool
        Progress lines on stderr.

    Returns
    -------
    result : IntegrationResult
        value, error, evaluations, count (areas) and status per integral.

    Raises
    ------
    ValueError
        A parameter outside the family's documented range or not finite (the
        row and the value named), an unknown family, accelerator or name, a
        malformed expression.
    geobem.DeviceError
        A failing CUDA call or NVRTC compilation; ``device="cuda"`` without a GPU.

    References
    ----------
    Longman (1956), Math. Tables Aids Comput. 10, 121-133; Wynn (1956);
    Sidi (1988) (docs/references.md).
    """
    names, table, shape = _table(parameters, "longman")
    return _integrate(_geobem.longman, shape, family, expression, oscillation, decay_rate, names, table, rel_tol,
                      abs_tol, accelerator, min_areas, max_areas, quadrature_order, device=device, progress=progress)


def adaptive(
    integrand=None,
    lower=None,
    upper=None,
    parameters=None,
    *,
    expression=None,
    rel_tol=1e-10,
    abs_tol=0.0,
    max_evals=1e9,
    alpha=64,
    beta=128,
    expansion="double",
    device="auto",
    progress=False,
):
    """Integrals ∫_lower^upper f(x) dx by block-cutting adaptive quadrature.

    The interval is swept in blocks of α·β subintervals integrated at once
    with the Gauss-Kronrod 7/15 pair; a block passes within its share of the
    tolerance (Kern & Alaghband's PBCAQ): ``geobem-integrate adaptive``'s
    computation. One integral for scalar arguments, a batch (one integral per
    element, β subintervals per step each) for arrays.

    Parameters
    ----------
    integrand : str, optional
        A built-in family: ``exp_sin``, ``poly_cos``, ``exp_cos``, ``sinc``
        (parameters ``p0``, ``p1``, ``p2``; the family's defaults where not given).
    lower, upper : float or array_like
        The limits, lower < upper, broadcast with the parameters.
    parameters : dict of str to array_like, optional
        ``p0``, ``p1``, ``p2`` of a family, or the names an expression uses.
    expression : str, optional
        Instead of a family: f as an expression in ``x`` and the parameter
        names (docs/expressions.md).
    rel_tol, abs_tol : float
        Converged when the error ≤ max(abs_tol, rel_tol·|value|).
    max_evals : float
        Cap on integrand evaluations per integral.
    alpha, beta : int
        Thread blocks per launch (one integral) and subintervals per block (a
        power of two ≤ 1024).
    expansion : {"double", "keep", "reset"}
        Width of the next block after one passes.
    device : {"auto", "cpu", "cuda"}
        Where to compute.
    progress : bool
        Progress lines on stderr.

    Returns
    -------
    result : IntegrationResult
        value, error, evaluations, count (accepted blocks) and status per integral.

    Raises
    ------
    ValueError
        Limits or parameters outside the family's documented range or not
        finite (row and value named), bad options, a malformed expression.
    geobem.DeviceError
        A failing CUDA call or NVRTC compilation; ``device="cuda"`` without a GPU.

    References
    ----------
    Kern and Alaghband, parallel block-cutting adaptive quadrature; Piessens
    et al. (1983), QUADPACK (docs/references.md).
    """
    if lower is None or upper is None:
        raise ValueError("adaptive: give lower and upper")
    columns = {"lower": lower, "upper": upper, **dict(parameters or {})}
    names, table, shape = _table(columns, "adaptive")
    single = all(np.ndim(value) == 0 for value in columns.values())
    return _integrate(_geobem.adaptive, shape, integrand, expression, names, table, single, rel_tol, abs_tol,
                      float(max_evals), alpha, beta, expansion, device=device, progress=progress)


def cubature(
    integrand=None,
    dim=None,
    parameters=None,
    *,
    expression=None,
    lower=None,
    upper=None,
    genz_a=5.0,
    genz_u=0.5,
    rel_tol=1e-6,
    abs_tol=0.0,
    max_evals=2e9,
    min_regions=2**20,
    device="auto",
    progress=False,
):
    """n-D integrals over a box by two-phase adaptive cubature.

    Phase one splits the box breadth-first into at least ``min_regions``
    regions, phase two refines each with the degree-7 Genz-Malik rule and its
    null-rule error estimate (CUHRE, Berntsen, Espelid & Genz 1991; Arumugam
    et al.'s two phases): ``geobem-integrate cubature``'s computation.

    Parameters
    ----------
    integrand : str, optional
        A built-in integrand: ``f1`` … ``f4`` (Arumugam et al.) or Genz's
        ``oscillatory``, ``product_peak``, ``corner_peak``, ``gaussian``,
        ``continuous``, ``discontinuous`` (one integral).
    dim : int
        Dimension n, 2 to 10.
    parameters : dict of str to array_like, optional
        With ``expression``: the names it uses; one integral per element.
    expression : str, optional
        Instead of a built-in: f as an expression in ``x1`` … ``xn`` and the
        parameter names (docs/expressions.md).
    lower, upper : sequence of float, optional
        The box's corners (n values each); default [0, 1]^n.
    genz_a, genz_u : float
        Genz families: the difficulty a_i and offset u_i of every axis
        (``geobem-integrate cubature --help`` gives each family's range of a).
    rel_tol, abs_tol : float
        Converged when the error ≤ max(abs_tol, rel_tol·|value|).
    max_evals : float
        Cap on integrand evaluations.
    min_regions : int
        L_max: phase one stops at this many live regions.
    device : {"auto", "cpu", "cuda"}
        Where to compute.
    progress : bool
        Progress lines on stderr.

    Returns
    -------
    result : IntegrationResult
        value, error, evaluations, count (final regions) and status: one
        element for a built-in integrand, else the parameters' broadcast shape.

    Raises
    ------
    ValueError
        An unknown integrand, a Genz parameter outside its documented range,
        bad options or box, a malformed expression or a non-finite parameter.
    geobem.DeviceError
        A failing CUDA call or NVRTC compilation; ``device="cuda"`` without a GPU.

    References
    ----------
    Genz and Malik (1980); Berntsen, Espelid and Genz (1991), ACM TOMS 17;
    Arumugam et al. (2013); Genz (1984) (docs/references.md).
    """
    if dim is None:
        raise ValueError("cubature: give dim")
    names, table, shape = _table(parameters, "cubature")
    if integrand is not None:
        shape = (1,)
    box = [None if corner is None else [float(v) for v in np.ravel(corner)] for corner in (lower, upper)]
    return _integrate(_geobem.cubature, shape, integrand, expression, int(dim), names, table, box[0], box[1], genz_a,
                      genz_u, rel_tol, abs_tol, float(max_evals), int(min_regions), device=device, progress=progress)

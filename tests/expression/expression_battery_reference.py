#!/usr/bin/env python3
"""Reference values of the expression battery (test_expression_battery).

Writes expression_battery.csv beside this script: one integral per row,
method (longman: int_0^inf KIND(w x) * EXPR dx; adaptive: int_lower^upper EXPR dx),
the expression in x and the columns a, b, c, w, the limits, and the integral
to 17 significant digits. The integrands are the forms that defeat a rule
that assumes smoothness: poles at +-ib near the axis, kinks, integrable
singularities at an end, products of Bessel functions. Every value is a
closed form (Gradshteyn & Ryzhik, 7th ed., the entries named) or mpmath's own
quadrature at 40 digits with the kinks as breakpoints, none from geobem.
Parameters are drawn with a fixed seed, log-uniform over their decades, the
ends of each range included as the first and second rows of each form.

  python3 tests/expression/expression_battery_reference.py   # Debian python3-mpmath
"""
import csv
import math
import os
import random

import mpmath as mp

mp.mp.dps = 40
ROWS_PER_FORM = 12


def log_uniform(rng, low, high):
    return math.exp(rng.uniform(math.log(low), math.log(high)))


def draw(rng, ranges, row):
    """Row 0: every parameter at its low end, row 1: at its high end, then random."""
    values = {}
    for name, (low, high, kind) in ranges.items():
        if row < 2:
            values[name] = low if row == 0 else high
        elif kind in ("log", "halfcycles"):
            values[name] = log_uniform(rng, low, high)
        else:
            values[name] = rng.uniform(low, high)
    return values


def quad(f, points):
    return mp.quad(f, points, maxdegree=12)


# (method, expression, oscillation kind, parameter ranges, limits(values), reference(values))
P = mp.pi
FORMS = [
    # Longman: poles near the axis (G&R 3.723.2, 3.723.3, 3.729.1, 3.729.2, 6.532.4, 6.552.1).
    ("longman", "x/(x^2+b^2)", "sin", {"b": (1e-3, 1.0, "log"), "w": (0.1, 10.0, "log")},
     lambda v: P / 2 * mp.exp(-v["w"] * v["b"])),
    ("longman", "1/(x^2+b^2)", "cos", {"b": (1e-3, 1.0, "log"), "w": (0.1, 10.0, "log")},
     lambda v: P / (2 * v["b"]) * mp.exp(-v["w"] * v["b"])),
    ("longman", "x/(x^2+b^2)^2", "sin", {"b": (1e-2, 1.0, "log"), "w": (0.1, 10.0, "log")},
     lambda v: P * v["w"] / (4 * v["b"]) * mp.exp(-v["w"] * v["b"])),
    ("longman", "1/(x^2+b^2)^2", "cos", {"b": (1e-2, 1.0, "log"), "w": (0.1, 10.0, "log")},
     lambda v: P * (1 + v["w"] * v["b"]) / (4 * v["b"] ** 3) * mp.exp(-v["w"] * v["b"])),
    ("longman", "x^2/(x^2+b^2)^2", "cos", {"b": (1e-2, 1.0, "log"), "w": (0.1, 10.0, "log")},
     lambda v: P * (1 - v["w"] * v["b"]) / (4 * v["b"]) * mp.exp(-v["w"] * v["b"])),
    ("longman", "x/(x^2+b^2)", "J0", {"b": (1e-3, 1.0, "log"), "w": (0.1, 10.0, "log")},
     lambda v: mp.besselk(0, v["b"] * v["w"])),
    ("longman", "1/sqrt(x^2+b^2)", "J0", {"b": (1e-2, 1.0, "log"), "w": (0.1, 10.0, "log")},
     lambda v: mp.besseli(0, v["b"] * v["w"] / 2) * mp.besselk(0, v["b"] * v["w"] / 2)),
    # Longman: integrable singularities at x = 0 (G&R 3.761.4, 3.761.9; 3.944.5, 3.944.6).
    ("longman", "x^-a", "sin", {"a": (0.1, 0.9, "lin"), "w": (0.1, 10.0, "log")},
     lambda v: mp.gamma(1 - v["a"]) * mp.sin(P * (1 - v["a"]) / 2) / v["w"] ** (1 - v["a"])),
    ("longman", "x^-a", "cos", {"a": (0.1, 0.9, "lin"), "w": (0.1, 10.0, "log")},
     lambda v: mp.gamma(1 - v["a"]) * mp.cos(P * (1 - v["a"]) / 2) / v["w"] ** (1 - v["a"])),
    ("longman", "exp(-b*x)/sqrt(x)", "cos", {"b": (0.1, 10.0, "log"), "w": (0.1, 10.0, "log")},
     lambda v: mp.sqrt(P) * mp.re((v["b"] - 1j * v["w"]) ** -0.5)),
    ("longman", "exp(-b*x)*log(x)", "cos", {"b": (0.3, 3.0, "log"), "w": (0.1, 10.0, "log")},
     lambda v: quad(lambda x: mp.exp(-v["b"] * x) * mp.log(x) * mp.cos(v["w"] * x), [0, 1, mp.inf])),
    # Longman: kinks (mpmath with the kink as a breakpoint), within the first
    # three half cycles (c = 3 pi/w at most): Longman's areas presume a rest
    # that decays beyond its first few half cycles, and a peak of the rest
    # further out (e^{-b|x - c|} at c = 30 half cycles) is invisible to the
    # areas before it.
    ("longman", "exp(-b*abs(x-c))", "sin", {"b": (0.3, 3.0, "log"), "c": (0.05, 3.0, "halfcycles"), "w": (0.1, 10.0, "log")},
     lambda v: quad(lambda x: mp.exp(-v["b"] * abs(x - v["c"])) * mp.sin(v["w"] * x), [0, v["c"], mp.inf])),
    ("longman", "abs(x-c)*exp(-b*x)", "cos", {"b": (0.3, 3.0, "log"), "c": (0.05, 3.0, "halfcycles"), "w": (0.1, 10.0, "log")},
     lambda v: quad(lambda x: abs(x - v["c"]) * mp.exp(-v["b"] * x) * mp.cos(v["w"] * x), [0, v["c"], mp.inf])),
    ("longman", "(x-c+abs(x-c))*exp(-b*x)", "sin",
     {"b": (0.3, 3.0, "log"), "c": (0.05, 3.0, "halfcycles"), "w": (0.1, 10.0, "log")},
     lambda v: quad(lambda x: 2 * (x - v["c"]) * mp.exp(-v["b"] * x) * mp.sin(v["w"] * x), [v["c"], mp.inf])),
    # Longman: Bessel products (G&R 6.612.3: (2/pi) K(k)/sqrt(b^2 + (a + w)^2), k^2 = 4aw/(b^2 + (a + w)^2);
    # G&R 6.671.2 for J0 sin).
    ("longman", "exp(-b*x)*J0(a*x)", "J0", {"a": (0.1, 10.0, "log"), "b": (0.1, 10.0, "log"), "w": (0.1, 10.0, "log")},
     lambda v: 2 / P * mp.ellipk(4 * v["a"] * v["w"] / (v["b"] ** 2 + (v["a"] + v["w"]) ** 2)) /
     mp.sqrt(v["b"] ** 2 + (v["a"] + v["w"]) ** 2)),
    ("longman", "J0(a*w*x)", "sin", {"a": (0.1, 0.9, "lin"), "w": (0.1, 10.0, "log")},
     lambda v: 1 / mp.sqrt(v["w"] ** 2 - (v["a"] * v["w"]) ** 2)),
    # Adaptive 1D: poles near the axis.
    ("adaptive", "1/((x-c)^2+b^2)", None, {"b": (1e-4, 1.0, "log"), "c": (0.0, 1.0, "lin")},
     lambda v: (mp.atan((1 - v["c"]) / v["b"]) + mp.atan(v["c"] / v["b"])) / v["b"]),
    ("adaptive", "x/((x-c)^2+b^2)", None, {"b": (1e-4, 1.0, "log"), "c": (0.0, 1.0, "lin")},
     lambda v: quad(lambda x: x / ((x - v["c"]) ** 2 + v["b"] ** 2),
                    [0, max(v["c"] - 10 * v["b"], 0), v["c"], min(v["c"] + 10 * v["b"], 1), 1])),
    # Adaptive 1D: kinks.
    ("adaptive", "abs(x-c)", None, {"c": (0.0, 1.0, "lin")},
     lambda v: (mp.mpf(v["c"]) ** 2 + (1 - mp.mpf(v["c"])) ** 2) / 2),
    ("adaptive", "abs(x-c)*exp(x)", None, {"c": (0.0, 1.0, "lin")},
     lambda v: quad(lambda x: abs(x - v["c"]) * mp.exp(x), [0, v["c"], 1])),
    ("adaptive", "exp(-abs(x-c)/b)", None, {"b": (1e-3, 1.0, "log"), "c": (0.0, 1.0, "lin")},
     lambda v: v["b"] * (2 - mp.exp(-mp.mpf(v["c"]) / v["b"]) - mp.exp(-(1 - mp.mpf(v["c"])) / v["b"]))),
    ("adaptive", "abs(sin(w*x))", None, {"w": (1.0, 100.0, "log")},
     lambda v: quad(lambda x: abs(mp.sin(v["w"] * x)),
                    [0] + [k * P / v["w"] for k in range(1, int(v["w"] / P) + 1)] + [1])),
    ("adaptive", "(x-c+abs(x-c))^2", None, {"c": (0.0, 1.0, "lin")},
     lambda v: 4 * (1 - mp.mpf(v["c"])) ** 3 / 3),
    # Adaptive 1D: integrable singularities at an end (the singular point at 0).
    ("adaptive", "1/sqrt(x)", None, {"upper": (1e-2, 1e2, "log")}, lambda v: 2 * mp.sqrt(v["upper"])),
    ("adaptive", "x^-a", None, {"a": (0.1, 0.9, "lin"), "upper": (1e-2, 1e2, "log")},
     lambda v: mp.mpf(v["upper"]) ** (1 - v["a"]) / (1 - v["a"])),
    ("adaptive", "(-x)^-a", None, {"a": (0.1, 0.9, "lin"), "lower": (-1e2, -1e-2, "neglog")},
     lambda v: (-mp.mpf(v["lower"])) ** (1 - v["a"]) / (1 - v["a"])),
    ("adaptive", "log(x)", None, {"upper": (1e-2, 1e2, "log")},
     lambda v: v["upper"] * mp.log(v["upper"]) - v["upper"]),
    ("adaptive", "x^-a*exp(-b*x)", None, {"a": (0.1, 0.9, "lin"), "b": (0.1, 10.0, "log"), "upper": (1e-1, 10.0, "log")},
     lambda v: mp.gammainc(1 - v["a"], 0, v["b"] * v["upper"]) / mp.mpf(v["b"]) ** (1 - v["a"])),
    ("adaptive", "log(x)*cos(w*x)", None, {"w": (0.1, 10.0, "log"), "upper": (1e-1, 10.0, "log")},
     lambda v: quad(lambda x: mp.log(x) * mp.cos(v["w"] * x), mp.linspace(0, v["upper"], 8))),
    # Adaptive 1D: Bessel products.
    ("adaptive", "J0(a*x)*J1(b*x)", None, {"a": (0.1, 10.0, "log"), "b": (0.1, 10.0, "log"), "upper": (1.0, 50.0, "log")},
     lambda v: quad(lambda x: mp.besselj(0, v["a"] * x) * mp.besselj(1, v["b"] * x), mp.linspace(0, v["upper"], 40))),
    ("adaptive", "J0(a*x)^2*exp(-b*x)", None,
     {"a": (0.1, 10.0, "log"), "b": (0.01, 1.0, "log"), "upper": (1.0, 50.0, "log")},
     lambda v: quad(lambda x: mp.besselj(0, v["a"] * x) ** 2 * mp.exp(-v["b"] * x), mp.linspace(0, v["upper"], 40))),
]


def main():
    rng = random.Random(2929)
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expression_battery.csv")
    with open(path, "w", newline="") as out:
        table = csv.writer(out, lineterminator="\n")
        table.writerow(["form", "method", "expression", "oscillation", "lower", "upper", "a", "b", "c", "w", "reference"])
        for form, (method, expression, kind, ranges, reference) in enumerate(FORMS):
            for row in range(ROWS_PER_FORM):
                v = {"lower": 0.0, "upper": 1.0, "a": 0.0, "b": 0.0, "c": 0.0, "w": 0.0}
                drawn = {}
                for name, (low, high, scale) in ranges.items():
                    if scale == "neglog":
                        drawn[name] = -draw(rng, {name: (-high, -low, "log")}, row)[name]
                    else:
                        drawn.update(draw(rng, {name: (low, high, scale)}, row))
                v.update(drawn)
                if ranges.get("c", (0, 0, ""))[2] == "halfcycles":  # c in half cycles of w
                    v["c"] *= math.pi / v["w"]
                if v["lower"] < 0:  # the singular point at the upper limit 0
                    v["upper"] = 0.0
                if method == "longman":
                    v["upper"] = math.inf
                value = reference({k: mp.mpf(x) for k, x in v.items()})
                table.writerow([form, method, expression, kind or "", repr(v["lower"]), repr(v["upper"]),
                                repr(v["a"]), repr(v["b"]), repr(v["c"]), repr(v["w"]), mp.nstr(value, 17)])
    print(path)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""40-digit reference values of the magnetic field of uniformly magnetized prisms.

Independent of geobem's kernels: B = (mu0/4pi) * H(U) . M (Blakely 1995,
Poisson's relation), where U(station) = integral over the prism of 1/|r - r'|
is evaluated from the closed form of the Newtonian potential of a prism
(Nagy, Papp & Benedek 2000, eq. 8: the vertex sum of
  y z ln(x + r) + x z ln(y + r) + x y ln(z + r)
  - x^2/2 atan(y z / (x r)) - y^2/2 atan(x z / (y r)) - z^2/2 atan(x y / (z r))
with x, y, z the prism's coordinates relative to the station), and its
Hessian H(U) with respect to the station is taken by mpmath's numerical
differentiation at 60 digits. mu0/4pi = 1.00000000055e-7 H/m (CODATA 2018); results
in nT.
Axes easting, northing, upward; b_u positive upward.

Prints C++ initializer rows {west, east, south, north, bottom, top, m_e, m_n,
m_u, easting, northing, upward, b_e, b_n, b_u} for
tests/magnetic/test_magnetic.cpp (needs mpmath; Debian python3-mpmath).
"""
from mpmath import mp, mpf, log, atan, sqrt, diff

mp.dps = 60

CASES = [
    # prism bounds (m), magnetization (A/m), station (m)
    ((-50, 50, -40, 60, -120, -20), (0.3, -0.2, 0.5), (7, -3, 0)),
    ((100, 400, -250, -50, -900, -300), (0.0, 0.0, 1.0), (0, 0, 50)),
    ((0, 10, 0, 10, 0, 10), (1.0, 2.0, -0.5), (35, -12, 21)),
    ((-1000, 1000, -500, 800, -2500, -100), (0.1, 0.4, -0.35), (1234.5, -2345.6, 200)),
    ((2000, 2100, 3000, 3300, -50, 40), (0.405, 0.035, -0.815), (-5000, 7000, 1000)),
    ((-20, 20, -20, 20, -30, 0), (0.2, 0.1, -0.6), (10, 5, 0.5)),
]


def prism_potential(bounds, e, n, u):
    w, ea, s, no, b, t = [mpf(v) for v in bounds]
    total = mpf(0)
    for xi, x in ((1, ea - e), (-1, w - e)):
        for yj, y in ((1, no - n), (-1, s - n)):
            for zk, z in ((1, t - u), (-1, b - u)):
                r = sqrt(x * x + y * y + z * z)
                f = (y * z * log(x + r) + x * z * log(y + r) + x * y * log(z + r)
                     - x * x / 2 * atan(y * z / (x * r)) - y * y / 2 * atan(x * z / (y * r))
                     - z * z / 2 * atan(x * y / (z * r)))
                total += xi * yj * zk * f
    return total


def field(bounds, m, station):
    e0, n0, u0 = [mpf(v) for v in station]
    f = lambda e, n, u: prism_potential(bounds, e, n, u)
    orders = {(0, 0): (2, 0, 0), (0, 1): (1, 1, 0), (0, 2): (1, 0, 1), (1, 1): (0, 2, 0), (1, 2): (0, 1, 1),
              (2, 2): (0, 0, 2)}
    h = {}
    for (i, j), order in orders.items():
        h[i, j] = h[j, i] = diff(f, (e0, n0, u0), order)
    return [mpf("1.00000000055e-7") * mpf("1e9") * sum(h[i, j] * mpf(m[j]) for j in range(3)) for i in range(3)]


if __name__ == "__main__":
    for bounds, m, station in CASES:
        b = field(bounds, m, station)
        numbers = [str(v) for v in bounds + m + station] + [mp.nstr(v, 40) for v in b]
        print("    {" + ", ".join(numbers) + "},")

#!/usr/bin/env python3
"""High-accuracy reference values of Arumugam et al.'s f1-f4 on [0,1]^n.

One-off computation (needs mpmath: `pip install mpmath`); the values it prints
are the constants of bench_quadrature.cpp. Each uses structure of the
integrand so that no n-dimensional quadrature (and none of our code) is needed:

f2 = cos(P), P = prod_i cos(w_i x_i), w_i = 2^(2^i), |P| <= 1:
   E[cos P] = sum_k (-1)^k E[P^(2k)]/(2k)!,  E[P^(2k)] = prod_i E[cos^(2k)(w_i x_i)],
   E[cos^(2k)(w x)] = 2^(-2k) [C(2k,k) + 2 sum_{j=1..k} C(2k,k-j) sin(2jw)/(2jw)]   (exact).
f4 = sin(P), P = prod_i asin(x_i) = prod_i t_i with t_i of density cos t on [0, pi/2]:
   E[sin P] = sum_m (-1)^m E[P^(2m+1)]/(2m+1)!,  E[P^k] = (int_0^{pi/2} t^k cos t dt)^n.
f3 = sin(P), P = prod_i i asin(x_i^i): the same series with
   E[P^k] = prod_i i^k int_0^1 asin(x^i)^k dx   (x = sin(t)^(1/i) in the integral).
f1 = g(S), S = sum_i x_i^2, g(s) = (0.1 + cos^2 s)^-2 of period pi:
   g(s) = sum_k c_k e^{2iks} (c_k by the trapezoid rule, exponentially accurate for
   periodic analytic g), E[e^{2ikS}] = phi(2k)^n with phi(t) = int_0^1 e^{i t x^2} dx.
"""
import mpmath as mp

mp.mp.dps = 110


def f2(n=4):
    w = [mp.mpf(2) ** (2 ** i) for i in range(1, n + 1)]
    total = mp.mpf(0)
    for k in range(0, 30):
        moment = mp.mpf(1)
        for wi in w:
            s = mp.binomial(2 * k, k)
            for j in range(1, k + 1):
                s += 2 * mp.binomial(2 * k, k - j) * mp.sin(2 * j * wi) / (2 * j * wi)
            moment *= s / mp.mpf(4) ** k
        total += (-1) ** k * moment / mp.factorial(2 * k)
    return total


def sine_series(moment, kmax):
    total = mp.mpf(0)
    for m in range(0, kmax):
        k = 2 * m + 1
        total += (-1) ** m * moment(k) / mp.factorial(k)
    return total


def f4(n=7):
    mu = lambda k: mp.quad(lambda t: t ** k * mp.cos(t), [0, mp.pi / 2])
    return sine_series(lambda k: mu(k) ** n, 60)


def f3(n=4):
    def nu(i, k):
        # int_0^1 asin(x^i)^k dx with x = sin(t)^(1/i): (1/i) t^k sin(t)^(1/i - 1) cos t dt
        return mp.quad(lambda t: t ** k * mp.sin(t) ** (mp.mpf(1) / i - 1) * mp.cos(t) / i, [0, mp.pi / 4, mp.pi / 2])
    def moment(k):
        p = mp.mpf(1)
        for i in range(1, n + 1):
            p *= mp.mpf(i) ** k * nu(i, k)
        return p
    return sine_series(moment, 260)


def f1(n=7):
    mp.mp.dps = 30
    N = 4096
    g = lambda s: 1 / (mp.mpf("0.1") + mp.cos(s) ** 2) ** 2
    samples = [g(mp.pi * j / N) for j in range(N)]
    def c(k):
        return sum(samples[j] * mp.cos(2 * k * mp.pi * j / N) for j in range(N)) / N
    total = c(0)
    for k in range(1, 90):
        phi = mp.quad(lambda x: mp.expj(2 * k * x * x), mp.linspace(0, 1, 8 * k + 2))
        total += 2 * c(k) * mp.re(phi ** n)
    return total


if __name__ == "__main__":
    import sys
    which = sys.argv[1:] or ["f2", "f4", "f1", "f3"]
    for name in which:
        value = {"f1": f1, "f2": f2, "f3": f3, "f4": f4}[name]()
        print(f"{name} {mp.nstr(value, 20)}", flush=True)

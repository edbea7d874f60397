#pragma once
// A minimal complex<double> for point kernels that compile for host and device
// from one source (std::complex is not usable in device code). Layout is two
// doubles, real then imaginary, the layout of cuDoubleComplex, LAPACK's
// double complex and fftw_complex, so arrays of it can be handed to those
// libraries by reinterpret_cast.
#include <cmath>

#include "gpu/core/host_device.hpp"

namespace geobem::bem {

struct Complex {
  double re = 0.0, im = 0.0;
  GEOBEM_HD Complex() = default;
  GEOBEM_HD Complex(double real, double imag = 0.0) : re(real), im(imag) {}
  GEOBEM_HD Complex& operator+=(const Complex& o) { re += o.re; im += o.im; return *this; }
  GEOBEM_HD Complex& operator-=(const Complex& o) { re -= o.re; im -= o.im; return *this; }
  GEOBEM_HD Complex& operator*=(double a) { re *= a; im *= a; return *this; }
};

GEOBEM_HD inline Complex operator+(Complex a, Complex b) { return {a.re + b.re, a.im + b.im}; }
GEOBEM_HD inline Complex operator-(Complex a, Complex b) { return {a.re - b.re, a.im - b.im}; }
GEOBEM_HD inline Complex operator-(Complex a) { return {-a.re, -a.im}; }
GEOBEM_HD inline Complex operator*(Complex a, Complex b) { return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }
GEOBEM_HD inline Complex operator*(double a, Complex b) { return {a * b.re, a * b.im}; }
GEOBEM_HD inline Complex operator*(Complex b, double a) { return {a * b.re, a * b.im}; }
GEOBEM_HD inline Complex operator/(Complex a, double b) { return {a.re / b, a.im / b}; }
GEOBEM_HD inline Complex operator+(Complex a, double b) { return {a.re + b, a.im}; }
GEOBEM_HD inline Complex operator-(Complex a, double b) { return {a.re - b, a.im}; }
GEOBEM_HD inline Complex operator-(double a, Complex b) { return {a - b.re, -b.im}; }
GEOBEM_HD inline Complex conj(Complex a) { return {a.re, -a.im}; }
GEOBEM_HD inline double abs(Complex a) { return hypot(a.re, a.im); }
/// Scaled division (Smith 1962) so that |b| near the overflow/underflow limits stays finite.
GEOBEM_HD inline Complex operator/(Complex a, Complex b) {
  if (fabs(b.re) >= fabs(b.im)) {
    const double t = b.im / b.re, d = b.re + b.im * t;
    return {(a.re + a.im * t) / d, (a.im - a.re * t) / d};
  }
  const double t = b.re / b.im, d = b.re * t + b.im;
  return {(a.re * t + a.im) / d, (a.im * t - a.re) / d};
}
GEOBEM_HD inline Complex operator/(double a, Complex b) { return Complex(a) / b; }

}  // namespace geobem::bem

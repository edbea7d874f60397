#pragma once
// Laplace-domain fundamental solutions of 3D isotropic elastodynamics,
// U*(r, s) and T*(r, s), split into their static (Kelvin) parts U0, T0 and the
// remainders U* − U0, T* − T0, which stay bounded as r → 0 and are evaluated
// without cancellation (series in z = s·r/c for |z| < 1/2).
//
// Form (Domínguez 1993, "Boundary Elements in Dynamics", eqs. 2.176–2.178;
// Schanz & Antes 1997, Comput. Mech. 20, eq. 8):
//   U*_ij = 1/(4πμ) [ψ δ_ij − χ r_,i r_,j],  r = x − ξ,  k1 = s/c1, k2 = s/c2, q = (c2/c1)²
//   ψ·r = e^{−k2 r}(1 + 1/(k2 r) + 1/(k2 r)²) − q e^{−k1 r}(1/(k1 r) + 1/(k1 r)²)
//   χ·r = e^{−k2 r}(1 + 3/(k2 r) + 3/(k2 r)²) − q e^{−k1 r}(1 + 3/(k1 r) + 3/(k1 r)²)
// T*_ij is the traction at x (unit normal n) in direction j of the field of a
// unit point load at ξ in direction i, formed here from Hooke's law applied to
// U*_ij (σ_jk = λ δ_jk u_m,m + μ(u_j,k + u_k,j), t_j = σ_jk n_k) with
// u_j = a δ_ij − b r_,i r_,j (a = ψ/4πμ, b = χ/4πμ):
//   t_j = λ n_j (a' − b' − 2b/r) r_,i + μ[a'(r_n δ_ij + r_,j n_i) − 2 b' r_n r_,i r_,j
//         − (b/r)((n_i − r_,i r_n) r_,j + 2 r_,i (n_j − r_,j r_n) + (δ_ij − r_,i r_,j) r_n)]
// The same expression with the static ψ0 = (1 + q)/(2r), χ0 = −(1 − q)/(2r)
// is the Kelvin solution; with ψ − ψ0, χ − χ0 it is the bounded remainder.
#include "gpu/bem/complex.hpp"
#include "gpu/bem/vec3.hpp"
#include "gpu/core/host_device.hpp"
#include "gpu/core/math_constants.hpp"

namespace geobem::bem {

/// Isotropic linear elastic material: density ρ (kg/m³), Lamé λ and shear
/// modulus μ (Pa), and the P and S wave speeds c1, c2 (m/s).
struct Material {
  double density = 0.0, lame_lambda = 0.0, shear_modulus = 0.0, p_wave_speed = 0.0, s_wave_speed = 0.0;
};

/// The largest Poisson's ratio material_from_young() takes: 0.01 below the
/// incompressible 1/2, where c_P/c_S = √(2(1 − ν)/(1 − 2ν)) reaches 7.1. The
/// time step follows the P wave (β = c_P·Δt/h), so the S wave number across
/// an element grows with c_P/c_S, and towards 1/2 the pure-displacement
/// formulation locks (a mixed one would be needed).
inline constexpr double max_poisson_ratio = 0.49;

/// Material from Young's modulus E (Pa), Poisson's ratio ν (−1 < ν ≤
/// max_poisson_ratio) and density ρ (kg/m³). Throws InputError
/// naming the bad value.
Material material_from_young(double young_modulus, double poisson_ratio, double density);

// Blocks are [i][j]: i the load direction, j the component.

namespace detail {

/// Radial functions of z (complex) used by the remainders (|z| < 1/2 by their
/// power series, else in closed form):
///   A(z) = e^{−z} − 1 + B(z),  B(z) = e^{−z}(1/z + 1/z²) − 1/z² + 1/2,
///   C(z) = e^{−z}(1 + 3/z + 3/z²) − 3/z² + 1/2,
/// and for each f the combination z f'(z) − f(z) that enters r·d/dr(f/r).
/// Series: e^{−z}(1/z + 1/z²) = 1/z² + Σ_{m≥2} (−1)^m (1 − m) z^{m−2}/m!,
///         e^{−z}(1 + 3/z + 3/z²) = 3/z² + Σ_{m≥2} (−1)^m (m − 1)(m − 3) z^{m−2}/m!.
struct RadialRemainders {
  Complex a, b, c, ga, gb, gc;
};

/// Below this |z| the closed forms lose more than ~4ε/|z|² of the O(1)
/// kernel to cancellation between e^{−z}/z² and 1/z² (≤ 16ε here), so the
/// series takes over; its terms fall below 1e-17 of the kernel by m = 16.
constexpr double radial_series_radius = 0.5;

GEOBEM_HD inline RadialRemainders radial_remainders(Complex z) {
  RadialRemainders out;
  const double size2 = z.re * z.re + z.im * z.im;  // |z|², no hypot
  if (size2 < radial_series_radius * radial_series_radius) {
    // w_m = (−z)^m / m! / z², starting at m = 3; |w_16| < 0.5^14/16! ≈ 3e-18.
    Complex w = Complex(-1.0 / 6.0) * z;
    Complex b, c, gb, gc;
    for (int m = 3; m < 17; ++m) {
      b += (1.0 - m) * w;
      c += double((m - 1) * (m - 3)) * w;
      gb += double((1 - m) * (m - 3)) * w;
      gc += double((m - 1) * (m - 3) * (m - 3)) * w;
      w = w * (-1.0 / (m + 1)) * z;
    }
    // e^{−z} − 1 = Σ_{m≥1} (−z)^m/m!; z·d/dz − 1 multiplies its term by (m − 1).
    Complex e = -z, em1, gem1;
    for (int m = 1; m < 18; ++m) {
      em1 += e;
      gem1 += double(m - 1) * e;
      e = e * (-1.0 / (m + 1)) * z;
    }
    out.a = em1 + b;
    out.b = b;
    out.c = c;
    out.ga = gem1 + gb;
    out.gb = gb;
    out.gc = gc;
    return out;
  }
  // One exponential and one real division per wave: e^{−z} from one exp and
  // one sincos, 1/z = z̄/|z|² (|z| ≥ 1/2 here, so no overflow), and the
  // products e/z, e/z² shared by every function below. e^{−z} − 1 is formed
  // directly: its absolute error, ≈ 2ε, is what expm1 would leave of the O(1)
  // kernel too.
  double sin_y, cos_y;
  ::sincos(z.im, &sin_y, &cos_y);
  const double decay = ::exp(-z.re), inverse_size2 = 1.0 / size2;
  const Complex e(decay * cos_y, -decay * sin_y), iz(z.re * inverse_size2, -z.im * inverse_size2), iz2 = iz * iz;
  const Complex e_iz = e * iz, e_iz2 = e * iz2, z_e = z * e;
  out.b = e_iz + e_iz2 - iz2 + 0.5;
  const Complex zb = 2.0 * (iz2 - e_iz - e_iz2) - e;  // z·B'(z)
  out.gb = zb - out.b;
  out.a = (e - 1.0) + out.b;
  out.ga = zb - z_e - out.a;
  out.c = e + 3.0 * (e_iz + e_iz2 - iz2) + 0.5;
  const Complex zc = 6.0 * (iz2 - e_iz - e_iz2) - 3.0 * e - z_e;  // z·C'(z)
  out.gc = zc - out.c;
  return out;
}

/// What kelvin_solution and dynamic_remainders start from at x − ξ = r_vec
/// (m, nonzero) with unit normal n at x: r, r_,i, n, r_n = r_,i n_i, the
/// squared wave-speed ratio q = (c2/c1)² and 1/(4πμ).
struct PointGeometry {
  double r, rd[3], n[3], rn, q, inv;
  GEOBEM_HD PointGeometry(Vec3 r_vec, Vec3 normal, const Material& m)
      : r(norm(r_vec)),
        rd{r_vec.x / r, r_vec.y / r, r_vec.z / r},
        n{normal.x, normal.y, normal.z},
        rn(rd[0] * n[0] + rd[1] * n[1] + rd[2] * n[2]),
        q((m.s_wave_speed / m.p_wave_speed) * (m.s_wave_speed / m.p_wave_speed)),
        inv(1.0 / (4.0 * kPi * m.shear_modulus)) {}
};

}  // namespace detail

/// The traction T*_ij (header formula) of the radial pieces ψ' = psi_r,
/// χ' = chi_r and X = χ/r = chi_over_r, each times 4πμ, grouped by their
/// geometric factors: with the dilatation D = ψ' − χ' − 2X,
///   4πμ T*_ij = n_j r_,i (λD − 2μX) + n_i r_,j μ(ψ' − X) + δ_ij r_n μ(ψ' − X)
///               + r_,i r_,j r_n μ(4X − 2χ'),
/// four factors per point instead of per-entry sums (about a third of their
/// operations). Scalar: double for the Kelvin part, Complex for the dynamic
/// kernel and its remainder; the only form of T* here.
template <typename Scalar>
struct TractionFactors {
  Scalar a, c, c_rn, g;  ///< λD − 2μX, μ(ψ' − X), r_n·μ(ψ' − X), r_n·μ(4X − 2χ')
  GEOBEM_HD TractionFactors(Scalar psi_r, Scalar chi_r, Scalar chi_over_r, double rn, double lambda, double mu) {
    const Scalar dilatation = psi_r - chi_r - 2.0 * chi_over_r;
    a = lambda * dilatation - (2.0 * mu) * chi_over_r;
    c = mu * (psi_r - chi_over_r);
    c_rn = rn * c;
    g = (rn * mu) * (4.0 * chi_over_r - 2.0 * chi_r);
  }
  /// 4πμ T*_ij at direction rd (unit) and normal n.
  GEOBEM_HD Scalar entry(const double rd[3], const double n[3], int i, int j) const {
    Scalar t = (n[j] * rd[i]) * a + (n[i] * rd[j]) * c + (rd[i] * rd[j]) * g;
    if (i == j) t += c_rn;
    return t;
  }
};

/// Kelvin solution U0 (m/N) and T0 (1/m²) at x − ξ = `r_vec` (m, nonzero) with
/// unit normal `normal` at x: the s → 0 limit of the header formulas.
GEOBEM_HD inline void kelvin_solution(Vec3 r_vec, Vec3 normal, const Material& m, double u0[3][3], double t0[3][3]) {
  const detail::PointGeometry geometry(r_vec, normal, m);
  // ψ0 = P0/r, χ0 = Q0/r.
  const double r = geometry.r, p0 = 0.5 * (1.0 + geometry.q), q0 = -0.5 * (1.0 - geometry.q);
  const TractionFactors<double> traction(-p0 / (r * r), -q0 / (r * r), q0 / (r * r), geometry.rn, m.lame_lambda,
                                         m.shear_modulus);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      u0[i][j] = geometry.inv * ((i == j ? p0 : 0.0) - q0 * geometry.rd[i] * geometry.rd[j]) / r;
      t0[i][j] = geometry.inv * traction.entry(geometry.rd, geometry.n, i, j);
    }
}

/// The bounded remainders U* − U0 (m/N) and T* − T0 (1/m²) at x − ξ = `r_vec`
/// (m, nonzero), unit normal `normal` at x, Laplace parameter s (1/s, Re s ≥ 0).
GEOBEM_HD inline void dynamic_remainders(Vec3 r_vec, Vec3 normal, Complex s, const Material& m, Complex u[3][3],
                                         Complex t[3][3]) {
  const detail::PointGeometry geometry(r_vec, normal, m);
  // ψ − ψ0 = (A(z2) − q B(z1))/r, χ − χ0 = (C(z2) − q C(z1))/r, and r²·d/dr
  // of each is z f'(z) − f(z) of the same combination.
  const double r = geometry.r, q = geometry.q;
  const Complex z1 = (r / m.p_wave_speed) * s, z2 = (r / m.s_wave_speed) * s;
  const detail::RadialRemainders f1 = detail::radial_remainders(z1), f2 = detail::radial_remainders(z2);
  const Complex psi = (f2.a - q * f1.b) / r, chi = (f2.c - q * f1.c) / r;
  const double r2 = r * r;
  const Complex psi_r = (f2.ga - q * f1.gb) / r2, chi_r = (f2.gc - q * f1.gc) / r2;
  const TractionFactors<Complex> traction(psi_r, chi_r, chi / r, geometry.rn, m.lame_lambda, m.shear_modulus);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      u[i][j] = geometry.inv * ((i == j ? psi : Complex()) - geometry.rd[i] * geometry.rd[j] * chi);
      t[i][j] = geometry.inv * traction.entry(geometry.rd, geometry.n, i, j);
    }
}

/// U* and T* at one point x (x − ξ = r_vec, unit normal n at x, Laplace
/// parameter s) in radial form, evaluated entry by entry: what the quadrature
/// loops accumulate without holding four 3×3 blocks (on the GPU, registers).
/// The coefficients are 4πμ times those of the header formulas (scaled_u,
/// and traction.entry for T*; u, t and t_remainder divide by 4πμ): the totals
/// (Kelvin part plus remainder) and, for the own column of a node, the
/// remainder of the traction alone.
struct PointKernel {
  double rd[3], n[3], rn, inv, lambda, mu;
  Complex psi, chi;                           ///< 4πμ U* = ψ δ_ij − χ r_,i r_,j
  Complex rem_psi_r, rem_chi_r, rem_chi_over_r;  ///< radial pieces of T* − T0
  TractionFactors<Complex> traction;          ///< of T*
  /// The factors of T* − T0 (bounded as r → 0): only the own column of a node needs them.
  GEOBEM_HD TractionFactors<Complex> remainder_traction() const {
    return TractionFactors<Complex>(rem_psi_r, rem_chi_r, rem_chi_over_r, rn, lambda, mu);
  }
  /// 4πμ U*_ij.
  GEOBEM_HD Complex scaled_u(int i, int j) const {
    const Complex radial = (rd[i] * rd[j]) * chi;
    return i == j ? psi - radial : -radial;
  }
  /// 4πμ times entry (i, j) of the traction whose factors are `factors`
  /// (`traction` for T*, remainder_traction() for T* − T0).
  GEOBEM_HD Complex scaled_t(const TractionFactors<Complex>& factors, int i, int j) const {
    return factors.entry(rd, n, i, j);
  }
  /// U*_ij (m/N).
  GEOBEM_HD Complex u(int i, int j) const { return inv * scaled_u(i, j); }
  /// T*_ij (1/m²).
  GEOBEM_HD Complex t(int i, int j) const { return inv * traction.entry(rd, n, i, j); }
  /// (T* − T0)_ij (1/m²), bounded as r → 0.
  GEOBEM_HD Complex t_remainder(int i, int j) const { return inv * remainder_traction().entry(rd, n, i, j); }
};

/// PointKernel at x − ξ = `r_vec` (m, nonzero): the same formulas as
/// kelvin_solution plus dynamic_remainders, with one division (1/r) where
/// those take one per coefficient.
GEOBEM_HD inline PointKernel point_kernel(Vec3 r_vec, Vec3 normal, Complex s, const Material& m) {
  const double r = norm(r_vec), ir = 1.0 / r, ir2 = ir * ir;
  const double rd[3] = {r_vec.x * ir, r_vec.y * ir, r_vec.z * ir};
  const double rn = rd[0] * normal.x + rd[1] * normal.y + rd[2] * normal.z;
  // The slownesses 1/c are the same at every point (the compiler hoists
  // them out of the quadrature loops): a multiplication per wave instead of
  // a division.
  const double p_slowness = 1.0 / m.p_wave_speed, s_slowness = 1.0 / m.s_wave_speed;
  const double q = (m.s_wave_speed * p_slowness) * (m.s_wave_speed * p_slowness);
  const double p0 = 0.5 * (1.0 + q), q0 = -0.5 * (1.0 - q);
  // ψ − ψ0 = (A(z2) − q B(z1))/r, χ − χ0 = (C(z2) − q C(z1))/r (header of
  // dynamic_remainders), summed wave by wave in one loop: one copy of
  // radial_remainders in the code (on the GPU, half the instructions to fetch).
  Complex psi_rem, chi_rem, psi_r_rem, chi_r_rem;
#if defined(__CUDA_ARCH__)
#pragma unroll 1
#endif
  for (int wave = 0; wave < 2; ++wave) {
    const bool s_wave = wave == 1;
    const detail::RadialRemainders f =
        detail::radial_remainders((r * (s_wave ? s_slowness : p_slowness)) * s);
    const double weight = s_wave ? 1.0 : -q;
    psi_rem += weight * (s_wave ? f.a : f.b);
    chi_rem += weight * f.c;
    psi_r_rem += weight * (s_wave ? f.ga : f.gb);
    chi_r_rem += weight * f.gc;
  }
  chi_rem = ir * chi_rem;
  const Complex rem_psi_r = ir2 * psi_r_rem, rem_chi_r = ir2 * chi_r_rem;
  const Complex rem_chi_over_r = ir * chi_rem;
  return PointKernel{{rd[0], rd[1], rd[2]},
                     {normal.x, normal.y, normal.z},
                     rn,
                     1.0 / (4.0 * kPi * m.shear_modulus),
                     m.lame_lambda,
                     m.shear_modulus,
                     ir * (p0 + psi_rem),
                     q0 * ir + chi_rem,
                     rem_psi_r,
                     rem_chi_r,
                     rem_chi_over_r,
                     TractionFactors<Complex>((-p0 * ir2) + rem_psi_r, (-q0 * ir2) + rem_chi_r,
                                              (q0 * ir2) + rem_chi_over_r, rn, m.lame_lambda, m.shear_modulus)};
}

}  // namespace geobem::bem

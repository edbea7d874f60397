#pragma once
// The fundamental solution as a type: what the dense and hierarchical
// assemblies, the free term and the receiver field are templates on, so that
// another kernel (a half-space, an acoustic one) is one new type beside
// elastodynamic_full_space.hpp plus its name in shipped_fundamental_solutions().
// A type S is a fundamental solution when it has
//   S::name                       text written in the manifest (geobem-time refuses names it does not know)
//   S::components                 unknowns per node and equations per collocation point
//   S::Parameters                 its material (the model's ModelView::material)
//   S::point(r, n, s, p)          the point kernel at x − ξ = r, unit normal n at x, Laplace parameter s:
//                                 an object with scaled_u(i, j), `traction`, remainder_traction() and
//                                 scaled_t(factors, i, j), entries of U*, T* and T* − T_static over scale()
//   S::scale(p)                   the factor of those scaled entries
//   S::static_traction(r, n, p, t0)  the static traction that the rigid-body condition integrates
//   S::slowest_decay(s, p)        the smallest rate (1/m) at which the dynamic kernel decays with distance
//   S::waves(d, h, s, p)          the PairWaves of an element of size h at distance d (quadrature plans)
//   S::kernel_bounds(r, s, p, u, t)  bounds on |U*| and |T*| entries at every distance ≥ r (far blocks dropped)
//   S::apply_free_term(model, sums)  the free term into the rigid-body sums (host)
// check_fundamental_solution<S>() names what is missing at compile time.
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpu/bem/elastodynamic_full_space.hpp"
#include "gpu/core/input_error.hpp"

namespace geobem::bem {

namespace detail {

template <class S, class = void>
struct has_fundamental_solution_members : std::false_type {};

template <class S>
struct has_fundamental_solution_members<
    S, std::void_t<decltype(S::name), decltype(S::components), typename S::Parameters,
                   decltype(S::point(Vec3{}, Vec3{}, Complex{}, std::declval<const typename S::Parameters&>())),
                   decltype(S::scale(std::declval<const typename S::Parameters&>())),
                   decltype(S::slowest_decay(Complex{}, std::declval<const typename S::Parameters&>())),
                   decltype(S::waves(0.0, 0.0, Complex{}, std::declval<const typename S::Parameters&>())),
                   decltype(S::kernel_bounds(0.0, Complex{}, std::declval<const typename S::Parameters&>(),
                                             std::declval<double&>(), std::declval<double&>())),
                   decltype(S::apply_free_term(std::declval<const BemModel&>(),
                                               std::declval<std::vector<double>&>()))>> : std::true_type {};

}  // namespace detail

/// Compile-time check of the members above (use in a static_assert).
template <class S>
constexpr bool check_fundamental_solution() {
  static_assert(detail::has_fundamental_solution_members<S>::value,
                "a fundamental solution needs name, components, Parameters, point, scale, slowest_decay, waves, "
                "kernel_bounds and apply_free_term (gpu/bem/fundamental_solution_type.hpp)");
  static_assert(S::components == BemModel::components,
                "BemModel's unknown blocks hold 3 components: a kernel of other components needs its own model");
  return true;
}

static_assert(check_fundamental_solution<ElastodynamicFullSpace>());

/// The names of the fundamental solutions this build computes with, as manifests record them.
inline std::vector<std::string> shipped_fundamental_solutions() { return {ElastodynamicFullSpace::name}; }

/// Whether `name` is one of shipped_fundamental_solutions().
inline bool is_shipped_fundamental_solution(const std::string& name) {
  for (const std::string& known : shipped_fundamental_solutions())
    if (known == name) return true;
  return false;
}

/// Calls f(S{}) with the shipped fundamental solution S named `name` and
/// returns what it returns: how a stage turns a manifest's name into the
/// type. Throws InputError naming `name` when no shipped one has it.
template <class F>
decltype(auto) with_fundamental_solution(const std::string& name, F&& f) {
  if (name == ElastodynamicFullSpace::name) return f(ElastodynamicFullSpace{});
  throw InputError("the fundamental solution '" + name + "' is not one this build computes with");
}

}  // namespace geobem::bem

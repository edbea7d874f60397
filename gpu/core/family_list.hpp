#pragma once
// A compile-time list of integrand families, each a trait type (its name,
// parameters, documented range and check, its GEOBEM_HD function), and the
// dispatch from a run-time family to its trait. An integrator's family
// identifier, name table and switches are generated from one such list, so a
// family is registered by one entry and the identifiers follow the list's
// order with no rule to keep by hand. No standard header but in host code:
// the NVRTC kernels (gpu/expression) include it too.
#include "gpu/core/host_device.hpp"
#if !defined(__CUDACC_RTC__)  // the throwing dispatch is host code
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/core/input_error.hpp"
#endif

namespace geobem {

/// The families of one integrator, in registration order.
template <class... Families>
struct FamilyList {
  static constexpr int size = sizeof...(Families);
};

/// Stands for a family type in a visitor call: visit(FamilyTag<F>{}) hands F
/// over without constructing one.
template <class Family>
struct FamilyTag {
  using type = Family;
};

namespace detail {
template <class Family, class... Families>
struct FamilyPosition;
template <class Family, class... Rest>
struct FamilyPosition<Family, Family, Rest...> {
  static constexpr int value = 0;
};
template <class Family, class Other, class... Rest>
struct FamilyPosition<Family, Other, Rest...> {
  static constexpr int value = 1 + FamilyPosition<Family, Rest...>::value;
};
template <class Family>
struct FamilyPosition<Family> {
  static_assert(sizeof(Family) == 0, "the family is not registered in this FamilyList");
};
}  // namespace detail

template <class Family, class List>
struct FamilyIndex;
/// Position of Family in FamilyList<Families...>; a compile error when absent.
template <class Family, class... Families>
struct FamilyIndex<Family, FamilyList<Families...>> {
  static constexpr int value = detail::FamilyPosition<Family, Families...>::value;
};

/// Calls visit(FamilyTag<F>{}) for the family F at `index` of the list and
/// returns true; returns false and calls nothing when index is outside it.
/// Resolved at compile time into a chain of comparisons (no virtual call,
/// no table of function pointers), so it serves device code as well.
#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)
#pragma nv_exec_check_disable
#endif
template <class... Families, class Visitor>
GEOBEM_HD bool visit_family_at(FamilyList<Families...>, int index, Visitor&& visit) {
  int position = 0;
  return ((index == position++ ? (visit(FamilyTag<Families>{}), true) : false) || ...);
}

/// Calls visit(FamilyTag<F>{}) for every family F of the list, in order.
#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)
#pragma nv_exec_check_disable
#endif
template <class... Families, class Visitor>
GEOBEM_HD void for_each_family(FamilyList<Families...>, Visitor&& visit) {
  (visit(FamilyTag<Families>{}), ...);
}

#if !defined(__CUDACC_RTC__)
/// visit_family_at for a family identifier `family` (an enum whose values are
/// the positions in the list); throws InputError naming `list_name`
/// for a value outside the list.
template <class List, class FamilyId, class Visitor>
void visit_registered_family(List list, FamilyId family, const char* list_name, Visitor&& visit) {
  if (!visit_family_at(list, static_cast<int>(family), visit))
    throw InputError("family " + std::to_string(static_cast<int>(family)) + " is not registered in " +
                     list_name);
}

/// The families' names (each trait's `name`), in registration order.
template <class List>
std::vector<std::string> family_names(List list) {
  std::vector<std::string> names;
  for_each_family(list, [&](auto tag) { names.push_back(decltype(tag)::type::name); });
  return names;
}

/// The name of `family` (its trait's `name`); throws as visit_registered_family.
template <class List, class FamilyId>
std::string family_name(List list, FamilyId family, const char* list_name) {
  std::string name;
  visit_registered_family(list, family, list_name, [&](auto tag) { name = decltype(tag)::type::name; });
  return name;
}

/// The family identifier (FamilyId, an enum over the list's positions) whose
/// trait's `name` is `name`; throws InputError::usage "unknown <what> '<name>'
/// (known: <the names>)" otherwise.
template <class FamilyId, class List>
FamilyId parse_family(List list, const std::string& name, const char* what) {
  const std::vector<std::string> names = family_names(list);
  std::string known;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<FamilyId>(i);
    known += (known.empty() ? "" : ", ") + names[i];
  }
  throw InputError::usage("unknown " + std::string(what) + " '" + name + "' (known: " + known + ")");
}
#endif

}  // namespace geobem

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
/// the positions in the list); throws std::invalid_argument naming `list_name`
/// for a value outside the list.
template <class List, class FamilyId, class Visitor>
void visit_registered_family(List list, FamilyId family, const char* list_name, Visitor&& visit) {
  if (!visit_family_at(list, static_cast<int>(family), visit))
    throw std::invalid_argument("family " + std::to_string(static_cast<int>(family)) + " is not registered in " +
                                list_name);
}
#endif

}  // namespace geobem

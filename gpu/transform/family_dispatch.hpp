#pragma once
// Internal to geobem_transform: calls a visitor with the functor type of a
// TransformFamily (from LongmanFamilies), so the CPU (transform.cpp) and CUDA
// (transform_cuda.cu) paths of integrate_family share one dispatch.
#include <cstddef>
#include <vector>

#include "gpu/core/family_list.hpp"
#include "gpu/transform/families.hpp"
#include "gpu/transform/transform.hpp"

namespace geobem::transform::detail {

/// Calls visit(FamilyTag<Functor>{}) with the family's functor type; throws
/// InputError for a value outside LongmanFamilies.
template <class Visitor>
void visit_family(TransformFamily family, Visitor&& visit) {
  visit_registered_family(LongmanFamilies{}, family, "LongmanFamilies", visit);
}

/// The CUDA path of integrate_family (transform_cuda.cu).
void integrate_family_cuda(TransformFamily family, const std::vector<double>& parameters, std::size_t count,
                           const GaussRule& rule, const LongmanOptions& options, LongmanResult* results,
                           LongmanTimings* timings);

}  // namespace geobem::transform::detail

#pragma once
// Internal to geobem_transform: maps a TransformFamily to its functor type, so
// the CPU (transform.cpp) and CUDA (transform_cuda.cu) paths of
// integrate_family share one switch.
#include <cstddef>
#include <vector>

#include "gpu/transform/families.hpp"
#include "gpu/transform/transform.hpp"

namespace geobem::transform::detail {

template <class F>
struct FamilyType {
  using type = F;
};

/// Calls visit(FamilyType<Functor>{}) with the family's functor type.
template <class Visitor>
void visit_family(TransformFamily family, Visitor&& visit) {
  switch (family) {
    case TransformFamily::ExponentialCosine: visit(FamilyType<ExponentialCosine>{}); break;
    case TransformFamily::ExponentialSine: visit(FamilyType<ExponentialSine>{}); break;
    case TransformFamily::LorentzianCosine: visit(FamilyType<LorentzianCosine>{}); break;
    case TransformFamily::LorentzianSine: visit(FamilyType<LorentzianSine>{}); break;
    case TransformFamily::HankelExponential: visit(FamilyType<HankelExponential>{}); break;
    case TransformFamily::HalfSpaceDisk: visit(FamilyType<HalfSpaceDisk>{}); break;
  }
}

/// The CUDA path of integrate_family (transform_cuda.cu).
void integrate_family_cuda(TransformFamily family, const std::vector<double>& parameters, std::size_t count,
                           const GaussRule& rule, const LongmanOptions& options, LongmanResult* results,
                           LongmanTimings* timings);

}  // namespace geobem::transform::detail

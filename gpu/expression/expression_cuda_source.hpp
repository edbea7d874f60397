#pragma once
// CUDA C++ source of a checked Expression, for the kernels that NVRTC
// compiles per expression (expression_kernels.hpp): the tree printed fully
// parenthesised, with the operations of the CPU program
// (expression_program.hpp): the same integer-power rule, and the grammar's
// functions mapped to the same GEOBEM_HD definitions (expression_functions.hpp).
#include <string>
#include <vector>

#include "gpu/expression/expression.hpp"

namespace geobem::expression {

/// A C++ expression computing `expression` with variable i spelled
/// `variables[i]` and parameter i spelled `parameters[i]` (e.g. "x",
/// "p[0]"). Numbers are printed to 17 significant digits (exact round trip).
std::string cuda_expression_source(const Expression& expression, const std::vector<std::string>& variables,
                                   const std::vector<std::string>& parameters);

}  // namespace geobem::expression

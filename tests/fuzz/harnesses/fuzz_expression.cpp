// The --integrand-expression grammar (gpu/expression): the parser with its
// size bounds, then for what it accepts the CPU program (evaluated once) and
// the CUDA source, which walk the checked tree recursively.
#include <string>
#include <vector>

#include "gpu/expression/expression.hpp"
#include "gpu/expression/expression_cuda_source.hpp"
#include "gpu/expression/expression_program.hpp"
#include "tests/fuzz/harnesses/fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace ex = geobem::expression;
  const std::string text(reinterpret_cast<const char*>(data), size);
  return geobem::fuzz::refusal_is_fine([&] {
    const ex::Expression expression = ex::parse_expression(text, {"x"}, {{"a", "w"}, "a column of table.csv"});
    const ex::ExpressionProgram program(expression);
    const double x = 0.5, parameters[2] = {1.5, -2.0};
    program.evaluate(&x, parameters);
    ex::cuda_expression_source(expression, {"x"}, {"p[0]", "p[1]"});
  });
}

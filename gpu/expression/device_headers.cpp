// The headers of the NVRTC kernels (expression_kernels.hpp): the
// integrators' GEOBEM_HD headers as they are in the tree, embedded at build
// time (embed_headers.cmake), and stand-ins for the standard headers they
// include: NVRTC has the math functions built in but no <cmath> or <cstdint>.
#include "gpu/expression/expression_kernels.hpp"

namespace geobem::expression {

const std::vector<NvrtcHeader>& device_headers() {
  static const std::vector<NvrtcHeader> headers{
#include "embedded_device_headers.inc"
      {"cmath", "#pragma once\n#define HUGE_VAL (__longlong_as_double(0x7ff0000000000000LL))\n"},
      {"cstddef", "#pragma once\nnamespace std {\ntypedef decltype(sizeof(0)) size_t;\n}\n"},
      {"cstdint",
       "#pragma once\nnamespace std {\ntypedef int int32_t;\ntypedef unsigned int uint32_t;\n"
       "typedef long long int64_t;\ntypedef unsigned long long uint64_t;\n}\n"},
  };
  return headers;
}

}  // namespace geobem::expression

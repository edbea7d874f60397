#pragma once
// GEOBEM_HD marks a point kernel that compiles for the host (g++ or nvcc's
// host pass) and for the device (nvcc's device pass) from one source.
#if defined(__CUDACC__)
#define GEOBEM_HD __host__ __device__
#else
#define GEOBEM_HD
#endif

// GEOBEM_NOINLINE keeps a GEOBEM_HD function out of line where inlining each
// call would copy a large integrand into every call site (and NVRTC's
// compile time with it).
#if defined(__CUDACC__)
#define GEOBEM_NOINLINE __noinline__
#else
#define GEOBEM_NOINLINE __attribute__((noinline))
#endif

#pragma once
// GEOBEM_HD marks a point kernel that compiles for the host (g++ or nvcc's
// host pass) and for the device (nvcc's device pass) from one source.
#if defined(__CUDACC__)
#define GEOBEM_HD __host__ __device__
#else
#define GEOBEM_HD
#endif

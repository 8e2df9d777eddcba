// Mock of what CUDA's headers declare for kernel launches
// (`kernel<<<grid, block, shared, stream>>>(...)`), for ddp-lint's tests of
// CUDA host code (lit's %cuda_host_flags). Clang calls cudaConfigureCall or
// __cudaPushCallConfiguration, by the CUDA version, with the configuration.
#pragma once
#include <stddef.h>

#define __global__ __attribute__((global))
struct dim3 {
  unsigned x, y, z;
  dim3(unsigned X = 1, unsigned Y = 1, unsigned Z = 1) : x(X), y(Y), z(Z) {}
};
typedef struct CUstream_st *cudaStream_t;
extern "C" int cudaMemsetAsync(void *Dev, int Value, size_t Count,
                               cudaStream_t Stream = 0);
extern "C" int cudaConfigureCall(dim3 Grid, dim3 Block, size_t Shared = 0,
                                 cudaStream_t Stream = 0);
extern "C" int __cudaPushCallConfiguration(dim3 Grid, dim3 Block,
                                           size_t Shared = 0,
                                           cudaStream_t Stream = 0);

#pragma once
#include <cassert>
#include <cstdio>
#include <cuda_runtime.h>
#include <mpi.h>
#include <nccl.h>

typedef enum { runOk = 0, runCudaError = 1, runNcclError = 2 } runResult_t;

// Check macros that print and hand an error status to the caller.
#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    cudaError_t e_ = (call);                                                   \
    if (e_ != cudaSuccess) {                                                   \
      std::printf("cuda: %s\n", cudaGetErrorString(e_));                       \
      return runCudaError;                                                     \
    }                                                                          \
  } while (0)
#define CHECK_NCCL(call)                                                       \
  do {                                                                         \
    ncclResult_t r_ = (call);                                                  \
    if (r_ != ncclSuccess)                                                     \
      return runNcclError;                                                     \
  } while (0)

// The rank in the benchmark's communicator is -1 outside it.
struct bench_info {
  MPI_Comm communicator;
  int rank;
};

// helpers.cpp
int deviceOf(int rank);
void syncOn(MPI_Comm comm);

// Mock of the CUDA runtime API for ddp-lint's tests: the calls whose status
// the tests check.
#pragma once
typedef enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorInvalidDevice = 101
} cudaError_t;
#ifdef __cplusplus
extern "C" {
#endif
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
const char *cudaGetErrorString(cudaError_t error);
#ifdef __cplusplus
}
#endif

// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// What GPU model a rank's device is (its compute capability, attributes,
// name) is the same on every rank: a job's GPUs are one model, though each
// rank asks about its own device. From TransformerEngine's distributed
// tests, which skip their setup (and its MPI_Bcast) when the device's
// compute capability is below 9. Twins, reported: where the device sits
// (a cudaDeviceProp's PCI bus id) and the device number itself.

#include <cuda_runtime.h>
#include <mpi.h>

bool capable() {
  int Device;
  cudaGetDevice(&Device);
  int Major = 0;
  cudaDeviceGetAttribute(&Major, cudaDevAttrComputeCapabilityMajor, Device);
  return Major >= 9;
}

void bootstrap(float *Buf, int N) {
  if (!capable())
    return;
  MPI_Bcast(Buf, N, MPI_FLOAT, 0, MPI_COMM_WORLD);
}

void byProperties() {
  int Device;
  cudaGetDevice(&Device);
  cudaDeviceProp Prop;
  cudaGetDeviceProperties(&Prop, Device);
  if (Prop.major < 8 || Prop.multiProcessorCount < 10)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
}

void byBusId() {
  int Device;
  cudaGetDevice(&Device);
  cudaDeviceProp Prop;
  cudaGetDeviceProperties(&Prop, Device);
  if (Prop.pciBusID == 0)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is skipped by ranks that leave early when 'Prop.pciBusID == 0' [ddp-rank-gated-barrier]
}
// LINT: device-properties.cpp:[[@LINE-5]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT-NEXT: the condition depends on the rank: 'pciBusID' is where this rank's device sits, written by 'cudaGetDeviceProperties' at device-properties.cpp:43:3

void byDeviceNumber() {
  int Device;
  cudaGetDevice(&Device);
  if (Device == 0)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is skipped by ranks that leave early when 'Device == 0' [ddp-rank-gated-barrier]
}
// LINT: device-properties.cpp:[[@LINE-5]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT: 2 findings in 1 translation unit

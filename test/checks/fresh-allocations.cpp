// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A new block holds nothing a rank computed: which allocator made it does not
// make what it holds depend on the rank. Found in baidu-allreduce: alloc()
// returns `new float[n]` or a cudaMalloc'ed block by the local rank's device,
// and the test then checks what the ring allreduce wrote into it. Twins,
// reported: a helper whose sides fill the block differently, and one that
// returns one of two existing buffers by the rank.

#include <cuda_runtime.h>
#include <cstdlib>
#include <mpi.h>

int Device; // the local rank, or -1 on the CPU

float *alloc(size_t N) {
  if (Device < 0)
    return new float[N];
  void *Memory;
  if (cudaMalloc(&Memory, sizeof(float) * N) != cudaSuccess)
    std::abort();
  return (float *)Memory;
}

// One step of a ring: what the left neighbour sent, added to this rank's.
float *ringStep(float *In, size_t N) {
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  float *Out = alloc(N);
  MPI_Sendrecv(In, (int)N, MPI_FLOAT, (Rank + 1) % Size, 0, Out, (int)N,
               MPI_FLOAT, (Rank + Size - 1) % Size, 0, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  for (size_t I = 0; I < N; ++I)
    Out[I] += In[I];
  return Out;
}

// Silent: every rank holds 2 in each element, wherever the block lives.
void checkSums(float *In, size_t N) {
  float *Out = ringStep(In, N);
  if (Out[0] != 2.0f)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
}

// Reported: the sides fill their new blocks differently.
float *seeded(size_t N) {
  if (Device < 0) {
    float *Host = new float[N];
    Host[0] = 1.0f;
    return Host;
  }
  float *Other = new float[N];
  Other[0] = 2.0f;
  return Other;
}

void checkSeed(size_t N) {
  float *Seed = seeded(N);
  if (Seed[0] > 1.5f)
    return;
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is skipped by ranks that leave early when 'Seed[0] > 1.5f' [ddp-rank-gated-barrier]
}
// LINT: fresh-allocations.cpp:[[@LINE-5]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Reported: one of two existing buffers, chosen by the rank.
float HostTotals[4], DeviceTotals[4];
float *totals() {
  if (Device < 0)
    return HostTotals;
  return DeviceTotals;
}

void checkTotals() {
  if (totals()[0] > 0.0f)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'totals()[0] > 0.0f' [ddp-rank-gated-barrier]
}
// LINT: fresh-allocations.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

int main(int Argc, char **Argv) {
  const char *Local = std::getenv("OMPI_COMM_WORLD_LOCAL_RANK");
  Device = Local ? std::atoi(Local) : -1;
  MPI_Init(&Argc, &Argv);
  float In[4] = {1, 1, 1, 1};
  checkSums(In, 4);
  checkSeed(4);
  checkTotals();
  MPI_Finalize();
}

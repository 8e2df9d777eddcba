// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags %cuda_host_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags %cuda_host_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A CUDA stream is a queue of work on this process's device: a call given
// one (`cudaMemsetAsync(out, 0, n, stream)`, a kernel launch's configuration
// `<<<grid, block, shared, stream>>>`) writes no data through it. From llm.c:
// each rank sums its own shard on the global `main_stream`, so those calls
// had rank-dependent arguments; the stream became rank-dependent with them,
// and so did every later output of a kernel on it. Twin, reported: a kernel
// given this rank's shard writes a rank-dependent output.

#include <mpi.h>
#include <cuda_kernel_launch.h>

__global__ void sumKernel(float *Out, const float *In, int N) {
  for (int I = 0; I < N; ++I)
    *Out += In[I];
}

cudaStream_t MainStream;

// The host side of a kernel, as llm.c writes them: the stream is a parameter.
void sum(float *Out, const float *In, int N, cudaStream_t Stream) {
  cudaMemsetAsync(Out, 0, sizeof(float), Stream);
  sumKernel<<<(N + 255) / 256, 256, 0, Stream>>>(Out, In, N);
}

void step(float *Shard, const float *Grads, float *Total,
          const float *Weights, int Rank) {
  // This rank's shard: the last one is shorter.
  int Count = Rank == 7 ? 1000 : 1024;
  sum(Shard, Grads + Rank * 1024, Count, MainStream);
  MPI_Allreduce(MPI_IN_PLACE, Shard, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  // The weights are the same on every rank, and so is their sum.
  sum(Total, Weights, 1024, MainStream);
  if (*Total > 1.0f)
    MPI_Barrier(MPI_COMM_WORLD);
}

void twin(float *Local, const float *Grads, int Rank) {
  sum(Local, Grads + Rank * 1024, 1024, MainStream);
  if (*Local > 1.0f)
    MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is reached only by ranks where '*Local > 1.0f' [ddp-rank-gated-barrier]
  // LINT: :[[@LINE-3]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  float *Shard = nullptr, *Total = nullptr, *Local = nullptr;
  const float *Grads = nullptr, *Weights = nullptr;
  step(Shard, Grads, Total, Weights, Rank);
  twin(Local, Grads, Rank);
  MPI_Finalize();
}

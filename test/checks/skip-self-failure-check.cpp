// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A loop over the peers that skips this rank (`if (i == rank) continue;`)
// and checks each peer's setup, ending the job when it fails: the two sides
// of the skip meet again at the loop's increment. The failing call kept the
// increment from post-dominating the skip, so the sides were compared up to
// the end of the function, and the skip was reported as an early exit
// before the barrier after the loop. From mscclpp's tests (a CUDA status
// check that throws after each peer's setup). Twins, reported: rank 0
// skipping the loop's collective, and a rank leaving the loop at its own
// index while the others go on to its barrier.

#include <cstdlib>
#include <cuda_runtime.h>
#include <mpi.h>
#include <stdexcept>

int setUpPeer(int Peer);

#define CUDA_CHECK(Call)                                                       \
  do {                                                                         \
    if ((Call) != cudaSuccess)                                                 \
      throw std::runtime_error(#Call);                                         \
  } while (0)

void exitOnFailure(int Rank, int Size) {
  for (int I = 0; I < Size; ++I) {
    if (I == Rank)
      continue;
    if (setUpPeer(I) != 0)
      exit(1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

void abortOnFailure(int Rank, int Size) {
  for (int I = 0; I < Size; ++I) {
    if (I == Rank)
      continue;
    if (setUpPeer(I) != 0)
      MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

void throwOnFailure(int Rank, int Size, int *Handles, const int *Peers) {
  for (int I = 0; I < Size; ++I) {
    if (I == Rank)
      continue;
    CUDA_CHECK(cudaMemcpy(&Handles[I], &Peers[I], sizeof(int),
                          cudaMemcpyHostToDevice));
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

void rootSkipsReduction(int Rank, int Steps, float *Buf, int N) {
  for (int I = 0; I < Steps; ++I) {
    if (Rank == 0 && I % 10 == 0)
      continue;
    if (setUpPeer(I) != 0)
      exit(1);
    MPI_Allreduce(MPI_IN_PLACE, Buf, N, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'Rank == 0 && I % 10 == 0' [ddp-collective-in-rank-branch]
  }
}
// LINT: skip-self-failure-check.cpp:60:9: warning: ranks can issue different collective sequences [ddp-collective-order]

void leaveAtOwnIndex(int Rank, int Size) {
  for (int I = 0; I < Size; ++I) {
    if (I == Rank)
      break;
    if (setUpPeer(I) != 0)
      exit(1);
    MPI_Barrier(MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is skipped by ranks that leave early when 'I == Rank' [ddp-rank-gated-barrier]
  }
}
// LINT: skip-self-failure-check.cpp:72:9: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT: skip-self-failure-check.cpp:71:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
// LINT: 3 findings in 1 translation unit

// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- -- %mock_flags

// MPI_Barrier and MPI_Ibarrier, with the rank from MPI_Comm_rank.

#include <cstdlib>
#include <mpi.h>

#ifndef MPI_UNDEFINED
#define MPI_UNDEFINED (-32766)
#endif

void writeResults();
int check();

// Rank 0 writes, then waits alone: the barrier moves after the 'if'.
void mpiWriteThenBarrier() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    writeResults();
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    writeResults();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  MPI_Barrier(MPI_COMM_WORLD);{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// A nonblocking barrier only rank 0 starts and waits for; not last, so no fix-it.
void mpiIbarrierOnRoot() {
  int rank;
  MPI_Request req;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Ibarrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}    MPI_Ibarrier(MPI_COMM_WORLD, &req);{{$}}
// CHECK-FIXES-NEXT: {{^}}    MPI_Wait(&req, MPI_STATUS_IGNORE);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// Non-root ranks return before the barrier.
int mpiEarlyReturn() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank > 0)
    return 0;
  writeResults();
  MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'MPI_Barrier' is skipped by ranks that leave early when 'rank > 0' [ddp-rank-gated-barrier]

// Rank r waits in r + 1 barriers.
void mpiLoopToRank() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i <= rank; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i <= rank' depends on the rank [ddp-rank-gated-barrier]

// The rank read from Open MPI's environment variable.
void mpiRankFromEnvironment() {
  int rank = std::atoi(std::getenv("OMPI_COMM_WORLD_RANK"));
  if (rank == 0) {
    writeResults();
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}  int rank = std::atoi(std::getenv("OMPI_COMM_WORLD_RANK"));{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    writeResults();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  MPI_Barrier(MPI_COMM_WORLD);{{$}}

// Negative: rank 0 writes; every rank then meets at the barrier.
void mpiWriteThenBarrierFixed() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    writeResults();
  MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: the world size is the same on every rank.
void mpiBarrierIfSeveralRanks() {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 1)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: point-to-point exchange by rank, then a barrier for everyone.
void mpiSendRecvThenBarrier(int *buf) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Send(buf, 4, MPI_INT, 1, 0, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(buf, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: rank 0 decides, MPI_Bcast shares the decision, all ranks act on it.
void mpiBroadcastDecision() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int stop = rank == 0 ? check() : 0;
  MPI_Bcast(&stop, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (stop)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: the minimum over all ranks (an allreduce) is the same everywhere.
void mpiAllreducedFlag() {
  int rank, anyZero;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int local = rank == 0;
  MPI_Allreduce(&local, &anyZero, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (anyZero)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Negative: both sides reach the barrier.
void mpiBarrierOnBothSides() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    writeResults();
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Negative: all ranks start MPI_Ibarrier, rank 0 writes meanwhile, all ranks wait.
void mpiIbarrierOverlapsWrite() {
  int rank;
  MPI_Request req;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  if (rank == 0)
    writeResults();
  MPI_Wait(&req, MPI_STATUS_IGNORE);
}

// Negative: a barrier on a communicator holding exactly the ranks in the branch; not moved.
void writersOnlyBarrier(int num_writers) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm writers;
  MPI_Comm_split(MPI_COMM_WORLD, rank < num_writers ? 0 : MPI_UNDEFINED, rank,
                 &writers);
  if (rank < num_writers) {
    writeResults();
    MPI_Barrier(writers);
  }
}
// CHECK-FIXES:      {{^}}  if (rank < num_writers) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    writeResults();{{$}}
// CHECK-FIXES-NEXT: {{^}}    MPI_Barrier(writers);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

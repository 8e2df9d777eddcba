// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// An else-if chain whose first side runs what a side of the chain's next
// rank-dependent branch runs: `if (rank == a) X; else if (rank == b) X;`.
// Whatever differs at the first test differs at the second (the ranks that
// are neither a nor b), which reports it; the first reports nothing more.
// Found in intel/mpi-benchmarks' PingPong, whose pair branches both wait in
// the same barriers (its communicator holds only the pair). Twin, reported
// at both tests: a first side that runs something else.

#include <mpi.h>

struct PairInfo {
  int rank, pair0, pair1;
  MPI_Comm communicator;
};

static const int NBarriers = 2;

void pingPong(PairInfo *c, int *buf, int n) {
  int i;
  if (c->rank == c->pair0) {
    for (i = 0; i < NBarriers; i++)
      MPI_Barrier(c->communicator);
    MPI_Send(buf, n, MPI_INT, c->pair1, 1, c->communicator);
    MPI_Recv(buf, n, MPI_INT, c->pair1, 1, c->communicator, MPI_STATUS_IGNORE);
  } else if (c->rank == c->pair1) {
    for (i = 0; i < NBarriers; i++)
      MPI_Barrier(c->communicator);
    MPI_Recv(buf, n, MPI_INT, c->pair0, 1, c->communicator, MPI_STATUS_IGNORE);
    MPI_Send(buf, n, MPI_INT, c->pair0, 1, c->communicator);
  }
}
// CHECK-MESSAGES: :[[@LINE-5]]:7: warning: 'MPI_Barrier' is reached only by ranks where 'c->rank == c->pair1' [ddp-rank-gated-barrier]
// LINT: else-if-chain.cpp:[[@LINE-8]]:14: warning: ranks can issue different collective sequences [ddp-collective-order]

void rootBroadcasts(PairInfo *c, int *value) {
  if (c->rank == c->pair0) {
    MPI_Barrier(c->communicator);
  } else if (c->rank == c->pair1) {
    MPI_Bcast(value, 1, MPI_INT, c->pair0, c->communicator);
  }
}
// CHECK-MESSAGES: :41:5: warning: 'MPI_Barrier' is reached only by ranks where 'c->rank == c->pair0' [ddp-rank-gated-barrier]
// CHECK-MESSAGES: :43:5: warning: 'MPI_Bcast' is reached only by ranks where 'c->rank == c->pair1' [ddp-collective-in-rank-branch]
// LINT-DAG: else-if-chain.cpp:40:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT-DAG: else-if-chain.cpp:42:14: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT: 3 findings in 1 translation unit

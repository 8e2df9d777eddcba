// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A benchmark warms up, then times: in `for (i = 0; i < skip + loop; i++)`
// the test `i == skip` is true in exactly one iteration, so the barrier it
// guards runs once per run of the loop, as the ranks outside the pairs call
// it once (the OSU micro-benchmarks' osu_mbw_mr). Twins, reported: the range
// need not reach the value tested, the body moves the value tested, the test
// is in a loop nested in the counted one, the other ranks skip the barrier.

#include <mpi.h>

#include <cstdio>

int loop = 100, skip = 10;

double bandwidth(int rank, int pairs, char *buf, int size) {
  double t = 0, start = 0;
  int i, target;
  MPI_Request req;
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank < pairs) {
    target = rank + pairs;
    for (i = 0; i < loop + skip; i++) {
      if (i == skip) {
        MPI_Barrier(MPI_COMM_WORLD);
        start = MPI_Wtime();
      }
      MPI_Isend(buf, size, MPI_CHAR, target, 100, MPI_COMM_WORLD, &req);
      MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    t = MPI_Wtime() - start;
  } else if (rank < pairs * 2) {
    target = rank - pairs;
    for (int j = 0; j < skip + loop; ++j) {
      if (skip == j)
        MPI_Barrier(MPI_COMM_WORLD);
      MPI_Recv(buf, size, MPI_CHAR, target, 100, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
    }
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  double sum = 0;
  MPI_Reduce(&t, &sum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  return sum;
}

// The counts in an options struct, as the OSU benchmarks keep them.
struct Options {
  int iterations, skip;
};

void fromOptions(int rank, const Options *opts) {
  if (rank == 0) {
    for (int i = 0; i < opts->iterations + opts->skip; i++)
      if (i == opts->skip)
        MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Twin: the body moves the member tested. (Another struct: a field written
// under a rank test is rank-dependent wherever it is read.)
struct Window {
  int iterations, skip;
};

void optionsMoved(int rank, Window &opts) {
  if (rank == 0) {
    for (int i = 0; i < opts.iterations + opts.skip; i++) {
      if (i == opts.skip)
        MPI_Barrier(MPI_COMM_WORLD);
      opts.skip++;
    }
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-7]]:9: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// LINT: once-per-loop.cpp:[[@LINE-11]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: the range is `loop`, which need not run past `skip`.
void shortRange(int rank, char *buf) {
  if (rank == 0) {
    for (int i = 0; i < loop; i++)
      if (i == skip)
        MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-5]]:9: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// LINT: once-per-loop.cpp:[[@LINE-9]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: the body moves the value tested.
void movingTarget(int rank, int step) {
  int warm = skip;
  if (rank == 0) {
    for (int i = 0; i < warm + loop; i++) {
      if (i == warm)
        MPI_Barrier(MPI_COMM_WORLD);
      warm += step;
    }
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-7]]:9: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// LINT: once-per-loop.cpp:[[@LINE-11]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: the test is in a loop nested in the counted one, so it is true once
// per run of the inner loop.
void nested(int rank, int windows) {
  if (rank == 0) {
    for (int i = 0; i < skip + loop; i++)
      for (int w = 0; w < windows; w++)
        if (i == skip)
          MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-5]]:11: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// LINT: once-per-loop.cpp:[[@LINE-10]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: the ranks outside the pairs do not call the barrier.
void othersSkip(int rank, int pairs, char *buf) {
  if (rank < pairs) {
    for (int i = 0; i < loop + skip; i++) {
      if (i == skip)
        MPI_Barrier(MPI_COMM_WORLD);
      MPI_Send(buf, 1, MPI_CHAR, rank + pairs, 0, MPI_COMM_WORLD);
    }
  }
  MPI_Reduce(MPI_IN_PLACE, buf, 1, MPI_CHAR, MPI_SUM, 0, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-6]]:9: warning: 'MPI_Barrier' is reached only by ranks where 'rank < pairs' [ddp-rank-gated-barrier]
// LINT: once-per-loop.cpp:[[@LINE-10]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Ranks taking turns: p runs over every rank, and each rank takes
// `p == rank` in exactly one iteration. When the loop issues one collective
// on one communicator, every rank issues it the same number of times
// (miniVite's Graph::print: size + 1 barriers each). Twins, reported: the
// turn issues another collective, the loop does not run over every rank,
// the body moves the counter.
void printInTurn(MPI_Comm comm, const char *text) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int p = 0; p < size; p++) {
    MPI_Barrier(comm);
    if (p == rank) {
      std::printf("%d: %s\n", rank, text);
      MPI_Barrier(comm);
    }
  }
}

// Twin: the turn broadcasts, the others are in the next barrier.
void broadcastInTurn(MPI_Comm comm, int *value) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int p = 0; p < size; p++) {
    MPI_Barrier(comm);
    if (rank == p)
      MPI_Bcast(value, 1, MPI_INT, p, comm);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:7: warning: 'MPI_Bcast' is reached only by ranks where 'rank == p' [ddp-collective-in-rank-branch]
// LINT: once-per-loop.cpp:[[@LINE-5]]:9: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: only the first four ranks get a turn.
void firstFour(MPI_Comm comm) {
  int rank;
  MPI_Comm_rank(comm, &rank);
  for (int p = 0; p < 4; p++)
    if (p == rank)
      MPI_Barrier(comm);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'MPI_Barrier' is reached only by ranks where 'p == rank' [ddp-rank-gated-barrier]
// LINT: once-per-loop.cpp:[[@LINE-4]]:9: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: the body skips turns.
void skipTurns(MPI_Comm comm) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  for (int p = 0; p < size; p++) {
    if (p == rank)
      MPI_Barrier(comm);
    p += rank % 2;
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:7: warning: 'MPI_Barrier' is reached only by ranks where 'p == rank' [ddp-rank-gated-barrier]
// LINT: once-per-loop.cpp:[[@LINE-6]]:9: warning: ranks can issue different collective sequences [ddp-collective-order]

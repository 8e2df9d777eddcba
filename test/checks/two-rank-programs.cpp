// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// Ping-pong benchmarks (the OSU micro-benchmarks' osu_latency, osu_bw) need
// exactly two processes and say so: they leave unless the communicator's
// size is 2. After that guard, `rank != 0` means `rank == 1`, so
// `if (rank == 0) {...} else if (rank == 1) {...}` leaves no third way past
// both arms, and arms that issue the same collectives agree. Without the
// guard, or with a guard that allows more ranks, the ranks past 1 skip the
// barriers the two others wait in: still reported.

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

void pingPong(char *buf, int count, int iterations) {
  MPI_Status status;
  for (int i = 0; i < iterations; ++i)
    MPI_Sendrecv_replace(buf, count, MPI_CHAR, 1, 1, 1, 1, MPI_COMM_WORLD,
                         &status);
}

void pongPing(char *buf, int count, int iterations) {
  MPI_Status status;
  for (int i = 0; i < iterations; ++i)
    MPI_Sendrecv_replace(buf, count, MPI_CHAR, 0, 1, 0, 1, MPI_COMM_WORLD,
                         &status);
}

// The guard leaves unless there are exactly two ranks: silent.
int latency(int argc, char **argv) {
  int myid, numprocs;
  char buf[64];
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &numprocs);
  MPI_Comm_rank(MPI_COMM_WORLD, &myid);
  if (numprocs != 2) {
    if (myid == 0)
      std::fprintf(stderr, "This test requires exactly two processes\n");
    MPI_Finalize();
    return EXIT_FAILURE;
  }
  for (int size = 1; size <= 64; size *= 2) {
    if (myid == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      pingPong(buf, size, 100);
    } else if (myid == 1) {
      MPI_Barrier(MPI_COMM_WORLD);
      pongPing(buf, size, 100);
    }
  }
  MPI_Finalize();
  return 0;
}

// The same with the constant first and an abort.
void bandwidth(char *buf) {
  int rank, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (2 != nprocs)
    MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 1) {
    pongPing(buf, 8, 10);
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (rank == 0) {
    pingPong(buf, 8, 10);
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Twin, reported: no guard. With three ranks, rank 2 skips the barrier.
// The helpers' loops issue no collective, so the first arm's barrier is
// matched by the second's; both front ends report the second branch, whose
// barrier rank 2 skips.
void noGuard(char *buf) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    pingPong(buf, 8, 10);
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    pongPing(buf, 8, 10);
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 1' [ddp-rank-gated-barrier]
// LINT: two-rank-programs.cpp:[[@LINE-6]]:14: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin, reported: the guard only asks for at least two ranks.
void atLeastTwo(char *buf) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2)
    MPI_Abort(MPI_COMM_WORLD, 1);
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    pingPong(buf, 8, 10);
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    pongPing(buf, 8, 10);
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 1' [ddp-rank-gated-barrier]
// LINT: two-rank-programs.cpp:[[@LINE-6]]:14: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin, reported: the guard only warns, and the program goes on.
void guardThatWarns(char *buf) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2)
    std::fprintf(stderr, "expected two processes\n");
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    pingPong(buf, 8, 10);
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    pongPing(buf, 8, 10);
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 1' [ddp-rank-gated-barrier]
// LINT: two-rank-programs.cpp:[[@LINE-6]]:14: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin, reported: the size guarded is the world's, the rank is in another
// communicator, which can hold one rank.
void otherCommunicator(char *buf, MPI_Comm sub) {
  int rank, size;
  MPI_Comm_rank(sub, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2)
    return;
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    pingPong(buf, 8, 10);
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    pongPing(buf, 8, 10);
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 1' [ddp-rank-gated-barrier]
// LINT: two-rank-programs.cpp:[[@LINE-6]]:14: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin, reported: the rank is changed after it was read, so it need not be
// 0 or 1 any more.
void rankChanged(char *buf, int shift) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2)
    return;
  rank += shift;
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    pingPong(buf, 8, 10);
  } else if (rank == 1) {
    MPI_Barrier(MPI_COMM_WORLD);
    pongPing(buf, 8, 10);
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 1' [ddp-rank-gated-barrier]
// LINT: two-rank-programs.cpp:[[@LINE-6]]:14: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin, reported: with two ranks, the arms still differ.
void armsDiffer(char *buf) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2)
    return;
  if (rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    pingPong(buf, 8, 10);
  } else if (rank == 1) {
    pongPing(buf, 8, 10);
  }
}
// CHECK-MESSAGES: :[[@LINE-6]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// LINT: two-rank-programs.cpp:[[@LINE-8]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A field or global is what other code reads when it runs: at a call of
// user code, and after the function returns. A value one rank writes and
// then broadcasts before either is the same on every rank wherever it is
// read (mdtest's random seed and buffer offset: rank 0's clock, broadcast).
// Twins, reported: no broadcast, code that reads the value called before the
// broadcast, and a broadcast value the function then offsets by the rank.

#include <mpi.h>

#include <ctime>

int rank;

struct SeedOptions {
  int seed;
};
SeedOptions seeded;

void warmUp() {
  for (int i = 0; i < seeded.seed % 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}

void seedAndWarmUp() {
  if (rank == 0)
    seeded.seed = std::time(nullptr);
  MPI_Bcast(&seeded.seed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  warmUp();
}

// Filled in where the option left it unset, then broadcast: the test reads
// the option, which no rank has changed yet.
struct BufferOptions {
  int offset;
};
BufferOptions buffers;

void useOffset() {
  if (buffers.offset > 100)
    MPI_Barrier(MPI_COMM_WORLD);
}

void fillOffset() {
  if (buffers.offset == -1) {
    buffers.offset = std::time(nullptr);
    MPI_Bcast(&buffers.offset, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  useOffset();
}

// Twin: never broadcast.
struct LocalOptions {
  int seed;
};
LocalOptions unshared;

void warmUpUnshared() {
  for (int i = 0; i < unshared.seed % 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < unshared.seed % 4' depends on data local to each rank [ddp-rank-gated-barrier]
// LINT: globals-published-where-read.cpp:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

void seedUnshared() {
  if (rank == 0)
    unshared.seed = std::time(nullptr);
  warmUpUnshared();
}

// Twin: read by code called before the broadcast.
struct EarlyOptions {
  int seed;
};
EarlyOptions early;

void warmUpEarly() {
  for (int i = 0; i < early.seed % 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < early.seed % 4' depends on data local to each rank [ddp-rank-gated-barrier]
// LINT: globals-published-where-read.cpp:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

void seedLate() {
  if (rank == 0)
    early.seed = std::time(nullptr);
  warmUpEarly();
  MPI_Bcast(&early.seed, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

// Twin: broadcast, then made each rank's own before the function returns.
struct PerRankOptions {
  int seed;
};
PerRankOptions perRank;

void warmUpPerRank() {
  for (int i = 0; i < perRank.seed % 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < perRank.seed % 4' depends on the rank [ddp-rank-gated-barrier]
// LINT: globals-published-where-read.cpp:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

void seedPerRank() {
  if (rank == 0)
    perRank.seed = std::time(nullptr);
  MPI_Bcast(&perRank.seed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  perRank.seed += rank;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  buffers.offset = -1;
  seedAndWarmUp();
  fillOffset();
  seedUnshared();
  seedLate();
  seedPerRank();
  warmUpPerRank();
  MPI_Finalize();
  return 0;
}

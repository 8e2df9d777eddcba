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
// Facts are kept per field, so each case has its own field of the options.

#include <mpi.h>

#include <ctime>

int rank;

struct Options {
  int seed;
  int offset;
  int unsharedSeed;
  int earlySeed;
  int perRankSeed;
};
Options o;

void warmUp() {
  for (int i = 0; i < o.seed % 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}

void seedAndWarmUp() {
  if (rank == 0)
    o.seed = std::time(nullptr);
  MPI_Bcast(&o.seed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  warmUp();
}

// Filled in where the option left it unset, then broadcast: the test reads
// the option, which no rank has changed yet.
void useOffset() {
  if (o.offset > 100)
    MPI_Barrier(MPI_COMM_WORLD);
}

void fillOffset() {
  if (o.offset == -1) {
    o.offset = std::time(nullptr);
    MPI_Bcast(&o.offset, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  useOffset();
}

// Twin: never broadcast.
void warmUpUnshared() {
  for (int i = 0; i < o.unsharedSeed % 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < o.unsharedSeed % 4' depends on data local to each rank [ddp-rank-gated-barrier]
// LINT: globals-published-where-read.cpp:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

void seedUnshared() {
  if (rank == 0)
    o.unsharedSeed = std::time(nullptr);
  warmUpUnshared();
}

// Twin: read by code called before the broadcast.
void warmUpEarly() {
  for (int i = 0; i < o.earlySeed % 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < o.earlySeed % 4' depends on data local to each rank [ddp-rank-gated-barrier]
// LINT: globals-published-where-read.cpp:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

void seedLate() {
  if (rank == 0)
    o.earlySeed = std::time(nullptr);
  warmUpEarly();
  MPI_Bcast(&o.earlySeed, 1, MPI_INT, 0, MPI_COMM_WORLD);
}

// Twin: broadcast, then made each rank's own before the function returns.
void warmUpPerRank() {
  for (int i = 0; i < o.perRankSeed % 4; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < o.perRankSeed % 4' depends on the rank [ddp-rank-gated-barrier]
// LINT: globals-published-where-read.cpp:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

void seedPerRank() {
  if (rank == 0)
    o.perRankSeed = std::time(nullptr);
  MPI_Bcast(&o.perRankSeed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  o.perRankSeed += rank;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  o.offset = -1;
  seedAndWarmUp();
  fillOffset();
  seedUnshared();
  seedLate();
  seedPerRank();
  warmUpPerRank();
  MPI_Finalize();
  return 0;
}

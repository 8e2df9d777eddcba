// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A library function writes what it is given to write to: `fscanf(f, "%d",
// &steps)` or `strncpy(name, ...)` under `if (rank == 0)` leaves the other
// ranks' values as they were, as an assignment there would. Reported: rank
// 0 reads a count and never sends it, so the ranks run different numbers of
// barriers. Silent twins: the count is broadcast after the read; a stream
// written on rank 0 (a log) is no data the ranks' branches read.

#include <cstdio>
#include <cstring>
#include <mpi.h>

static int rank;

void stepsFromFile(const char *path, MPI_Comm comm) {
  int steps = 0;
  if (rank == 0) {
    FILE *f = std::fopen(path, "r");
    if (f) {
      std::fscanf(f, "%d", &steps);
      std::fclose(f);
    }
  }
  for (int i = 0; i < steps; ++i)
    MPI_Barrier(comm);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < steps' depends on the rank [ddp-rank-gated-barrier]
// LINT: library-writes-under-rank.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]

void stepsFromFileShared(const char *path, MPI_Comm comm) {
  int steps = 0;
  if (rank == 0) {
    FILE *f = std::fopen(path, "r");
    if (f) {
      std::fscanf(f, "%d", &steps);
      std::fclose(f);
    }
  }
  MPI_Bcast(&steps, 1, MPI_INT, 0, comm);
  for (int i = 0; i < steps; ++i)
    MPI_Barrier(comm);
}

void runNamed(const char *path, MPI_Comm comm) {
  char name[32] = {0};
  if (rank == 0)
    std::strncpy(name, path, sizeof name - 1);
  if (std::strlen(name) > 0)
    MPI_Barrier(comm);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'std::strlen(name) > 0' [ddp-rank-gated-barrier]
// LINT: library-writes-under-rank.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

void logThenReduce(FILE *log, double *x, MPI_Comm comm) {
  if (rank == 0)
    std::fprintf(log, "reducing\n");
  if (log != nullptr)
    MPI_Allreduce(MPI_IN_PLACE, x, 1, MPI_DOUBLE, MPI_SUM, comm);
}

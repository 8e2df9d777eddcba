// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// Rank 0 reads a count and broadcasts it; the other ranks return what they
// received (hpc/ior's ReadStoneWallingIterations). What the function returns
// is the broadcast value on every rank but on rank 0's failure path (a failed
// fscanf), which ends the run: a loop over the count is the same on every
// rank. Which value each return gives is known only once the whole function
// was seen, so the analysis cannot stop after its first pass although the
// function has no loop. Twin, reported: the count is read on rank 0 and never
// sent.

#include <cstdio>
#include <mpi.h>

static int rank;

long long readCount(const char *name, MPI_Comm comm) {
  long long data;
  if (rank != 0) {
    MPI_Bcast(&data, 1, MPI_LONG_LONG_INT, 0, comm);
    return data;
  }
  FILE *f = fopen(name, "r");
  if (f == NULL) {
    data = -1;
    MPI_Bcast(&data, 1, MPI_LONG_LONG_INT, 0, comm);
    return data;
  }
  if (fscanf(f, "%lld", &data) != 1) {
    fclose(f);
    return -1;
  }
  fclose(f);
  MPI_Bcast(&data, 1, MPI_LONG_LONG_INT, 0, comm);
  return data;
}
// Rank 0 returns on the failed read without the broadcast the others wait in
// (reported: the same as in ior).
// CHECK-MESSAGES: :[[@LINE-19]]:5: warning: 'MPI_Bcast' is reached only by ranks where 'rank != 0' [ddp-collective-in-rank-branch]
// LINT: published-return-past-failure.cpp:[[@LINE-21]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

void createDirs(const char *status, MPI_Comm comm) {
  long long items = readCount(status, comm);
  for (long long i = 0; i < items; ++i)
    MPI_Barrier(comm);
}

long long readCountOnRoot(const char *name) {
  long long data = 0;
  if (rank == 0) {
    FILE *f = fopen(name, "r");
    if (f) {
      if (fscanf(f, "%lld", &data) != 1)
        data = 0;
      fclose(f);
    }
  }
  return data;
}

void createDirsUnshared(const char *status, MPI_Comm comm) {
  long long items = readCountOnRoot(status);
  for (long long i = 0; i < items; ++i)
    MPI_Barrier(comm);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < items' depends on the rank [ddp-rank-gated-barrier]
// LINT: published-return-past-failure.cpp:[[@LINE-4]]:25: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]

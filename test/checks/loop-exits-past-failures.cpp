// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A rank-dependent branch inside a loop that some ranks leave the loop
// through makes the loop run a rank-dependent number of times. A failed
// call's exit is not such a way out: it ends the job. Found in the OSU
// micro-benchmarks, whose MPI_CHECK macro exits when a call fails: in
// `for (size...) { if (rank == 0) { for (i...) MPI_CHECK(fence); } else
// { for (i...) MPI_CHECK(fence); } }`, the exits made every loop's end the
// function's exit, so the inner loops, which lead back to the rank test
// through the outer loop before that end, looked like loops rank 0 leaves
// while the others go on. Twin, reported: a rank that does leave the outer
// loop (`break`).

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

#define MPI_CHECK(stmt)                                                        \
  do {                                                                         \
    int mpi_errno = (stmt);                                                    \
    if (MPI_SUCCESS != mpi_errno) {                                            \
      std::fprintf(stderr, "MPI call failed with %d\n", mpi_errno);           \
      std::exit(EXIT_FAILURE);                                                 \
    }                                                                          \
  } while (0)

// Both arms fence twice per iteration, as many times: silent.
void fenceBandwidth(int rank, MPI_Win win, char *buf, int iterations) {
  for (int size = 1; size <= 1024; size *= 2) {
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
      for (int i = 0; i < iterations; ++i) {
        MPI_CHECK(MPI_Win_fence(0, win));
        MPI_CHECK(MPI_Get(buf, size, MPI_CHAR, 1, 0, size, MPI_CHAR, win));
        MPI_CHECK(MPI_Win_fence(0, win));
      }
    } else {
      for (int i = 0; i < iterations; ++i) {
        MPI_CHECK(MPI_Win_fence(0, win));
        MPI_CHECK(MPI_Win_fence(0, win));
      }
    }
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
  }
}

// Twin, reported: rank 0 leaves the outer loop when its buffer is too
// small, the others go on to the next size's barrier.
void fenceUntilFull(int rank, MPI_Win win, char *buf, int capacity) {
  for (int size = 1; size <= 1024; size *= 2) {
    MPI_CHECK(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) {
      if (size > capacity)
        break;
      MPI_CHECK(MPI_Win_fence(0, win));
      MPI_CHECK(MPI_Get(buf, size, MPI_CHAR, 1, 0, size, MPI_CHAR, win));
      MPI_CHECK(MPI_Win_fence(0, win));
    } else {
      MPI_CHECK(MPI_Win_fence(0, win));
      MPI_CHECK(MPI_Win_fence(0, win));
    }
  }
}
// CHECK-MESSAGES: :[[@LINE-13]]:15: warning: 'MPI_Barrier' is skipped by ranks that leave early when 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-MESSAGES: :[[@LINE-10]]:17: warning: 'MPI_Win_fence' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// CHECK-MESSAGES: :[[@LINE-7]]:17: warning: 'MPI_Win_fence' is called a rank-dependent number of times: the loop condition 'size <= 1024' depends on the rank [ddp-collective-in-rank-branch]
// LINT: loop-exits-past-failures.cpp:[[@LINE-15]]:9: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT: loop-exits-past-failures.cpp:[[@LINE-18]]:22: warning: the number of 'MPI_Win_fence' calls depends on the rank [ddp-rank-dependent-loop]

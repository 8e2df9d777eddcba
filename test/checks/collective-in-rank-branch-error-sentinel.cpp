// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// -1 is the error sentinel of C and POSIX calls, and of many helpers: a
// rank whose call returns it and then throws (or aborts) ends the job, so
// the collective after the test is not skipped by a rank that goes on
// (LLNL/Aluminum's local_exchange_hwloc_bitmaps). The twins return early
// instead, or throw on a value that is no sentinel: reported.

#include <mpi.h>
#include <stdexcept>

int bitmapLength(int localRank); // elsewhere: this node's CPU set

void exchangeBitmaps(int localRank) {
  int len = bitmapLength(localRank);
  if (len == -1)
    throw std::runtime_error("Tried to exchange infinite bitmap");
  int all[64];
  MPI_Allgather(&len, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
}

void exchangeBitmapsOrReturn(int localRank) {
  int len = bitmapLength(localRank);
  if (len == -1)
    return;
  int all[64];
  MPI_Allgather(&len, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'MPI_Allgather' is skipped by ranks that leave early when 'len == -1' [ddp-collective-in-rank-branch]
// LINT: error-sentinel.cpp:[[@LINE-6]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

void exchangeBitmapsIfLong(int localRank) {
  int len = bitmapLength(localRank);
  if (len == 4)
    throw std::runtime_error("a four-word bitmap");
  int all[64];
  MPI_Allgather(&len, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'MPI_Allgather' is skipped by ranks that leave early when 'len == 4' [ddp-collective-in-rank-branch]
// LINT: error-sentinel.cpp:[[@LINE-6]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT: 2 findings in 1 translation unit

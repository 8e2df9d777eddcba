// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A parameter named `rank` is taken to hold the process's rank when its
// value comes from outside the code analysed. When the TU only ever calls
// the function directly, the calls say what it holds: here every rank in
// turn, from a loop over all ranks (horovod's ComputeOutputShapeForRank).
// Twins, reported: the same helper whose address is also taken (a callback
// can be given anything), one called with this process's rank, and one
// that nothing in the TU calls.

#include <mpi.h>

// The share of `total` rows that rank `rank` of `size` receives.
long shareOf(long total, int rank, int size) {
  long base = total / size;
  return rank < total % size ? base + 1 : base;
}

// Every rank computes every rank's share: the sum is the same everywhere.
void resizeShared(long total, long *cached, MPI_Win win) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long sum = 0;
  for (int rank = 0; rank < size; ++rank)
    sum += shareOf(total, rank, size);
  if (sum > *cached) {
    MPI_Win_fence(0, win);
    *cached = sum;
  }
}

// Twin: also handed out as a callback, so some caller may pass the rank.
long callbackShare(long total, int rank, int size) {
  long base = total / size;
  return rank < total % size ? base + 1 : base;
}
long (*const ShareHook)(long, int, int) = callbackShare;

void resizeFromCallback(long total, long *cached, MPI_Win win) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long sum = 0;
  for (int r = 0; r < size; ++r)
    sum += callbackShare(total, r, size);
  if (sum > *cached) {
    MPI_Win_fence(0, win);
    *cached = sum;
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Win_fence' is reached only by ranks where 'sum > *cached' [ddp-collective-in-rank-branch]
// LINT: rank-name-parameter-callers.cpp:[[@LINE-6]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: called with this process's rank.
long ownShare(long total, int rank, int size) {
  long base = total / size;
  return rank < total % size ? base + 1 : base;
}

void resizeOwn(long total, long *cached, MPI_Win win) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long mine = ownShare(total, rank, size);
  if (mine > *cached) {
    MPI_Win_fence(0, win);
    *cached = mine;
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Win_fence' is reached only by ranks where 'mine > *cached' [ddp-collective-in-rank-branch]
// LINT: rank-name-parameter-callers.cpp:[[@LINE-6]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: nothing here calls it; its callers are elsewhere.
void fenceOnFirst(int rank, MPI_Win win) {
  if (rank == 0)
    MPI_Win_fence(0, win);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Win_fence' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// LINT: rank-name-parameter-callers.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

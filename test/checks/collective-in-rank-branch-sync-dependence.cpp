// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Sync dependence at the join. A value assigned under a rank-dependent branch
// differs between ranks only where the sides meet again (the branch's
// immediate post-dominator): inside the branch, the ranks present all took
// the same side. And a value that both sides synchronise after their last
// assignment (each broadcasts it) is the same on every rank after the join.
// Each false positive below has its true-positive twin.

#include <cstdlib>
#include <mpi.h>

void compute(float *buf, int n);

// A loop counter declared at the top of the function (C style), counting to
// the same bound on both sides of the rank test: its loops run the same
// number of times on every rank, and both sides broadcast as often.
void bothSidesLoopSameBound(float *buf, int n, int iters) {
  int rank, i;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    for (i = 0; i < iters; i++) {
      compute(buf, n);
      MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
    }
  } else {
    for (i = 0; i < iters; i++)
      MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
  }
}

// Twin: the root's loop runs once more: the number of broadcasts differs.
void bothSidesLoopRootBound(float *buf, int n, int iters) {
  int rank, i;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    for (i = 0; i < iters + rank; i++) {
      compute(buf, n);
      MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
    }
  } else {
    for (i = 0; i < iters; i++)
      MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
  }
}
// CHECK-MESSAGES: :[[@LINE-7]]:7: warning: 'MPI_Bcast' is called a rank-dependent number of times: the loop condition 'i < iters + rank' depends on the rank [ddp-collective-in-rank-branch]

// The counter of a loop inside the rank branch is used after the join: it
// is rank-dependent there (the sides need not agree on it).
void counterAfterJoin(float *buf, int n, int iters) {
  int rank, i = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    for (i = 0; i < iters; i++)
      compute(buf, n);
  if (i > 0)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'i > 0' [ddp-collective-in-rank-branch]

// Rank 0 parses the size and broadcasts it; the others receive it in the
// same broadcast. After the join every rank holds rank 0's value: the field
// it went into is not rank-dependent, here or anywhere else.
struct Settings {
  int n;
  int iters;
};

void broadcastInBothArms(char **argv, Settings *s) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    s->n = std::atoi(argv[1]);
    MPI_Bcast(&s->n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(&s->n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
}

void useBroadcastSetting(const Settings *s, float *buf) {
  if (s->n > 4)
    MPI_Allreduce(buf, buf, s->n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

// Twin: rank 0 changes the value after broadcasting it.
void changedAfterBroadcast(char **argv, Settings *s) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    s->iters = std::atoi(argv[2]);
    MPI_Bcast(&s->iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
    s->iters += 1;
  } else {
    MPI_Bcast(&s->iters, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
}

void useChangedSetting(const Settings *s, float *buf, int n) {
  if (s->iters > 4)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 's->iters > 4' [ddp-collective-in-rank-branch]

// The same with a local variable.
void broadcastLocalInBothArms(char **argv, float *buf) {
  int rank, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    n = std::atoi(argv[1]);
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  if (n > 4)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

// Twin: only rank 0 assigns and nobody broadcasts.
void assignedOnRootOnly(char **argv, float *buf) {
  int rank, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    n = std::atoi(argv[1]);
  if (n > 4)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'n > 4' [ddp-collective-in-rank-branch]

// An inner loop with a uniform bound, in an outer loop that rank 0 may leave
// early: inside the outer loop every rank present runs the inner loop the
// same number of times; what rank 0 skips are the outer loop's next
// iterations, reported once, at the outer loop.
void innerLoopOfEarlyExitLoop(float *buf, int n, int iters, int stop) {
  int rank, it, j;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (it = 0; it < iters; it++) {
    for (j = 0; j < n; j++)
      compute(buf, j);
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0 && it == stop)
      break;
  }
}
// CHECK-MESSAGES: :[[@LINE-5]]:5: warning: 'MPI_Allreduce' is called a rank-dependent number of times: the loop condition 'it < iters' depends on the rank [ddp-collective-in-rank-branch]

// The same outer loop without the early exit: nothing to report.
void innerLoopOfUniformLoop(float *buf, int n, int iters) {
  int it, j;
  for (it = 0; it < iters; it++) {
    for (j = 0; j < n; j++)
      compute(buf, j);
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  }
}

// Published values (intel/mpi-benchmarks' IMB_init.c): rank 0 reads its
// settings, copies them into a buffer it broadcasts, and goes on testing
// its own variables; the others copy them out of the same broadcast. A value
// copied into a broadcast's buffer before the broadcast is what every rank
// received, and a value copied out of a synchronised buffer is the same on
// every rank that copied it: the tests of them on either side agree.
void readSettings(const char *path, int *lens, int *count);
void useDefaults(int *lens);

void publishedValues(const char *path, int *lens) {
  int rank, count = 0, deflt = 1, info[2];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    readSettings(path, lens, &count);
    if (count > 0)
      deflt = 0;
    info[0] = count;
    info[1] = deflt;
    MPI_Bcast(info, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (count > 0 && !deflt)
      MPI_Bcast(lens, count, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(info, 2, MPI_INT, 0, MPI_COMM_WORLD);
    count = info[0];
    deflt = info[1];
    if (deflt)
      useDefaults(lens);
    else if (count > 0)
      MPI_Bcast(lens, count, MPI_INT, 0, MPI_COMM_WORLD);
  }
  if (count > 0)
    MPI_Allreduce(lens, lens, count, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}

// Twin: rank 0 copies its count into the buffer only after broadcasting it;
// the others test what the buffer held before (a hang when the file sets
// a count).
void publishedTooLate(const char *path, int *lens) {
  int rank, count = 0, info[1] = {0};
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    readSettings(path, lens, &count);
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    info[0] = count;
  } else {
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    count = info[0];
  }
  if (count > 0)
    MPI_Allreduce(lens, lens, count, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'count > 0' [ddp-collective-in-rank-branch]

// Twin: the root changes its count after publishing it.
void changedAfterPublishing(const char *path, int *lens) {
  int rank, count = 0, info[1];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    readSettings(path, lens, &count);
    info[0] = count;
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    count = count - 1;
  } else {
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    count = info[0];
  }
  if (count > 0)
    MPI_Allreduce(lens, lens, count, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'count > 0' [ddp-collective-in-rank-branch]

// Twin: an allreduce is not a broadcast: rank 0 keeps its own count while
// the others take the sum of the ranks' contributions.
void reducedNotPublished(const char *path, int *lens) {
  int rank, count = 0, mine[1] = {1}, total[1];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    readSettings(path, lens, &count);
    total[0] = count;
    MPI_Allreduce(mine, total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  } else {
    MPI_Allreduce(mine, total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    count = total[0];
  }
  if (count > 0)
    MPI_Allreduce(lens, lens, count, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'count > 0' [ddp-collective-in-rank-branch]

// Twin: rank 0 reads its count again between the copy and the broadcast.
void rereadBeforePublishing(const char *path, int *lens) {
  int rank, count = 0, info[1];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    info[0] = count;
    readSettings(path, lens, &count);
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    count = info[0];
  }
  if (count > 0)
    MPI_Allreduce(lens, lens, count, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'count > 0' [ddp-collective-in-rank-branch]

// An assertion on rank 0's side: its failure ends the job (the path goes to
// the function's exit through __assert_fail), so the published field is
// the same on every rank that returns (intel/mpi-benchmarks asserts each
// allocation's length so, in IMB_basic_input).
#include <cassert>

struct Grid {
  int px;
  int py;
};

void publishedWithAssert(Grid *g, char **argv) {
  int rank, all[1];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    g->px = std::atoi(argv[1]);
    assert(g->px > 0);
    all[0] = g->px;
    MPI_Bcast(all, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    g->px = all[0];
  }
}

void usePublishedGrid(const Grid *g, float *buf) {
  if (g->px > 1)
    MPI_Allreduce(buf, buf, g->px, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

// Twin: rank 0 sets the other field after the broadcast, and nobody else
// sets it.
void unpublishedWithAssert(Grid *g, char **argv) {
  int rank, all[1];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    g->px = std::atoi(argv[1]);
    assert(g->px > 0);
    all[0] = g->px;
    MPI_Bcast(all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    g->py = std::atoi(argv[2]);
  } else {
    MPI_Bcast(all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    g->px = all[0];
  }
}

void useUnpublishedGrid(const Grid *g, float *buf) {
  if (g->py > 1)
    MPI_Allreduce(buf, buf, g->py, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'g->py > 1' [ddp-collective-in-rank-branch]

// A value a helper synchronises on every path that returns success, where
// the paths that do not synchronise it return another status, and the
// caller goes on only on success (nccl-tests' writeDeviceReport: the local
// ranks without a GPU return early, the others reduce the memory size with
// MPI_MIN). The early return itself is reported; the caller's loop over
// the size is not. Its twin returns success on both paths.
enum Status { Ok, NotEnoughDevices };
unsigned long deviceMemory(int device);

Status reportDevices(unsigned long *maxMem, int localRank, int devices) {
  if (localRank >= devices)
    return NotEnoughDevices;
  *maxMem = deviceMemory(localRank);
  MPI_Allreduce(MPI_IN_PLACE, maxMem, 1, MPI_UNSIGNED_LONG, MPI_MIN,
                MPI_COMM_WORLD);
  return Ok;
}
// CHECK-MESSAGES: :[[@LINE-4]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'localRank >= devices' [ddp-collective-in-rank-branch]

Status sweepSizes(int localRank, int devices, float *buf) {
  unsigned long maxMem = ~0ul;
  Status S = reportDevices(&maxMem, localRank, devices);
  if (S != Ok)
    return S;
  for (unsigned long Size = 1; Size <= maxMem; Size *= 2)
    MPI_Allreduce(buf, buf, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  return Ok;
}

// Twin: the early return reports success too, so the caller cannot tell.
Status reportDevicesQuietly(unsigned long *maxMem, int localRank,
                            int devices) {
  if (localRank >= devices)
    return Ok;
  *maxMem = deviceMemory(localRank);
  MPI_Allreduce(MPI_IN_PLACE, maxMem, 1, MPI_UNSIGNED_LONG, MPI_MIN,
                MPI_COMM_WORLD);
  return Ok;
}
// CHECK-MESSAGES: :[[@LINE-4]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'localRank >= devices' [ddp-collective-in-rank-branch]

Status sweepSizesQuietly(int localRank, int devices, float *buf) {
  unsigned long maxMem = ~0ul;
  Status S = reportDevicesQuietly(&maxMem, localRank, devices);
  if (S != Ok)
    return S;
  for (unsigned long Size = 1; Size <= maxMem; Size *= 2)
    MPI_Allreduce(buf, buf, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  return Ok;
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is called a rank-dependent number of times: the loop condition 'Size <= maxMem' depends on the rank [ddp-collective-in-rank-branch]

// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch,ddp-rank-gated-barrier %t -- -- %mock_flags

// Context-sensitive facts across functions: what a helper returns or writes
// through its parameters depends on the arguments of each call, not on the
// arguments of its other calls. A branch inside a helper on its parameters
// is reported when some call passes it a rank-dependent argument, with the
// explanation through that call. Every helper here has a call with a
// rank-dependent argument and one without.

#include <c10d/ProcessGroup.hpp>
#include <cstdio>
#include <cstdlib>
#include <mpi.h>
#include <string>

using Tensors = std::vector<at::Tensor>;
void save(const Tensors &t);

// A checked read, filling the caller's buffer.
void readChecked(void *ptr, size_t size, size_t n, FILE *f) {
  if (std::fread(ptr, size, n, f) != n)
    std::abort();
}

// One caller reads into its rank's own slice...
void readShard(float *all, size_t n, FILE *f) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  readChecked(all + rank * n, sizeof(float), n, f);
}

// ...which does not make what another caller reads rank-dependent.
void readHeaderThenReduce(float *buf, FILE *f) {
  int header[2];
  readChecked(header, sizeof(int), 2, f);
  for (int i = 0; i < header[1]; ++i)
    MPI_Allreduce(buf, buf, header[0], MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

// A helper that writes its argument into the caller's variable.
void copyInto(int value, int &out) { out = value; }

void copiedValues(float *buf, int n) {
  int rank, mine, fixed;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  copyInto(rank, mine);
  copyInto(4, fixed);
  if (fixed > 2)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  if (mine > 2)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'mine > 2' [ddp-collective-in-rank-branch]

// A helper whose result is computed from its arguments.
int clampTo(int value, int limit) { return value < limit ? value : limit; }

void clampedCounts(float *buf, int n, int steps) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < clampTo(steps, 10); ++i)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < clampTo(rank, 4); ++i)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is called a rank-dependent number of times: the loop condition 'i < clampTo(rank, 4)' depends on the rank [ddp-collective-in-rank-branch]

// A recursive helper: its result depends on its first argument at every
// depth.
int pickAt(int value, int depth) {
  if (depth == 0)
    return value;
  return pickAt(value, depth - 1);
}

void recursivePick(float *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (pickAt(n, 3) > 1)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  if (pickAt(rank, 3) > 1)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'pickAt(rank, 3) > 1' [ddp-collective-in-rank-branch]

// realloc keeps what the old block held: at each call, what that call's
// block held.
void *grow(void *old, size_t size) { return std::realloc(old, size); }

void grownBlocks(float *buf, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int *ids = static_cast<int *>(std::malloc(sizeof(int)));
  ids[0] = rank;
  ids = static_cast<int *>(grow(ids, 2 * sizeof(int)));
  int *sizes = static_cast<int *>(std::malloc(sizeof(int)));
  sizes[0] = n;
  sizes = static_cast<int *>(grow(sizes, 2 * sizeof(int)));
  if (sizes[0] > 0)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  if (ids[0] > 0)
    MPI_Allreduce(buf, buf, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'ids[0] > 0' [ddp-collective-in-rank-branch]

// A branch inside a helper on its parameter: reported through the call that
// passes the rank, at any depth, and not for the calls that pass a constant.
void syncIfFirst(c10d::ProcessGroup *pg, Tensors &grads, int who) {
  if (who == 0)
    pg->allreduce(grads)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'who == 0' [ddp-collective-in-rank-branch]

void forwardWho(c10d::ProcessGroup *pg, Tensors &grads, int who) {
  syncIfFirst(pg, grads, who);
}

void callsWithConstant(c10d::ProcessGroup *pg, Tensors &grads) {
  syncIfFirst(pg, grads, 0);
  forwardWho(pg, grads, 1);
}

void callsWithRank(c10d::ProcessGroup *pg, Tensors &grads) {
  forwardWho(pg, grads, pg->getRank());
}

// The same helper shape called with constants only: nothing to report.
void syncIfFirstStep(c10d::ProcessGroup *pg, Tensors &grads, int step) {
  if (step == 0)
    pg->allreduce(grads)->wait();
}

void stepsOnly(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int step = 0; step < steps; ++step)
    syncIfFirstStep(pg, grads, step);
}

// getenv through a helper: a rank source exactly where the name passed is a
// rank variable.
int envInt(const char *key, int fallback) {
  const char *v = std::getenv(key);
  return v ? std::atoi(v) : fallback;
}

int envIntOr(const std::string &key, int fallback) {
  return envInt(key.c_str(), fallback);
}

void saveAndBarrier(c10d::ProcessGroup *pg, const Tensors &state) {
  save(state);
  pg->barrier()->wait();
}

void trainFromEnv(c10d::ProcessGroup *pg, Tensors &grads) {
  const int rank = envInt("RANK", 0);
  const int steps = envInt("STEPS", 100);
  for (int step = 0; step < steps; ++step) {
    pg->allreduce(grads)->wait();
    if (rank == 0 && step % 4 == 0)
      saveAndBarrier(pg, grads);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:7: warning: 'barrier' in 'saveAndBarrier' is reached only by ranks where 'rank == 0 && step % 4 == 0' [ddp-rank-gated-barrier]

void trainFromEnvThroughString(c10d::ProcessGroup *pg, Tensors &grads) {
  int local = envIntOr("LOCAL_RANK", 0);
  int every = envIntOr("SAVE_EVERY", 4);
  for (int step = 0; step < 8; ++step)
    if (step % every == 0)
      pg->allreduce(grads)->wait();
  if (local == 0)
    pg->allreduce(grads)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'local == 0' [ddp-collective-in-rank-branch]

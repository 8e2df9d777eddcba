// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// MPI and NCCL collectives (C APIs, compiled as C++), including communicator
// creation, which is a collective too.

#include <cstdlib>
#include <mpi.h>
#include <nccl.h>
#include <vector>

void report(const float *values, int n);

// MPI_Allreduce in the else branch: rank 0 never joins.
void mpiAllreduceOnWorkers(const float *in, float *out, int n) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r == 0)
    report(in, n);
  else
    MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'r == 0' is false [ddp-collective-in-rank-branch]

// Workers return before the reduction to the root.
void mpiReduceAfterReturn(const float *in, float *out, int n) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r > 0)
    return;
  MPI_Reduce(in, out, n, MPI_FLOAT, MPI_SUM, 0, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'MPI_Reduce' is skipped by ranks that leave early when 'r > 0' [ddp-collective-in-rank-branch]

// Rank r calls MPI_Allgather r + 1 times.
void mpiAllgatherLoop(const float *in, float *out, int n) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  for (int i = 0; i <= r; ++i)
    MPI_Allgather(in, n, MPI_FLOAT, out, n, MPI_FLOAT, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Allgather' is called a rank-dependent number of times: the loop condition 'i <= r' depends on the rank [ddp-collective-in-rank-branch]

// Communicator creation is collective: only the first four ranks split.
void mpiSplitOnSomeRanks(MPI_Comm *sub) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r < 4)
    MPI_Comm_split(MPI_COMM_WORLD, 0, r, sub);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Comm_split' is reached only by ranks where 'r < 4' [ddp-collective-in-rank-branch]

// The rank read from Open MPI's environment variable.
void mpiEnvRank(float *buf, int n) {
  int rank = std::atoi(std::getenv("OMPI_COMM_WORLD_RANK"));
  if (rank == 0)
    MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Bcast' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// The rank from a user wrapper around MPI_Comm_rank (pointer out-parameter).
void get_rank(int *out) { MPI_Comm_rank(MPI_COMM_WORLD, out); }
void rankThroughMpiWrapper(float *buf, int n) {
  int me;
  get_rank(&me);
  if (me == 0)
    MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Bcast' is reached only by ranks where 'me == 0' [ddp-collective-in-rank-branch]

// NCCL: the rank from ncclCommUserRank, allreduce on rank 0 only.
void ncclAllReduceOnRoot(ncclComm_t comm, const float *in, float *out,
                         size_t n, cudaStream_t s) {
  int r;
  ncclCommUserRank(comm, &r);
  if (r == 0)
    ncclAllReduce(in, out, n, ncclFloat, ncclSum, comm, s);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'ncclAllReduce' is reached only by ranks where 'r == 0' [ddp-collective-in-rank-branch]

// NCCL communicator creation on some ranks only.
void ncclInitOnSomeRanks(ncclComm_t *comm, ncclUniqueId id, int nranks) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r % 2 == 0)
    ncclCommInitRank(comm, nranks, id, r);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'ncclCommInitRank' is reached only by ranks where 'r % 2 == 0' [ddp-collective-in-rank-branch]

// Rank from MPI, collective from NCCL: a broadcast the root skips.
void ncclBroadcastSkippedByRoot(ncclComm_t comm, float *buf, size_t n,
                                cudaStream_t s) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r == 0)
    return;
  ncclBroadcast(buf, buf, n, ncclFloat, 0, comm, s);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'ncclBroadcast' is skipped by ranks that leave early when 'r == 0' [ddp-collective-in-rank-branch]

// --- Negatives: all silent. ---

// MPI point-to-point on the rank.
void mpiSendRecv(float *buf, int n) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r == 0)
    MPI_Send(buf, n, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
  else if (r == 1)
    MPI_Recv(buf, n, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

// NCCL point-to-point on the rank.
void ncclSendRecv(ncclComm_t comm, float *buf, size_t n, cudaStream_t s) {
  int r;
  ncclCommUserRank(comm, &r);
  ncclGroupStart();
  if (r == 0)
    ncclSend(buf, n, ncclFloat, 1, comm, s);
  else
    ncclRecv(buf, n, ncclFloat, 0, comm, s);
  ncclGroupEnd();
}

// Rank 0 creates the unique id; everyone receives it by MPI_Bcast and
// every rank joins the communicator.
void ncclBootstrap(ncclComm_t *comm) {
  int r, nranks;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  ncclUniqueId id;
  if (r == 0)
    ncclGetUniqueId(&id);
  MPI_Bcast(&id, sizeof(id) / sizeof(int), MPI_INT, 0, MPI_COMM_WORLD);
  ncclCommInitRank(comm, nranks, id, r);
}

// MPI_Barrier under a rank condition belongs to ddp-rank-gated-barrier.
void mpiRankGatedBarrier(const float *buf, int n) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r == 0) {
    report(buf, n);
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

// Every rank splits, with a rank-dependent colour.
void mpiSplitEveryRank(MPI_Comm *sub) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_split(MPI_COMM_WORLD, r % 2, r, sub);
}

// Ranks 0-3 reduce on the sub-communicator that only they belong to.
void subCommunicatorMembers(const float *in, float *out, int n) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, r < 4, r, &sub);
  if (r < 4)
    MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, sub);
}

// A loop bound that was reduced with MPI_MAX: the same on every rank.
void mpiLoopOverReducedCount(const float *in, float *out, int n) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int local = r + 1, rounds = 0;
  MPI_Allreduce(&local, &rounds, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  for (int i = 0; i < rounds; ++i)
    MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

// A guard on the communicator size is uniform.
void mpiSizeGuard(const float *in, float *out, int n) {
  int nprocs;
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (nprocs > 1)
    MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

// rank < nprocs holds on every rank.
void mpiRankBelowSize(const float *in, float *out, int n) {
  int r, nprocs;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (r < nprocs)
    MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

// Rank 0 reads the epoch count, broadcasts it, then every rank loops on it.
int readEpochs();
void mpiConfigBroadcastThenLoop(const float *in, float *out, int n) {
  int r, epochs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r == 0)
    epochs = readEpochs();
  MPI_Bcast(&epochs, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int e = 0; e < epochs; ++e)
    MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

// A loop between the early exit and the collective: the way around the loop
// is not a way past the allreduce.
double sumAfterLoop(const std::vector<double> &local, bool empty) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0 && empty)
    return 0.0;
  double mine = 0, total = 0;
  for (double r : local)
    mine += r;
  MPI_Allreduce(&mine, &total, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  return total;
}
// CHECK-MESSAGES: :[[@LINE-3]]:3: warning: 'MPI_Allreduce' is skipped by ranks that leave early when 'rank != 0 && empty' [ddp-collective-in-rank-branch]

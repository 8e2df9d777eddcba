// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A training framework's own ProcessGroup class (not c10d's): each rank
// looks up the handle of the data-parallel group it is in, by its rank. The
// handle names this rank's group, and a collective on it needs that group's
// members only, so it is the same group on every rank, as c10d's are: what
// is built next to it (a bucket plan) does not become rank-dependent.
// Twins, reported: the plan's bucket count taken from the rank, and a
// handle of a class that is not a process group.

#include <mpi.h>

namespace fw {
class ProcessGroup {
public:
  explicit ProcessGroup(MPI_Comm Comm) : Comm(Comm) {}
  void AllReduce(float *X, int N) const {
    MPI_Allreduce(MPI_IN_PLACE, X, N, MPI_FLOAT, MPI_SUM, Comm);
  }

private:
  MPI_Comm Comm;
};
// The group of data-parallel replicas that global rank `Rank` is in.
const ProcessGroup *dataParallelGroup(int Rank);

// Not a process group: this rank's shard of the data.
class Shard {
public:
  int rows() const;
};
const Shard *shardOf(int Rank);
} // namespace fw

struct Plan {
  const fw::ProcessGroup *Group;
  int Buckets;
};
Plan makePlan(const fw::ProcessGroup *Group, int Buckets);

void syncBuckets(float *Grads, int Buckets) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Plan P = makePlan(fw::dataParallelGroup(Rank), Buckets);
  for (int B = 0; B < P.Buckets; ++B)
    P.Group->AllReduce(Grads + B, 1);
}

// Twin: the bucket count is the rank's own.
void syncRankBuckets(float *Grads) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Plan P = makePlan(fw::dataParallelGroup(Rank), Rank % 2 + 1);
  for (int B = 0; B < P.Buckets; ++B)
    P.Group->AllReduce(Grads + B, 1);
}
// CHECK-MESSAGES: :[[@LINE-2]]:14: warning: 'MPI_Allreduce' in 'AllReduce' is called a rank-dependent number of times: the loop condition 'B < P.Buckets' depends on the rank [ddp-collective-in-rank-branch]
// LINT: process-group-handles.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Allreduce' calls depends on the rank [ddp-rank-dependent-loop]

// Twin: this rank's shard is not a group; its size differs between ranks.
void syncShardRows(float *Grads, const fw::ProcessGroup *World) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  const fw::Shard *S = fw::shardOf(Rank);
  for (int B = 0; B < S->rows(); ++B)
    World->AllReduce(Grads + B, 1);
}
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: 'MPI_Allreduce' in 'AllReduce' is called a rank-dependent number of times: the loop condition 'B < S->rows()' depends on the rank [ddp-collective-in-rank-branch]
// LINT: process-group-handles.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Allreduce' calls depends on the rank [ddp-rank-dependent-loop]

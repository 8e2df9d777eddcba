// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Conditions, orders and scopes: which ranks really reach a collective.

#include <c10d/ProcessGroup.hpp>
#include <stdexcept>

using Tensors = std::vector<at::Tensor>;
int localBatches(int rank);
int myRank(c10d::ProcessGroup *pg) { return pg->getRank(); }

// The last rank only: world_size - 1 is a rank like any other.
void lastRankOnly(c10d::ProcessGroup *pg, Tensors &t) {
  int rank = pg->getRank();
  int world_size = pg->getSize();
  if (rank == world_size - 1)
    pg->allreduce(t);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'rank == world_size - 1' [ddp-collective-in-rank-branch]

// Silent: every rank is at most world_size - 1.
void atMostLast(c10d::ProcessGroup *pg, Tensors &t) {
  int rank = pg->getRank();
  int world_size = pg->getSize();
  if (rank <= world_size - 1)
    pg->allreduce(t);
}

// Silent: a helper that returns the rank, compared with the world size.
void helperRankBelowSize(c10d::ProcessGroup *pg, Tensors &t) {
  int world_size = pg->getSize();
  if (myRank(pg) < world_size)
    pg->allreduce(t);
}

// A function of the rank is not the rank: rank >= 0 says nothing about it.
void functionOfRank(c10d::ProcessGroup *pg, Tensors &t) {
  if (localBatches(pg->getRank()) >= 0)
    pg->allreduce(t);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'localBatches(pg->getRank()) >= 0' [ddp-collective-in-rank-branch]

// The same collectives in another order: rank 0 reduces while the others
// wait in the barrier.
void sameCollectivesOtherOrder(c10d::ProcessGroup *pg, Tensors &t) {
  if (pg->getRank() == 0) {
    pg->allreduce(t);
    pg->barrier()->wait();
  } else {
    pg->barrier()->wait();
    pg->allreduce(t);
  }
}
// CHECK-MESSAGES: :[[@LINE-7]]:9: warning: 'allreduce' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// A && in a loop condition: the message names the whole condition.
void loopWhileNotRoot(c10d::ProcessGroup *pg, Tensors &t, int n) {
  int rank = pg->getRank();
  for (int i = 0; i < n && rank != 0; ++i)
    pg->allreduce(t);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is called a rank-dependent number of times: the loop condition 'i < n && rank != 0' depends on the rank [ddp-collective-in-rank-branch]

// An || early exit (its notes: collective-in-rank-branch-notes.cpp).
void returnUnlessRootQuiet(c10d::ProcessGroup *pg, Tensors &t, bool verbose) {
  int rank = pg->getRank();
  if (rank != 0 || verbose)
    return;
  pg->allreduce(t);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'rank != 0 || verbose' [ddp-collective-in-rank-branch]

// A guard whose destructor reduces runs on every rank at the return as well:
// what differs is the broadcast only rank 0 reaches.
struct SyncOnExit {
  c10d::ProcessGroup *pg;
  Tensors &grads;
  ~SyncOnExit() { pg->allreduce(grads); }
};
void guardThenEarlyReturn(c10d::ProcessGroup *pg, Tensors &grads) {
  SyncOnExit guard{pg, grads};
  if (pg->getRank() != 0)
    return;
  pg->broadcast(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'broadcast' is reached only by ranks where 'pg->getRank() != 0' is false [ddp-collective-in-rank-branch]

// Silent: union-find ranks and a LoRA adapter's rank are not process ranks.
struct Node {
  int parent;
  int rank;
};
void unionByRank(c10d::ProcessGroup *pg, Tensors &t, Node &a, Node &b) {
  if (a.rank < b.rank)
    pg->allreduce(t);
}
struct LoraAdapter {
  int rank_;
  int size_;
  void apply(c10d::ProcessGroup *pg, Tensors &t) {
    if (rank_ > 4)
      pg->allreduce(t);
  }
};

// Silent: an error check that throws is a failure, not a way past the
// barrier.
void throwOnFailedCollective(c10d::ProcessGroup *pg, Tensors &t) {
  if (pg->getRank() == 0) {
    if (!pg->allreduce(t)->wait())
      throw std::runtime_error("allreduce failed");
  } else {
    pg->allreduce(t)->wait();
  }
  pg->allreduce(t);
}

// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// c10d collectives that only some ranks reach: branches, early exits, loops,
// switches and conditional expressions on the rank. Warnings only; the note
// chains are checked in collective-in-rank-branch-notes.cpp.

#include <c10d/ProcessGroup.hpp>
#include <cstdlib>
#include <stdexcept>

using Tensors = std::vector<at::Tensor>;
void logLine(const char *msg);
bool shardExists(int shard);

// allreduce issued by rank 0 only.
void allreduceOnRoot(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// broadcast of the parameters from rank 0, but only rank 0 calls it.
void broadcastOnRoot(c10d::ProcessGroup *pg, Tensors &params) {
  int rank = pg->getRank();
  if (rank == 0) {
    c10d::BroadcastOptions opts;
    pg->broadcast(params, opts);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'broadcast' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// allgather on the ranks above zero only.
void allgatherOnWorkers(c10d::ProcessGroup *pg,
                        std::vector<Tensors> &out, Tensors &in) {
  if (pg->getRank() > 0)
    pg->allgather(out, in);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allgather' is reached only by ranks where 'pg->getRank() > 0' [ddp-collective-in-rank-branch]

// reduce_scatter on the even ranks only.
void reduceScatterOnEven(c10d::ProcessGroup *pg, Tensors &out,
                         std::vector<Tensors> &in) {
  int rank = pg->getRank();
  if (rank % 2 == 0)
    pg->reduce_scatter(out, in);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'reduce_scatter' is reached only by ranks where 'rank % 2 == 0' [ddp-collective-in-rank-branch]

// alltoall_base on one rank only.
void alltoallOnOne(c10d::ProcessGroup *pg, at::Tensor &out, at::Tensor &in,
                   std::vector<int64_t> &outSplits,
                   std::vector<int64_t> &inSplits) {
  int rank = pg->getRank();
  if (rank == 1)
    pg->alltoall_base(out, in, outSplits, inSplits);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'alltoall_base' is reached only by ranks where 'rank == 1' [ddp-collective-in-rank-branch]

// _allgather_base on rank 0 only, through a derived process group.
void allgatherBaseOnRoot(c10d::ProcessGroupGloo *gloo, at::Tensor &out,
                         at::Tensor &in) {
  int rank = gloo->getRank();
  if (rank == 0)
    gloo->_allgather_base(out, in);
}
// CHECK-MESSAGES: :[[@LINE-2]]:11: warning: '_allgather_base' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// The collective is in the else branch: every rank but 0 calls it.
void allreduceOnWorkers(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0)
    logLine("rank 0 does not reduce");
  else
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'rank == 0' is false [ddp-collective-in-rank-branch]

// Ranks other than 0 return before the allreduce.
void earlyReturn(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank != 0)
    return;
  pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'rank != 0' [ddp-collective-in-rank-branch]

// Odd ranks skip the allreduce of every step with `continue`.
void continueOnOdd(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  int rank = pg->getRank();
  for (int s = 0; s < steps; ++s) {
    if (rank % 2 == 1)
      continue;
    pg->allreduce(grads);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'allreduce' is skipped by ranks that leave early when 'rank % 2 == 1' [ddp-collective-in-rank-branch]

// Rank 0 leaves the loop with `break`; the others keep reducing.
void breakOnRoot(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  int rank = pg->getRank();
  for (int s = 0; s < steps; ++s) {
    if (rank == 0)
      break;
    pg->allreduce(grads);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'allreduce' is skipped by ranks that leave early when 'rank == 0' [ddp-collective-in-rank-branch]

// Ranks whose shard is missing throw before the allreduce.
void throwOnMissingShard(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (!shardExists(rank))
    throw std::runtime_error("missing shard");
  pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when '!shardExists(rank)' [ddp-collective-in-rank-branch]

// Ranks 4 and up exit the process before the broadcast.
void exitOnHighRanks(c10d::ProcessGroup *pg, Tensors &params) {
  int rank = pg->getRank();
  if (rank >= 4)
    std::exit(0);
  pg->broadcast(params);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'broadcast' is skipped by ranks that leave early when 'rank >= 4' [ddp-collective-in-rank-branch]

// The workers exit cleanly through a [[noreturn]] wrapper of std::exit(0).
[[noreturn]] void leaveCleanly() { std::exit(0); }
void noreturnOnWorkers(c10d::ProcessGroup *pg, Tensors &grads) {
  if (pg->getRank() != 0)
    leaveCleanly();
  pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'pg->getRank() != 0' [ddp-collective-in-rank-branch]

// Rank r calls allreduce r times.
void loopBoundIsRank(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  for (int i = 0; i < rank; ++i)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is called a rank-dependent number of times: the loop condition 'i < rank' depends on the rank [ddp-collective-in-rank-branch]

// A while loop counting down from the rank.
void whileOnRank(c10d::ProcessGroup *pg, Tensors &params) {
  int pending = pg->getRank() + 1;
  while (pending > 0) {
    pg->broadcast(params);
    --pending;
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:9: warning: 'broadcast' is called a rank-dependent number of times: the loop condition 'pending > 0' depends on the rank [ddp-collective-in-rank-branch]

// A switch on the rank where only case 0 reduces.
void switchOnRank(c10d::ProcessGroup *pg, Tensors &grads) {
  switch (pg->getRank()) {
  case 0:
    pg->allreduce(grads);
    break;
  default:
    logLine("not reducing");
    break;
  }
}
// CHECK-MESSAGES: :[[@LINE-7]]:9: warning: 'allreduce' is reached only by ranks that take this case of the switch on 'pg->getRank()' [ddp-collective-in-rank-branch]

// A conditional expression: only rank 0 starts the allreduce.
void ternaryOnRank(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  auto work = rank == 0 ? pg->allreduce(grads) : c10::intrusive_ptr<c10d::Work>();
  work->wait();
}
// CHECK-MESSAGES: :[[@LINE-3]]:31: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// Rank 0 reduces, the others broadcast: mismatched collectives.
void differentCollectives(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0)
    pg->allreduce(grads);
  else
    pg->broadcast(grads);
}
// CHECK-MESSAGES: :[[@LINE-4]]:9: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// Both sides reduce, but rank 0 also broadcasts afterwards.
void extraCollectiveOnRoot(c10d::ProcessGroup *pg, Tensors &grads,
                           Tensors &params) {
  int rank = pg->getRank();
  if (rank == 0) {
    pg->allreduce(grads);
    pg->broadcast(params);
  } else {
    pg->allreduce(grads);
  }
}
// CHECK-MESSAGES: :[[@LINE-5]]:9: warning: 'broadcast' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// Same collectives in a different order on the two sides.
void swappedOrder(c10d::ProcessGroup *pg, Tensors &grads, Tensors &params) {
  int rank = pg->getRank();
  if (rank == 0) {
    pg->allreduce(grads);
    pg->broadcast(params);
  } else {
    pg->broadcast(params);
    pg->allreduce(grads);
  }
}
// CHECK-MESSAGES: :[[@LINE-7]]:9: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// A nested rank condition inside a uniform one.
void nestedInUniform(c10d::ProcessGroup *pg, Tensors &grads, bool syncNow) {
  int rank = pg->getRank();
  if (syncNow) {
    if (rank < 2)
      pg->allreduce(grads);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:11: warning: 'allreduce' is reached only by ranks where 'rank < 2' [ddp-collective-in-rank-branch]

// The rank compared with a root passed in: only the root reduces.
void onlyTheRoot(c10d::ProcessGroup *pg, Tensors &grads, int root) {
  if (pg->getRank() == root)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'pg->getRank() == root' [ddp-collective-in-rank-branch]

// A range-for over a rank-dependent list of buckets.
std::vector<int> bucketsFor(int rank);
void rangeForOverRankShards(c10d::ProcessGroup *pg, Tensors &grads) {
  for (int b : bucketsFor(pg->getRank()))
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is called a rank-dependent number of times: {{.*}}'bucketsFor(pg->getRank())'{{.*}} [ddp-collective-in-rank-branch]

// Ranks 0 and 1 reduce; the message names the whole condition.
void orOfRankTests(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0 || rank == 1)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'rank == 0 || rank == 1' [ddp-collective-in-rank-branch]

// Ranks other than 0 and 1 leave early; the message names the whole condition.
void andOfRankTestsEarlyExit(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank != 0 && rank != 1)
    return;
  pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'rank != 0 && rank != 1' [ddp-collective-in-rank-branch]

// Rank 0 waits in a barrier, then broadcasts: each check reports its own
// collective.
void barrierBeforeBroadcast(c10d::ProcessGroup *pg, Tensors &params) {
  if (pg->getRank() == 0) {
    pg->barrier()->wait();
    pg->broadcast(params);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'broadcast' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]


// Rank 0 always throws, whatever it logs first: an early exit.
void throwAfterInnerIf(c10d::ProcessGroup *pg, Tensors &grads, bool verbose) {
  int rank = pg->getRank();
  if (rank == 0) {
    if (verbose)
      pg->getSize();
    throw 1;
  }
  pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'rank == 0' [ddp-collective-in-rank-branch]

// Silent: a throw under an error check on rank 0 is a failure (the job
// fails), not the rank test deciding to leave.
void throwOnErrorOnRoot(c10d::ProcessGroup *pg, Tensors &grads, bool bad) {
  int rank = pg->getRank();
  if (rank == 0 && bad)
    throw 1;
  pg->allreduce(grads);
}

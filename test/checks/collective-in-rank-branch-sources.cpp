// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Where a rank comes from: environment variables, fields, globals and
// parameters named like a rank, values derived from the rank, and values
// that stop being rank-dependent (a constant, a collective's result).

#include <c10d/ProcessGroup.hpp>
#include <cstdlib>
#include <string>

using Tensors = std::vector<at::Tensor>;
void logLine(const char *msg);
at::Tensor localLoss(int rank);

// The local rank from torchrun's LOCAL_RANK.
void localRankEnv(c10d::ProcessGroup *pg, Tensors &grads) {
  int local = std::atoi(std::getenv("LOCAL_RANK"));
  if (local == 0)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'local == 0' [ddp-collective-in-rank-branch]

// RANK parsed with std::stoi through a std::string.
void stoiRankEnv(c10d::ProcessGroup *pg, Tensors &params) {
  std::string env = std::getenv("RANK");
  if (std::stoi(env) != 0)
    return;
  pg->broadcast(params);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'broadcast' is skipped by ranks that leave early when 'std::stoi(env) != 0' [ddp-collective-in-rank-branch]

// A field (name unlike a rank) assigned in the constructor body.
class ShardedSaver {
public:
  explicit ShardedSaver(c10d::ProcessGroup *pg) : pg_(pg) {
    shard_ = pg->getRank();
  }
  void flush(Tensors &grads) {
    if (shard_ != 0)
      return;
    pg_->allreduce(grads);
  }

private:
  c10d::ProcessGroup *pg_;
  int shard_ = 0;
};
// CHECK-MESSAGES: :[[@LINE-7]]:10: warning: 'allreduce' is skipped by ranks that leave early when 'shard_ != 0' [ddp-collective-in-rank-branch]

// A global named like a rank, set elsewhere.
extern int my_rank;
void globalRankName(c10d::ProcessGroup *pg, Tensors &grads) {
  if (my_rank == 0)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'my_rank == 0' [ddp-collective-in-rank-branch]

// A parameter named like a leader flag.
void isMasterParam(c10d::ProcessGroup *pg, Tensors &grads, bool is_master) {
  if (!is_master)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where '!is_master' [ddp-collective-in-rank-branch]

// The rank stored in a member of a local struct.
struct Placement {
  int node;
  int slot;
};
void rankInLocalStruct(c10d::ProcessGroup *pg, Tensors &grads) {
  Placement where;
  where.slot = pg->getRank();
  if (where.slot == 0)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'where.slot == 0' [ddp-collective-in-rank-branch]

// A node index computed from the rank.
void nodeFromRank(c10d::ProcessGroup *pg, Tensors &grads) {
  int node = pg->getRank() / 8;
  if (node == 0)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'node == 0' [ddp-collective-in-rank-branch]

// Early stopping on a loss that was NOT reduced: each rank stops on its own.
void earlyStopOnLocalLoss(c10d::ProcessGroup *pg, Tensors &grads,
                          int epochs) {
  int rank = pg->getRank();
  for (int e = 0; e < epochs; ++e) {
    Tensors v{localLoss(rank)};
    if (v[0].item<float>() < 0.1f)
      break;
    pg->allreduce(grads);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'allreduce' is skipped by ranks that leave early when 'v[0].item<float>() < 0.1f' [ddp-collective-in-rank-branch]

// A do-while loop whose trip count depends on the rank.
void doWhileOnRank(c10d::ProcessGroup *pg, Tensors &grads) {
  int left = pg->getRank();
  do {
    pg->allreduce(grads);
  } while (--left > 0);
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'allreduce' is called a rank-dependent number of times: the loop condition '--left > 0' depends on the rank [ddp-collective-in-rank-branch]

// Rank 0 reduces once more than the others.
void oneMoreOnRoot(c10d::ProcessGroup *pg, Tensors &grads) {
  if (pg->getRank() == 0)
    pg->allreduce(grads);
  pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'allreduce' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// --- Negatives: all silent. ---

// The rank overwritten by a constant before the test.
void rankOverwritten(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  logLine("start");
  rank = 0;
  if (rank == 0)
    pg->allreduce(grads);
}

// A parameter whose name merely contains "rank" is not a rank.
void rankCountParam(c10d::ProcessGroup *pg, Tensors &grads, int rank_count) {
  if (rank_count > 1)
    pg->allreduce(grads);
}

// A convergence loop driven by an allreduced value.
void convergenceLoop(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  bool done = false;
  while (!done) {
    Tensors v{localLoss(rank)};
    pg->allreduce(v)->wait();
    done = v[0].item<float>() < 0.1f;
    pg->allreduce(grads);
  }
}

// Rank 0 decides to stop, then broadcasts the decision before testing it.
void broadcastStopFlag(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  Tensors stop{torch::tensor(rank == 0 ? 1.0 : 0.0)};
  pg->broadcast(stop)->wait();
  if (stop[0].item<float>() > 0)
    return;
  pg->allreduce(grads);
}

// Both sides reduce exactly once; rank 0 returns right after its own.
void returnAfterSameCollective(c10d::ProcessGroup *pg, Tensors &grads) {
  if (pg->getRank() == 0) {
    pg->allreduce(grads);
    return;
  }
  pg->allreduce(grads);
}

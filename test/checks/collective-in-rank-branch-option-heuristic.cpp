// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- --config="{CheckOptions: {ddp-collective-in-rank-branch.RankNameHeuristic: false}}" -- %mock_flags

// With RankNameHeuristic off, parameters, fields and globals named like a
// rank are no longer taken to hold the rank; values that come from a rank
// source are still tracked. (The harness passes --config={} first; this later
// --config wins.) Without the option each of the silent cases below warns:
// see notesRankParam in collective-in-rank-branch-notes.cpp and
// globalRankName / isMasterParam in collective-in-rank-branch-sources.cpp.

#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

// Silent: a parameter named `rank` is just an int now.
void paramNamedRank(c10d::ProcessGroup *pg, Tensors &grads, int rank) {
  if (rank == 0)
    pg->allreduce(grads);
}

// Silent: a field named `rank_` set outside this file.
struct Worker {
  c10d::ProcessGroup *pg;
  int rank_;
  void step(Tensors &grads) {
    if (rank_ != 0)
      return;
    pg->allreduce(grads);
  }
};

// Silent: a global named like a rank.
extern int my_rank;
void globalNamedRank(c10d::ProcessGroup *pg, Tensors &grads) {
  if (my_rank == 0)
    pg->broadcast(grads);
}

// Silent: a parameter named like a leader flag.
void isMasterParam(c10d::ProcessGroup *pg, Tensors &grads, bool is_master) {
  if (is_master)
    pg->allreduce(grads);
}

// Still reported: the rank comes from getRank(), not from a name.
void rankFromGetRank(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

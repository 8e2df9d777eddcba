// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- \
// RUN:   --config="{CheckOptions: {RankSources: 'Cluster::whoAmI;cluster_rank@0', Collectives: 'Cluster::sum'}}" \
// RUN:   -- %mock_flags

// Rank dependence through lambda captures, and rank sources and collectives
// configured as global options (read by both checks).

#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

// The captured rank decides, inside the lambda, whether to reduce.
void lambdaCapturesRank(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  auto maybeSync = [&]() {
    if (rank == 0)
      pg->allreduce(grads);
  };
  maybeSync();
}
// CHECK-MESSAGES: :[[@LINE-4]]:11: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// Captured by value: the same.
void lambdaCapturesRankByValue(c10d::ProcessGroup *pg, Tensors &grads) {
  int who = pg->getRank();
  auto step = [=, &grads]() {
    if (who != 0)
      return;
    pg->allreduce(grads);
  };
  step();
}
// CHECK-MESSAGES: :[[@LINE-4]]:9: warning: 'allreduce' is skipped by ranks that leave early when 'who != 0' [ddp-collective-in-rank-branch]

// A user's communication layer, described by options.
struct Cluster {
  int whoAmI() const;
  void sum(Tensors &t);
};
void cluster_rank(int *out);

void configuredSource(Cluster &c, Tensors &t) {
  if (c.whoAmI() == 0)
    c.sum(t);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'sum' is reached only by ranks where 'c.whoAmI() == 0' [ddp-collective-in-rank-branch]

void configuredOutParameterSource(Cluster &c, Tensors &t) {
  int me;
  cluster_rank(&me);
  if (me != 0)
    c.sum(t);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'sum' is reached only by ranks where 'me != 0' [ddp-collective-in-rank-branch]

// Silent: a captured uniform value; the configured collective everywhere.
void lambdaCapturesWorldSize(c10d::ProcessGroup *pg, Cluster &c, Tensors &t) {
  int world_size = pg->getSize();
  auto sync = [&]() {
    if (world_size > 1)
      c.sum(t);
  };
  sync();
}

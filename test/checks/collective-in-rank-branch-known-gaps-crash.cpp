// XFAIL: *
// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Known crash of ddp-collective-in-rank-branch, kept apart from
// collective-in-rank-branch-known-gaps.cpp because a crash hides every
// diagnostic of its file.

#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

// FIXME(analysis): segmentation fault (plugin and ddp-clang-tidy alike) in
// RankDivergenceCheckBase::explain. The origin note "'local_rank' is set from
// 'pg->getRank() % 8' here" is passed to diag() as the format string, so the
// '%' of the quoted source is read as a format directive. Any origin whose
// source text contains '%' crashes, and `local_rank = rank % gpus_per_node`
// is an everyday line.
void localRankModulo(c10d::ProcessGroup *pg, Tensors &grads) {
  int local_rank = pg->getRank() % 8;
  if (local_rank == 0)
    pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'local_rank == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:20: note: 'local_rank' is set from 'pg->getRank() % 8' here

// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Origin notes quote source code; a '%' in it (rank % gpus_per_node) must
// be printed as text, not read as a diagnostic format directive (this once
// crashed both the plugin and ddp-clang-tidy).

#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

void localRankModulo(c10d::ProcessGroup *pg, Tensors &grads) {
  int local_rank = pg->getRank() % 8;
  if (local_rank == 0)
    pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'local_rank == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:20: note: 'local_rank' is set from 'pg->getRank() % 8' here

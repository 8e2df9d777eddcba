// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// This file creates a c10d::Reducer, which arms gradient synchronisation:
// every backward() then allreduces the gradients, so it is a collective.
// The unarmed twin is collective-in-rank-branch-backward-unarmed.cpp.

#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;
using PG = c10::intrusive_ptr<c10d::ProcessGroup>;
void logLine(const char *msg);

// Only rank 0 runs backward, which allreduces under the Reducer.
void backwardOnRoot(const PG &pg, const Tensors &params,
                    const at::Tensor &loss) {
  c10d::Reducer reducer(params, pg, /*find_unused_parameters=*/false);
  reducer.prepare_for_backward({loss});
  int rank = pg->getRank();
  if (rank == 0)
    loss.backward();
}
// CHECK-NOTES: :[[@LINE-2]]:10: warning: 'backward' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-5]]:10: note: gradient synchronisation is armed in this file (a c10d::Reducer, a DDP-like wrapper or a gradient hook that communicates), so 'backward' is a collective

// The workers return before torch::autograd::backward.
void autogradBackwardAfterReturn(const PG &pg, const at::Tensor &loss) {
  if (pg->getRank() != 0)
    return;
  torch::autograd::backward({loss});
}
// CHECK-NOTES: :[[@LINE-2]]:3: warning: 'backward' is skipped by ranks that leave early when 'pg->getRank() != 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:7: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-6]]:5: note: ranks where 'pg->getRank() != 0' leave here (return) and never reach 'backward'
// CHECK-NOTES: :[[@LINE-6]]:3: note: gradient synchronisation is armed in this file (a c10d::Reducer, a DDP-like wrapper or a gradient hook that communicates), so 'backward' is a collective

// Negative: every rank runs backward; only rank 0 logs.
void backwardOnEveryRank(const PG &pg, const at::Tensor &loss) {
  if (pg->getRank() == 0)
    logLine("loss computed");
  loss.backward();
}

// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- \
// RUN:   --config="{CheckOptions: {RankLocalData: false}}" -- %mock_flags

// With RankLocalData off, values from tensors are not rank-dependent: the
// NaN skip and the early stop of collective-in-rank-branch-local-data.cpp
// are not reported (and a rank test still is).

#include <c10d/ProcessGroup.hpp>
#include <cmath>

using Tensors = std::vector<at::Tensor>;
at::Tensor computeLoss(int step);

void skipNaNLocally(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int step = 0; step < steps; ++step) {
    at::Tensor loss = computeLoss(step);
    if (std::isnan(loss.item<float>()))
      continue;
    pg->allreduce(grads);
  }
}

void stopOnLocalLoss(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int step = 0; step < steps; ++step) {
    if (computeLoss(step).item<float>() < 0.01f)
      break;
    pg->allreduce(grads);
  }
}

void stillARankTest(c10d::ProcessGroup *pg, Tensors &grads) {
  if (pg->getRank() == 0)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

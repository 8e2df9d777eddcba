// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Values this rank computed from its own data (loss.item()) differ between
// ranks unless the tensor went through a collective: a NaN seen by one rank,
// or early stopping on one rank's loss, skips collectives the others enter.
// collective-in-rank-branch-local-data-off.cpp: the same with the option
// RankLocalData off.

#include <c10d/ProcessGroup.hpp>
#include <cmath>

using Tensors = std::vector<at::Tensor>;
at::Tensor computeLoss(int step);

// Rank 3 sees a NaN and skips the step; the others wait in the allreduce.
void skipNaNLocally(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int step = 0; step < steps; ++step) {
    at::Tensor loss = computeLoss(step);
    if (std::isnan(loss.item<float>()))
      continue;
    pg->allreduce(grads);
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'allreduce' is skipped by ranks that leave early when 'std::isnan(loss.item<float>())' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:9: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-7]]:20: note: 'loss.item<float>()' is computed from this rank's own data
// CHECK-NOTES: :[[@LINE-7]]:7: note: ranks where 'std::isnan(loss.item<float>())' leave here (continue) and never reach 'allreduce'

// Early stopping on the local loss: ranks stop after different numbers of
// steps.
void stopOnLocalLoss(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int step = 0; step < steps; ++step) {
    if (computeLoss(step).item<float>() < 0.01f)
      break;
    pg->allreduce(grads);
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'allreduce' is skipped by ranks that leave early when 'computeLoss(step).item<float>() < 0.01f' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:9: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-7]]:9: note: 'computeLoss(step).item<float>()' is computed from this rank's own data
// CHECK-NOTES: :[[@LINE-7]]:7: note: ranks where 'computeLoss(step).item<float>() < 0.01f' leave here (break) and never reach 'allreduce'

// Silent: the skip is decided on an allreduced flag, the same everywhere.
void skipNaNTogether(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int step = 0; step < steps; ++step) {
    at::Tensor loss = computeLoss(step);
    Tensors flag{loss.isnan()};
    pg->allreduce(flag, c10d::AllreduceOptions{c10d::ReduceOp::MAX})->wait();
    if (flag[0].item<float>() > 0)
      continue;
    pg->allreduce(grads);
  }
}

// Silent: the tensor itself was reduced (its handle shares the storage of
// the buffer that went through the allreduce).
void stopOnReducedLoss(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int step = 0; step < steps; ++step) {
    at::Tensor loss = computeLoss(step);
    Tensors buffer{loss};
    pg->allreduce(buffer)->wait();
    if (loss.item<float>() < 0.01f)
      break;
    pg->allreduce(grads);
  }
}

// Silent: a local value that decides no collective.
void logLocalLoss(c10d::ProcessGroup *pg, Tensors &grads, int step) {
  float value = computeLoss(step).item<float>();
  if (value > 10.f)
    value = 10.f;
  pg->allreduce(grads);
}

// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// A DDP-like wrapper in the file arms gradient synchronisation: backward()
// is then a collective, except while a no-sync guard lives or the sync flag
// is off. (collective-in-rank-branch-backward-unarmed.cpp: a file without.)

#include <c10d/ProcessGroup.hpp>
#include <dist/DistributedDataParallel.h>

#include <cmath>
#include <cstdio>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;

// Only rank 0 runs backward through the wrapper: the others never join the
// gradient allreduce.
void backwardOnRoot(const PG &pg, dist::DistributedDataParallel &model,
                    at::Tensor x) {
  at::Tensor loss = model(x);
  if (pg->getRank() == 0)
    loss.backward();
}
// CHECK-NOTES: :[[@LINE-2]]:10: warning: 'backward' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:7: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-5]]:10: note: gradient synchronisation is armed in this file (a c10d::Reducer, a DDP-like wrapper or a gradient hook that communicates), so 'backward' is a collective

// A local NaN test skips the synchronising backward on one rank.
void skipBackwardOnNaN(dist::DistributedDataParallel &model, at::Tensor x) {
  at::Tensor loss = model(x);
  if (std::isnan(loss.item<float>()))
    return;
  loss.backward();
}
// CHECK-NOTES: :[[@LINE-2]]:8: warning: 'backward' is skipped by ranks that leave early when 'std::isnan(loss.item<float>())' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-6]]:18: note: 'loss.item<float>()' is computed from this rank's own data
// CHECK-NOTES: :[[@LINE-6]]:5: note: ranks where 'std::isnan(loss.item<float>())' leave here (return) and never reach 'backward'
// CHECK-NOTES: :[[@LINE-6]]:8: note: gradient synchronisation is armed in this file (a c10d::Reducer, a DDP-like wrapper or a gradient hook that communicates), so 'backward' is a collective

// Silent: under the wrapper's no-sync guard, backward only accumulates.
void localBackwardUnderGuard(const PG &pg,
                             dist::DistributedDataParallel &model,
                             at::Tensor x) {
  auto guard = model->no_sync();
  at::Tensor loss = model(x);
  if (pg->getRank() == 0)
    loss.backward();
}

// Silent: synchronisation turned off by the flag.
void localBackwardFlagOff(const PG &pg, dist::DistributedDataParallel &model,
                          at::Tensor x) {
  model->require_backward_grad_sync = false;
  at::Tensor loss = model(x);
  if (pg->getRank() == 0)
    loss.backward();
}

// Silent: every rank runs backward.
void backwardEverywhere(const PG &pg, dist::DistributedDataParallel &model,
                        at::Tensor x) {
  at::Tensor loss = model(x);
  if (pg->getRank() == 0)
    std::printf("step\n");
  loss.backward();
}

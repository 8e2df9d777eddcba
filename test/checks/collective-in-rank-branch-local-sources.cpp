// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Values each rank computes on its own differ between ranks: a non-finite
// loss, a clock, a file on the rank's own disk, a random device, the process
// id. A skip or a loop bound on one bypasses collectives on some ranks only.
// Once the value went through a collective it is the same everywhere.
// collective-in-rank-branch-local-sources-off.test: the same file with
// RankLocalData off reports nothing.

#include <c10d/ProcessGroup.hpp>

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <random>
#include <unistd.h>

using Tensors = std::vector<at::Tensor>;
at::Tensor computeLoss(int step);
namespace at {
bool equal(const Tensor &a, const Tensor &b);
} // namespace at

// The example: rank 3 sees an infinite loss and skips the gradient
// allreduce; the others wait for it.
void skipNonFiniteLocally(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int step = 0; step < steps; ++step) {
    at::Tensor loss = computeLoss(step);
    if (!std::isfinite(loss.item<float>()))
      continue;
    pg->allreduce(grads)->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'allreduce' is skipped by ranks that leave early when '!std::isfinite(loss.item<float>())' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:9: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-7]]:24: note: 'loss.item<float>()' is computed from this rank's own data
// CHECK-NOTES: :[[@LINE-7]]:7: note: ranks where '!std::isfinite(loss.item<float>())' leave here (continue) and never reach 'allreduce'

// The fix: agree on the skip first. The flag is allreduced (MAX), so every
// rank reads the same value and skips together.
void skipNonFiniteTogether(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int step = 0; step < steps; ++step) {
    at::Tensor loss = computeLoss(step);
    Tensors flag{at::ones({1})};
    pg->allreduce(flag, c10d::AllreduceOptions{c10d::ReduceOp::MAX})->wait();
    if (flag[0].item<float>() > 0)
      continue;
    pg->allreduce(grads)->wait();
  }
}

// A value read into a variable first: the note names where it comes from.
void stopOnLocalLossVariable(c10d::ProcessGroup *pg, Tensors &grads) {
  for (int step = 0;; ++step) {
    float loss = computeLoss(step).item<float>();
    if (loss < 0.01f)
      break;
    pg->allreduce(grads)->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'allreduce' is reached only by ranks where 'loss < 0.01f' is false [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:9: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-8]]:18: note: 'loss' is set from 'computeLoss(step).item<float>()' here
// CHECK-NOTES: :[[@LINE-9]]:18: note: 'computeLoss(step).item<float>()' is computed from this rank's own data

// is_nonzero() reads the tensor's value too.
void skipOnNonzero(c10d::ProcessGroup *pg, Tensors &grads, at::Tensor mask) {
  if (mask.isnan().is_nonzero())
    return;
  pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'mask.isnan().is_nonzero()' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-6]]:7: note: 'mask.isnan().is_nonzero()' is computed from this rank's own data
// CHECK-NOTES: :[[@LINE-6]]:5: note: ranks where 'mask.isnan().is_nonzero()' leave here (return) and never reach 'allreduce'

// A time budget: each rank's clock ends its loop after a different number
// of steps.
void trainForOneHour(c10d::ProcessGroup *pg, Tensors &grads) {
  auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::hours(1))
    pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called a rank-dependent number of times: the loop condition 'std::chrono::steady_clock::now() - start < st...' depends on data local to each rank [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:10: note: this loop condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-5]]:10: note: 'std::chrono::steady_clock::now()' reads this rank's clock

// A periodic sync decided by each rank's own wall clock.
void syncEveryMinute(c10d::ProcessGroup *pg, Tensors &stats, time_t &last) {
  time_t now = time(nullptr);
  if (now - last >= 60) {
    pg->allreduce(stats)->wait();
    last = now;
  }
}
// CHECK-NOTES: :[[@LINE-4]]:9: warning: 'allreduce' is reached only by ranks where 'now - last >= 60' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-8]]:16: note: 'now' is set from 'time(nullptr)' here
// CHECK-NOTES: :[[@LINE-9]]:16: note: 'time(nullptr)' reads this rank's clock

// A stop file on the rank's own disk.
void stopOnFile(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  for (int step = 0; step < steps; ++step) {
    if (std::filesystem::exists("/tmp/stop-training"))
      break;
    pg->allreduce(grads)->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'allreduce' is skipped by ranks that leave early when 'std::filesystem::exists("/tmp/stop-training")' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:9: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-7]]:9: note: 'std::filesystem::exists("/tmp/stop-training")' looks at this rank's file system
// CHECK-NOTES: :[[@LINE-7]]:7: note: ranks where 'std::filesystem::exists("/tmp/stop-training")' leave here (break) and never reach 'allreduce'

// Resuming from a checkpoint only where the file is there.
void resumeWhereFound(c10d::ProcessGroup *pg, Tensors &weights) {
  if (access("ckpt.pt", R_OK) == 0)
    pg->broadcast(weights)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'broadcast' is reached only by ranks where 'access("ckpt.pt", R_OK) == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-5]]:7: note: 'access("ckpt.pt", R_OK)' looks at this rank's file system

// Random skips from an unseeded random device.
void dropStepsAtRandom(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  std::random_device device;
  std::mt19937 gen(device());
  std::bernoulli_distribution skip(0.1);
  for (int step = 0; step < steps; ++step) {
    if (skip(gen))
      continue;
    pg->allreduce(grads)->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'allreduce' is skipped by ranks that leave early when 'skip(gen)' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:9: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-10]]:16: note: 'gen' is set from 'gen(device())' here
// CHECK-NOTES: :[[@LINE-12]]:22: note: 'device' draws random numbers on this rank
// CHECK-NOTES: :[[@LINE-8]]:7: note: ranks where 'skip(gen)' leave here (continue) and never reach 'allreduce'

// The process id differs between ranks.
void syncOnEvenPid(c10d::ProcessGroup *pg, Tensors &grads) {
  if (getpid() % 2 == 0)
    pg->allreduce(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'getpid() % 2 == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:7: note: 'getpid()' is this process's id, different on every rank

//===----------------------------------------------------------------------===//
// Silent.
//===----------------------------------------------------------------------===//

// Rank 0 logs its own loss; no collective depends on it.
void logLocalLoss(c10d::ProcessGroup *pg, Tensors &grads, int step) {
  float loss = computeLoss(step).item<float>();
  if (pg->getRank() == 0 && !std::isfinite(loss))
    std::cerr << "non-finite loss at step " << step << "\n";
  pg->allreduce(grads)->wait();
}

// A clock used only for logging.
void timeTheStep(c10d::ProcessGroup *pg, Tensors &grads) {
  auto start = std::chrono::steady_clock::now();
  pg->allreduce(grads)->wait();
  auto took = std::chrono::steady_clock::now() - start;
  if (took > std::chrono::seconds(10))
    std::cerr << "slow allreduce\n";
}

// A time budget agreed on: rank 0's decision is broadcast.
void trainForOneHourTogether(c10d::ProcessGroup *pg, Tensors &grads) {
  auto start = std::chrono::steady_clock::now();
  for (;;) {
    Tensors stop{at::zeros({1})};
    if (std::chrono::steady_clock::now() - start > std::chrono::hours(1))
      stop[0] = at::ones({1});
    pg->broadcast(stop)->wait();
    if (stop[0].item<int>() != 0)
      break;
    pg->allreduce(grads)->wait();
  }
}

// Comparing tensors that went through the same allreduce.
void compareReduced(c10d::ProcessGroup *pg, Tensors &a, Tensors &grads) {
  pg->allreduce(a)->wait();
  if (at::equal(a[0], a[0]))
    pg->allreduce(grads)->wait();
}

// A seeded generator draws the same numbers on every rank.
void dropStepsWithSharedSeed(c10d::ProcessGroup *pg, Tensors &grads,
                             int steps) {
  std::mt19937 gen(1234);
  std::bernoulli_distribution skip(0.1);
  for (int step = 0; step < steps; ++step) {
    if (skip(gen))
      continue;
    pg->allreduce(grads)->wait();
  }
}

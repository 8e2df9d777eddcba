// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// A test that does not depend on the rank has the same outcome on every rank
// that evaluates it. Sides of a rank-dependent branch that both contain it
// are compared for each outcome, not for the union of them: a loop over the
// parameters may run zero times, but it runs on every rank or on none.

#include <c10d/ProcessGroup.hpp>
#include <torch/nn.h>

#include <memory>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;
using Net = std::shared_ptr<torch::nn::Module>;
void evaluate(int step);
void log(int step);
constexpr int kEvalEvery = 5;

// The example: every fifth step rank 0 evaluates and skips the
// gradient averaging that the other ranks do.
void evaluateOnRoot(PG pg, Net net, int steps) {
  int rank = pg->getRank();
  for (int step = 0; step < steps; ++step) {
    if (rank == 0 && step % kEvalEvery == 0) {
      evaluate(step);
      continue;
    }
    for (auto &p : net->parameters()) {
      std::vector<at::Tensor> g{p};
      pg->allreduce(g)->wait();
    }
  }
}
// CHECK-NOTES: :[[@LINE-4]]:11: warning: 'allreduce' is skipped by ranks that leave early when 'rank == 0 && step % kEvalEvery == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-11]]:9: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-14]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-11]]:7: note: ranks where 'rank == 0 && step % kEvalEvery == 0' leave here (continue) and never reach 'allreduce'
// CHECK-NOTES: :[[@LINE-10]]:20: note: 'net->parameters()' is the same on every rank; when it is not empty, the ranks issue different collectives

// The same through a helper: its loop is the same decision on both sides.
void averageGradients(PG &pg, Net &net) {
  for (auto &p : net->parameters()) {
    std::vector<at::Tensor> g{p};
    pg->allreduce(g)->wait();
  }
}

void evaluateOnRootHelper(PG pg, Net net, int steps) {
  int rank = pg->getRank();
  for (int step = 0; step < steps; ++step) {
    if (rank == 0 && step % kEvalEvery == 0) {
      evaluate(step);
      continue;
    }
    averageGradients(pg, net);
  }
}
// CHECK-NOTES: :[[@LINE-3]]:5: warning: 'allreduce' in 'averageGradients' is skipped by ranks that leave early when 'rank == 0 && step % kEvalEvery == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-8]]:9: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-11]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-8]]:7: note: ranks where 'rank == 0 && step % kEvalEvery == 0' leave here (continue) and never reach 'allreduce'
// CHECK-NOTES: :[[@LINE-18]]:5: note: 'averageGradients' calls 'allreduce' here
// CHECK-NOTES: :[[@LINE-21]]:18: note: 'net->parameters()' is the same on every rank; when it is not empty, the ranks issue different collectives

// A uniform `if`: when metrics are synchronised this step, a rank 0 in a
// light step issues nothing and the others allreduce.
void lightStepOnRoot(PG pg, std::vector<at::Tensor> &metrics, bool light,
                     bool syncMetrics) {
  int rank = pg->getRank();
  if (rank == 0 && light)
    return;
  if (syncMetrics)
    pg->allreduce(metrics)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is skipped by ranks that leave early when 'rank == 0 && light' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-7]]:5: note: ranks where 'rank == 0 && light' leave here (return) and never reach 'allreduce'
// CHECK-NOTES: :[[@LINE-7]]:7: note: 'syncMetrics' is the same on every rank; when it is true, the ranks issue different collectives

// Silent: rank 0 averages the gradients too before it leaves; both loops go
// over the same range, so they run the same number of times.
void evaluateAfterAveraging(PG pg, Net net, int steps) {
  int rank = pg->getRank();
  for (int step = 0; step < steps; ++step) {
    if (rank == 0 && step % kEvalEvery == 0) {
      for (auto &p : net->parameters()) {
        std::vector<at::Tensor> g{p};
        pg->allreduce(g)->wait();
      }
      evaluate(step);
      continue;
    }
    for (auto &p : net->parameters()) {
      std::vector<at::Tensor> g{p};
      pg->allreduce(g)->wait();
    }
  }
}

// Silent: the evaluation does not skip the averaging.
void evaluateWithoutSkipping(PG pg, Net net, int steps) {
  int rank = pg->getRank();
  for (int step = 0; step < steps; ++step) {
    if (rank == 0 && step % kEvalEvery == 0)
      evaluate(step);
    averageGradients(pg, net);
  }
}

// Silent: the same uniform test with the same collective on both sides.
void sameUniformTestOnBothSides(PG pg, std::vector<at::Tensor> &metrics,
                                bool syncMetrics) {
  int rank = pg->getRank();
  if (rank == 0) {
    log(0);
    if (syncMetrics)
      pg->allreduce(metrics)->wait();
  } else {
    if (syncMetrics)
      pg->allreduce(metrics)->wait();
  }
}

// Silent: rank 0 leaves only when the list is empty, and then the loop over
// it runs zero times on every rank.
void skipWhenNothingPending(PG pg, std::vector<at::Tensor> &pending,
                            int steps) {
  int rank = pg->getRank();
  for (int step = 0; step < steps; ++step) {
    if (rank == 0 && pending.empty())
      continue;
    for (auto &t : pending) {
      std::vector<at::Tensor> one{t};
      pg->allreduce(one)->wait();
    }
  }
}

// Silent: the same through `size() == 0`, and a negated test.
void skipWhenSizeZero(PG pg, std::vector<at::Tensor> &pending, bool busy) {
  int rank = pg->getRank();
  if (rank != 0 && (pending.size() == 0 || !busy))
    return;
  if (busy)
    for (auto &t : pending) {
      std::vector<at::Tensor> one{t};
      pg->allreduce(one)->wait();
    }
}

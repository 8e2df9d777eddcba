// A tensor filled with, or scaled by, a rank-dependent value has the same
// shape on every rank: its size, dimensions, type and whether it is defined
// are uniform, its values are not. Found in distributed LibTorch code that
// fills each rank's tensor with `rank + 1` before an allreduce. Twins,
// reported: a shape from the rank (`arange(rank)`, `narrow(0, 0, rank)`),
// shapes that come from values (`nonzero`, `masked_select`), and a value
// read from the tensor.
// REQUIRES: libtorch
// Once per test command: the LLVM 19 and sanitizer runs analyse the real
// headers in real-libtorch-training.cpp.
// UNSUPPORTED: sanitizers, llvm-19
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %torch_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %torch_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

#include <torch/torch.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>

#include <vector>

using Group = c10::intrusive_ptr<c10d::ProcessGroup>;

static void allreduce(const Group &pg, at::Tensor t) {
  std::vector<at::Tensor> ts = {t};
  pg->allreduce(ts)->wait();
}

// Silent: only the values depend on the rank.
void filled(const Group &pg) {
  int rank = pg->getRank();
  auto t = torch::full({4}, rank + 1.0);
  if (t.numel() > 0)
    allreduce(pg, t);
  for (int64_t i = 0; i < t.size(0); ++i)
    allreduce(pg, t);
  auto u = torch::ones({8}) * rank;
  if (u.defined() && u.dim() == 1 && u.scalar_type() == at::kFloat)
    pg->barrier()->wait();
  std::vector<double> values(4, 1.0);
  auto v = (torch::tensor(values) * rank + 1).sum();
  if (v.numel() == 1)
    pg->barrier()->wait();
}

// Reported: the shape comes from the rank.
void shapedByRank(const Group &pg) {
  int rank = pg->getRank();
  auto r = torch::arange(rank + 1);
  for (int64_t i = 0; i < r.numel(); ++i)
    pg->barrier()->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'barrier' is called a rank-dependent number of times: the loop condition 'i < r.numel()' depends on the rank [ddp-rank-gated-barrier]
  // LINT-DAG: tensor-values-and-shape.cpp:[[@LINE-3]]:23: warning: the number of 'barrier' calls depends on the rank [ddp-rank-dependent-loop]
  auto t = torch::full({4}, rank + 1.0);
  auto part = t.narrow(0, 0, rank);
  if (part.numel() > 0)
    pg->barrier()->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'barrier' is reached only by ranks where 'part.numel() > 0' [ddp-rank-gated-barrier]
  // LINT-DAG: tensor-values-and-shape.cpp:[[@LINE-3]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
}

// Reported: the shape comes from the values.
void shapedByValues(const Group &pg) {
  int rank = pg->getRank();
  auto t = torch::full({4}, rank + 1.0);
  auto nz = torch::nonzero(t > 2);
  if (nz.size(0) > 0)
    pg->barrier()->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'barrier' is reached only by ranks where 'nz.size(0) > 0' [ddp-rank-gated-barrier]
  // LINT-DAG: tensor-values-and-shape.cpp:[[@LINE-3]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
  auto sel = torch::masked_select(t, t > 2);
  if (sel.numel() > 0)
    pg->barrier()->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'barrier' is reached only by ranks where 'sel.numel() > 0' [ddp-rank-gated-barrier]
  // LINT-DAG: tensor-values-and-shape.cpp:[[@LINE-3]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
}

// Reported: a value read from the tensor.
void readValue(const Group &pg) {
  int rank = pg->getRank();
  auto sum = (torch::ones({4}) * rank).sum();
  if (sum.item<double>() > 3)
    pg->barrier()->wait();
  // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: 'barrier' is reached only by ranks where 'sum.item<double>() > 3' [ddp-rank-gated-barrier]
  // LINT-DAG: tensor-values-and-shape.cpp:[[@LINE-3]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
}

// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// A list of tensors filtered by what each rank holds: a parameter that this
// rank's forward pass did not use has no gradient, so the list of defined
// gradients has another length on that rank. An empty list that skips the
// collective is an early exit; a list of another length makes the ranks
// exchange tensors that do not match.

#include <c10d/ProcessGroup.hpp>
#include <torch/nn.h>

using PG = c10::intrusive_ptr<c10d::ProcessGroup>;
using Tensors = std::vector<at::Tensor>;

// The example: both at once.
void syncUsedGradients(PG pg, Tensors &params) {
  Tensors grads;
  for (auto &p : params)
    if (p.grad().defined())
      grads.push_back(p.grad());
  if (grads.empty())
    return;
  pg->allreduce_coalesced(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:7: warning: 'allreduce_coalesced' is skipped by ranks that leave early when 'grads.empty()' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-7]]:7: note: 'grads' is assigned under a rank-dependent condition here
// CHECK-NOTES: :[[@LINE-9]]:9: note: 'p.grad().defined()' depends on which parameters this rank's forward pass used
// CHECK-NOTES: :[[@LINE-7]]:5: note: ranks where 'grads.empty()' leave here (return) and never reach 'allreduce_coalesced'
// CHECK-NOTES: :[[@LINE-10]]:7: note: 'grads' changes length here only on ranks where 'p.grad().defined()'
// CHECK-NOTES: :[[@LINE-8]]:7: note: a parameter that this rank's forward pass did not use has no gradient: give every parameter one on every rank (zeros where it is undefined), as DistributedDataParallel does with find_unused_parameters, so that every rank passes the same list

// Without the test for an empty list: the lengths alone.
void syncDefinedGradients(PG pg, Tensors &params) {
  Tensors grads;
  for (auto &p : params) {
    const at::Tensor &g = p.grad();
    if (!g.defined())
      continue;
    grads.push_back(g);
  }
  pg->allreduce_coalesced(grads)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:7: warning: 'allreduce_coalesced' can get a different number of tensors on each rank: 'grads' changes length under a condition that depends on data local to each rank [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-7]]:9: note: this condition depends on data local to each rank
// CHECK-NOTES: :[[@LINE-8]]:10: note: 'g.defined()' depends on which parameters this rank's forward pass used
// CHECK-NOTES: :[[@LINE-7]]:5: note: 'grads' changes length here only on ranks where '!g.defined()'
// CHECK-NOTES: :[[@LINE-6]]:7: note: a parameter that this rank's forward pass did not use has no gradient: give every parameter one on every rank (zeros where it is undefined), as DistributedDataParallel does with find_unused_parameters, so that every rank passes the same list

// Any list filled under a rank test.
void gatherNames(PG pg, Tensors &extra, at::Tensor mine) {
  Tensors parts{mine};
  if (pg->getRank() == 0)
    parts.push_back(extra[0]);
  std::vector<Tensors> out(1);
  pg->allgather(out, parts)->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:7: warning: 'allgather' can get a different number of tensors on each rank: 'parts' changes length under a condition that depends on the rank [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-7]]:7: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-7]]:5: note: 'parts' changes length here only on ranks where 'pg->getRank() == 0'
// CHECK-NOTES: :[[@LINE-6]]:7: note: fill 'parts' the same way on every rank, or agree on its length (an allreduce of it) before the collective

// Silent: a zero gradient for a parameter that has none, so every rank
// passes every parameter.
void syncAllGradients(PG pg, Tensors &params) {
  Tensors grads;
  for (auto &p : params)
    grads.push_back(p.grad().defined() ? p.grad() : at::zeros_like(p));
  pg->allreduce_coalesced(grads)->wait();
}

void syncAllGradientsFilled(PG pg, Tensors &params) {
  Tensors grads;
  for (auto &p : params) {
    if (!p.grad().defined())
      p.mutable_grad() = at::zeros_like(p);
    grads.push_back(p.grad());
  }
  pg->allreduce_coalesced(grads)->wait();
}

// Silent: both sides of the test add one tensor.
void oneEachWay(PG pg, Tensors &params) {
  Tensors grads;
  for (auto &p : params) {
    if (p.grad().defined())
      grads.push_back(p.grad());
    else
      grads.push_back(at::zeros_like(p));
  }
  pg->allreduce_coalesced(grads)->wait();
}

// Silent: `defined()` of a tensor that is not a gradient (a module's bias,
// built the same way on every rank).
void syncBias(PG pg, at::Tensor bias, at::Tensor weight) {
  Tensors params{weight};
  if (bias.defined())
    params.push_back(bias);
  pg->allreduce_coalesced(params)->wait();
}

// Silent: the list and the collective are under the same rank test (the
// branch's own finding is about the collective, not the list).
void sameCondition(PG pg, Tensors &params) {
  if (pg->getRank() == 0) {
    Tensors mine{params[0]};
    mine.push_back(params[1]);
    pg->broadcast(mine)->wait();
  } else {
    Tensors theirs{params[0], params[1]};
    pg->broadcast(theirs)->wait();
  }
}

// Silent: the length is set on every rank before the collective.
void resizedToAgree(PG pg, Tensors &params, size_t count) {
  Tensors grads;
  for (auto &p : params)
    if (p.grad().defined())
      grads.push_back(p.grad());
  grads.resize(count);
  pg->allreduce_coalesced(grads)->wait();
}

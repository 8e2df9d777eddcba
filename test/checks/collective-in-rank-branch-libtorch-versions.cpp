// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 -isystem %inputs/c10d_v2

// Code written for LibTorch 2.x: collectives on a c10d::Backend subclass,
// the c10d::ops free functions and torch::cuda::nccl. Methods are matched by
// name on any class derived from the catalogued one.

#include <Backend.hpp>

using Tensors = std::vector<at::Tensor>;

// A 2.x backend, reached through a derived class.
void backendOnRoot(c10d::ProcessGroupNCCL *nccl, Tensors &t) {
  if (nccl->getRank() == 0)
    nccl->allreduce(t)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:11: warning: 'allreduce' is reached only by ranks where 'nccl->getRank() == 0' [ddp-collective-in-rank-branch]

void backendBarrier(c10d::Backend *backend) {
  if (backend->getRank() != 0)
    return;
  backend->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:12: warning: 'barrier' is skipped by ranks that leave early when 'backend->getRank() != 0' [ddp-rank-gated-barrier]

// c10d::ops::broadcast, the dispatcher entry point.
void opsBroadcastOnRoot(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                        Tensors &t) {
  if (pg->getRank() == 0)
    c10d::ops::broadcast(pg, t);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'broadcast' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// torch::cuda::nccl::all_reduce, single-process multi-GPU NCCL.
void ncclAllReduceOnRoot(c10d::Backend *backend, Tensors &in, Tensors &out) {
  if (backend->getRank() == 0)
    torch::cuda::nccl::all_reduce(in, out);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'all_reduce' is reached only by ranks where 'backend->getRank() == 0' [ddp-collective-in-rank-branch]

// Silent: every rank reduces.
void backendEverywhere(c10d::ProcessGroupNCCL *nccl, Tensors &t) {
  nccl->allreduce(t)->wait();
  if (nccl->getSize() > 1)
    nccl->barrier()->wait();
}

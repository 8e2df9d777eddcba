// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 -isystem %inputs/c10d_v1

// Code written for LibTorch 1.x (up to 1.12): Work nested in ProcessGroup,
// std::shared_ptr results, ProcessGroupMPI.

#include <ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

void averageOnRootOnly(std::shared_ptr<c10d::ProcessGroupMPI> pg,
                       Tensors &grads) {
  auto rank = pg->getRank();
  std::vector<std::shared_ptr<c10d::ProcessGroup::Work>> works;
  if (rank == 0)
    works.push_back(pg->allreduce(grads));
  for (auto &work : works)
    work->wait();
}
// CHECK-MESSAGES: :[[@LINE-4]]:25: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

void saveThenBarrier(std::shared_ptr<c10d::ProcessGroupMPI> pg) {
  if (pg->getRank() == 0) {
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'pg->getRank() == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES: {{^}}  pg->barrier()->wait();{{$}}

// Silent: the waits are local; every rank reduces.
void averageEverywhere(std::shared_ptr<c10d::ProcessGroupMPI> pg,
                       Tensors &grads) {
  auto work = pg->allreduce(grads);
  if (pg->getRank() == 0)
    work->wait();
}

// Code written for LibTorch 2.x and for LibTorch up to 1.7, compiled against
// the real LibTorch 1.13 headers (Debian libtorch-dev): the calls that do
// not exist in 1.13 did not compile, and are matched by name; every
// function gets the findings it gets where everything resolves.
// REQUIRES: libtorch
//
// The plugin and ddp-clang-tidy (check_ddp_tidy prints what each reported,
// without the compile errors, for the notes):
// RUN: %check_ddp_tidy --expect-compile-errors %s 'ddp-*' %t -- -- %torch_flags -isystem /usr/include/torch/csrc/distributed > %t.tidy.txt
// RUN: FileCheck %s --check-prefix=BY-NAME --input-file=%t.tidy.txt
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %torch_flags -isystem /usr/include/torch/csrc/distributed > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt

// 1.13 has the header a 1.7 program includes, under another directory
// (found through the -isystem above); a 2.x program includes Ops.hpp.
#include <c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/Ops.hpp>

#include <memory>
#include <vector>

using Tensors = std::vector<at::Tensor>;

// --- Written for LibTorch 2.x. ---

// A 2.x process group dispatches to a backend per device; 1.13's has no
// getBackend, so `backend` is known by its name only.
void perDeviceBarrier(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  auto backend = pg->getBackend(c10::DeviceType::CPU);
  int rank = pg->getRank();
  if (rank == 0)
    backend->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:14: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// BY-NAME: INPUT:[[@LINE-3]]:14: note: 'barrier' is matched by name: this call did not compile against the headers in use, and 'backend' is named like a process group (its type did not resolve)

// c10d::Backend is not declared by 1.13's ProcessGroup.hpp (Clang takes it
// for at::Backend, an enum): the type as written says what it is.
void saveThenBarrier(c10d::Backend *process_group) {
  if (process_group->getRank() != 0)
    return;
  process_group->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:18: warning: 'barrier' is skipped by ranks that leave early when 'process_group->getRank() != 0' [ddp-rank-gated-barrier]
// BY-NAME: INPUT:[[@LINE-5]]:7: note: 'process_group->getRank()' returns the rank of this process (matched by name: the call did not compile)
// BY-NAME: INPUT:[[@LINE-4]]:18: note: 'barrier' is matched by name: this call did not compile against the headers in use, and 'process_group' is declared as 'c10d::Backend *'

// A collective 1.13's ProcessGroup lacks.
void gatherOnOthers(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                    Tensors &out, Tensors &in) {
  if (pg->getRank() == 0)
    return;
  pg->allgather_into_tensor_coalesced(out, in)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'allgather_into_tensor_coalesced' is skipped by ranks that leave early when 'pg->getRank() == 0' [ddp-collective-in-rank-branch]
// BY-NAME: INPUT:[[@LINE-3]]:7: note: 'allgather_into_tensor_coalesced' is matched by name: this call did not compile against the headers in use, and 'pg' is a c10d process group

// c10d::ops::allreduce with arguments 1.13's does not take.
void opsAllreduceOnRoot(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                        Tensors &t) {
  if (pg->getRank() == 0)
    c10d::ops::allreduce(pg, t, c10d::AllreduceOptions(), /*async=*/true);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'allreduce' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]
// BY-NAME: INPUT:[[@LINE-3]]:5: note: 'allreduce' is matched by name: this call did not compile against the headers in use, and it names 'c10d::ops::allreduce', whose arguments did not fit

// Silent twins: every rank calls the same collectives.
void everyRank(c10d::Backend *backend, Tensors &t) {
  if (backend->getRank() == 0)
    backend->allreduce(t)->wait();
  else
    backend->allreduce(t)->wait();
  if (backend->getSize() > 1)
    backend->barrier()->wait();
}

// --- Written for LibTorch up to 1.7: Work nested in ProcessGroup. ---

void averageOnRootOnly(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                       Tensors &grads) {
  std::vector<std::shared_ptr<c10d::ProcessGroup::Work>> works;
  if (pg->getRank() == 0)
    works.push_back(pg->allreduce(grads));
  for (auto &work : works)
    work->wait();
}
// CHECK-MESSAGES: :[[@LINE-4]]:25: warning: 'allreduce' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// Silent twin: every rank reduces; waiting is local.
void averageEverywhere(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                       Tensors &grads) {
  std::shared_ptr<c10d::ProcessGroup::Work> work = pg->allreduce(grads);
  if (pg->getRank() == 0)
    work->wait();
}

// LINT:      unresolved-calls-real-libtorch.cpp: remark: {{[0-9]+}} compile errors (the first: unresolved-calls-real-libtorch.cpp:{{.*}}); the functions that compiled were analysed, 0 functions were skipped
// LINT:      unresolved-calls-real-libtorch.cpp:31:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:        'barrier' is matched by name: this call did not compile against the headers in use, and 'backend' is named like a process group (its type did not resolve) (at unresolved-calls-real-libtorch.cpp:32:14)
// LINT:      unresolved-calls-real-libtorch.cpp:40:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:        'barrier' is matched by name: this call did not compile against the headers in use, and 'process_group' is declared as 'c10d::Backend *' (at unresolved-calls-real-libtorch.cpp:42:18)
// LINT:      unresolved-calls-real-libtorch.cpp:51:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:        'allgather_into_tensor_coalesced' is matched by name: {{.*}} (at unresolved-calls-real-libtorch.cpp:53:7)
// LINT:      unresolved-calls-real-libtorch.cpp:61:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:        'allreduce' is matched by name: {{.*}} (at unresolved-calls-real-libtorch.cpp:62:5)
// LINT:      unresolved-calls-real-libtorch.cpp:82:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:      5 findings in 1 translation unit; 1 with compile errors

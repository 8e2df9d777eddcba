// Code written for LibTorch 1.x (up to 1.12: Work nested in ProcessGroup,
// std::shared_ptr results, ProcessGroupMPI) gets the same findings compiled
// against its own headers (the mock in c10d_v1) and against 2.x's (the mock
// in c10d_v2), where ProcessGroupMPI and ProcessGroup::Work do not exist and
// ProcessGroup has no broadcast: those calls did not compile, and are matched
// by name. The release's header comes from the command line (-include).
//
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 -isystem %inputs/c10d_v1 -include ProcessGroup.hpp
// RUN: %check_ddp_tidy --expect-compile-errors %s 'ddp-*' %t -- -- -std=c++17 -isystem %inputs/c10d_v2 -include Backend.hpp
// RUN: %expect_exit 1 %ddp_clang_tidy -checks='-*,ddp-*' %s -- -std=c++17 -isystem %inputs/c10d_v2 -include Backend.hpp > %t.builtin.txt 2>&1
// RUN: FileCheck %s --check-prefix=BY-NAME --input-file=%t.builtin.txt
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 -isystem %inputs/c10d_v2 -include Backend.hpp > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt

#include <memory>
#include <vector>

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
// BY-NAME: unresolved-calls-libtorch-1x.cpp:[[@LINE-5]]:25: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// BY-NAME: unresolved-calls-libtorch-1x.cpp:[[@LINE-9]]:15: note: 'rank' is set from 'pg->getRank()' here
// BY-NAME: unresolved-calls-libtorch-1x.cpp:[[@LINE-7]]:25: note: 'allreduce' is matched by name: this call did not compile against the headers in use, and 'pg' is named like a process group (its declaration did not resolve)

// The process group made the 1.x way: `auto` from a factory 2.x lacks.
void barrierOffRoot() {
  auto pg = c10d::ProcessGroupMPI::createProcessGroupMPI();
  if (pg->getRank() == 0)
    return;
  pg->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'barrier' is skipped by ranks that leave early when 'pg->getRank() == 0' [ddp-rank-gated-barrier]
// BY-NAME: unresolved-calls-libtorch-1x.cpp:[[@LINE-3]]:7: warning: 'barrier' is skipped by ranks that leave early when 'pg->getRank() == 0' [ddp-rank-gated-barrier]
// BY-NAME: unresolved-calls-libtorch-1x.cpp:[[@LINE-4]]:7: note: 'barrier' is matched by name: this call did not compile against the headers in use, and 'pg' is named like a process group (its type did not resolve)

// Silent twin: every rank reduces; the waits are local.
void averageEverywhere(std::shared_ptr<c10d::ProcessGroupMPI> pg,
                       Tensors &grads) {
  std::shared_ptr<c10d::ProcessGroup::Work> work = pg->allreduce(grads);
  if (pg->getRank() == 0)
    work->wait();
}

// BY-NAME-NOT: warning:
// BY-NAME: Found compiler error(s).

// LINT:      unresolved-calls-libtorch-1x.cpp: remark: {{[0-9]+}} compile errors (the first: {{.*}}); the functions that compiled were analysed, 0 functions were skipped
// LINT-NEXT: unresolved-calls-libtorch-1x.cpp:24:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:        'allreduce' is matched by name: {{.*}} (at unresolved-calls-libtorch-1x.cpp:25:25)
// LINT:      unresolved-calls-libtorch-1x.cpp:37:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:        'barrier' is matched by name: {{.*}} (at unresolved-calls-libtorch-1x.cpp:39:7)
// LINT:      2 findings in 1 translation unit; 1 with compile errors

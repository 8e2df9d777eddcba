// Code written for LibTorch 2.x gets the same findings compiled against the
// 2.x headers (the mock in c10d_v2, where everything resolves) and against
// 1.x headers (the mock in c10d_v1), where c10d::Backend, c10::intrusive_ptr,
// ProcessGroup::getBackend and allgather_into_tensor_coalesced do not exist:
// those calls did not compile, and are matched to the catalogue by their
// name and what they are called on, with a note that says so. The release's
// header comes from the command line (-include), so that one source compiles
// against both.
//
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 -isystem %inputs/c10d_v2 -include Backend.hpp
// RUN: %check_ddp_tidy --expect-compile-errors %s 'ddp-*' %t -- -- -std=c++17 -isystem %inputs/c10d_v1 -include ProcessGroup.hpp
//
// The notes, through the plugin and ddp-clang-tidy; the compile errors are
// printed, and the exit code is clang-tidy's for them (1).
// RUN: %expect_exit 1 %host_clang_tidy --load=%ddp_plugin -checks='-*,ddp-*' %s -- -std=c++17 -isystem %inputs/c10d_v1 -include ProcessGroup.hpp > %t.plugin.txt 2>&1
// RUN: FileCheck %s --check-prefix=BY-NAME --input-file=%t.plugin.txt
// RUN: %expect_exit 1 %ddp_clang_tidy -checks='-*,ddp-*' %s -- -std=c++17 -isystem %inputs/c10d_v1 -include ProcessGroup.hpp > %t.builtin.txt 2>&1
// RUN: FileCheck %s --check-prefix=BY-NAME --input-file=%t.builtin.txt
//
// ddp-lint: the same findings and notes; the TU is reported as having
// compile errors, and the exit code is the findings' (1).
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 -isystem %inputs/c10d_v1 -include ProcessGroup.hpp > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt

using Tensors = std::vector<at::Tensor>;

// A 2.x backend: its type does not resolve against 1.x.
void backendOnRoot(const c10::intrusive_ptr<c10d::Backend> &backend,
                   Tensors &t) {
  if (backend->getRank() == 0)
    backend->allreduce(t)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:14: warning: 'allreduce' is reached only by ranks where 'backend->getRank() == 0' [ddp-collective-in-rank-branch]
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-6]]:51: error: no member named 'Backend' in namespace 'c10d' [clang-diagnostic-error]
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-4]]:14: warning: 'allreduce' is reached only by ranks where 'backend->getRank() == 0' [ddp-collective-in-rank-branch]
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-6]]:7: note: 'backend->getRank()' returns the rank of this process (matched by name: the call did not compile)
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-6]]:14: note: 'allreduce' is matched by name: this call did not compile against the headers in use, and 'backend' is declared as 'const c10::intrusive_ptr<c10d::Backend> &'

// Rank 0 saves, then waits in a barrier the other ranks never reach.
void saveThenBarrier(c10d::Backend *process_group) {
  if (process_group->getRank() != 0)
    return;
  process_group->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:18: warning: 'barrier' is skipped by ranks that leave early when 'process_group->getRank() != 0' [ddp-rank-gated-barrier]
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-6]]:28: error: no type named 'Backend' in namespace 'c10d' [clang-diagnostic-error]
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-4]]:18: warning: 'barrier' is skipped by ranks that leave early when 'process_group->getRank() != 0' [ddp-rank-gated-barrier]
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-5]]:18: note: 'barrier' is matched by name: this call did not compile against the headers in use, and 'process_group' is declared as 'c10d::Backend *'

// The backend a 2.x process group dispatches to: `auto` deduced from a call
// that did not compile, so its name is what says it is a backend.
void perDeviceBarrier(const c10::intrusive_ptr<c10d::ProcessGroup> &pg) {
  auto backend = pg->getBackend(c10::DeviceType::CPU);
  int rank = pg->getRank();
  if (rank == 0)
    backend->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:14: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-3]]:14: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-4]]:14: note: 'barrier' is matched by name: this call did not compile against the headers in use, and 'backend' is named like a process group (its type did not resolve)

// A collective that 1.x's ProcessGroup lacks.
void gatherOnOthers(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                    Tensors &out, Tensors &in) {
  if (pg->getRank() == 0)
    return;
  pg->allgather_into_tensor_coalesced(out, in)->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'allgather_into_tensor_coalesced' is skipped by ranks that leave early when 'pg->getRank() == 0' [ddp-collective-in-rank-branch]
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-3]]:7: warning: 'allgather_into_tensor_coalesced' is skipped by ranks that leave early when 'pg->getRank() == 0' [ddp-collective-in-rank-branch]
// BY-NAME: unresolved-calls-libtorch-2x.cpp:[[@LINE-4]]:7: note: 'allgather_into_tensor_coalesced' is matched by name: this call did not compile against the headers in use, and 'pg' is declared as 'const c10::intrusive_ptr<c10d::ProcessGroup> &'

// Silent twins: every rank calls the same collectives; the world size
// (getSize, matched by name) is the same on every rank.
void everyRank(const c10::intrusive_ptr<c10d::Backend> &backend, Tensors &t) {
  if (backend->getRank() == 0)
    backend->allreduce(t)->wait();
  else
    backend->allreduce(t)->wait();
  if (backend->getSize() > 1)
    backend->barrier()->wait();
}

// BY-NAME-NOT: warning:
// BY-NAME: Found compiler error(s).

// LINT:      unresolved-calls-libtorch-2x.cpp: remark: {{[0-9]+}} compile errors (the first: unresolved-calls-libtorch-2x.cpp:28:26: use of undeclared identifier 'c10'; did you mean 'c10d'?); the functions that compiled were analysed, 0 functions were skipped
// LINT-NEXT: unresolved-calls-libtorch-2x.cpp:30:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT-NEXT:   the condition depends on the rank: 'backend->getRank()' returns the rank of this process (matched by name: the call did not compile) at unresolved-calls-libtorch-2x.cpp:30:7
// LINT-NEXT:   when true:  allreduce (unresolved-calls-libtorch-2x.cpp:31:14)
// LINT-NEXT:   when false: nothing
// LINT-NEXT:   'allreduce' is matched by name: this call did not compile against the headers in use, and 'backend' is declared as 'const c10::intrusive_ptr<c10d::Backend> &' (at unresolved-calls-libtorch-2x.cpp:31:14)
// LINT:      unresolved-calls-libtorch-2x.cpp:65:7: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT:        'allgather_into_tensor_coalesced' is matched by name: {{.*}} (at unresolved-calls-libtorch-2x.cpp:67:7)
// LINT:      4 findings in 1 translation unit; 1 with compile errors

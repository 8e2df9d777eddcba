// Calls that did not compile count as collectives only on what looks like a
// process group. Each negative here has its positive twin beside it: a
// `barrier()` of a thread pool, of a std::barrier or of an object whose type
// did not resolve and is not named like a process group is not a
// collective; a call of the user's function that did not compile may issue
// anything, so the branch around it is not compared. (The 2.x mock headers,
// C++20 for std::barrier.)
//
// RUN: %check_ddp_tidy --expect-compile-errors %s 'ddp-*' %t -- -- -std=c++20 -isystem %inputs/c10d_v2 -include Backend.hpp
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++20 -isystem %inputs/c10d_v2 -include Backend.hpp > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt

#include <barrier>

using Tensors = std::vector<at::Tensor>;

struct ThreadPool {
  void waitAll();
};

// A class that resolved and has no barrier(): the call did not compile,
// and it is not a process group's.
void threadPoolBarrier(c10d::ProcessGroup *pg, ThreadPool &pool) {
  if (pg->getRank() == 0)
    pool.barrier();
}
void processGroupBarrier(c10d::ProcessGroup *pg, ThreadPool &pool) {
  if (pg->getRank() == 0)
    pg->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'barrier' is reached only by ranks where 'pg->getRank() == 0' [ddp-rank-gated-barrier]

// A std::barrier: arrive_and_wait() compiles and is not catalogued;
// barrier() does not compile, on a resolved class that is not a group.
void stdBarrier(c10d::ProcessGroup *pg, std::barrier<> &sync) {
  if (pg->getRank() == 0)
    sync.arrive_and_wait();
  if (pg->getRank() == 1)
    sync.barrier();
}

// Types that did not resolve: a worker pool is not a process group by its
// spelling or its name; a ProcessGroupMPI (which the 2.x mock lacks) is.
void unresolvedPool(c10d::ProcessGroup *pg, WorkerPool &workers) {
  if (pg->getRank() == 0)
    workers.barrier();
}
void unresolvedGroup(c10d::ProcessGroup *pg, ProcessGroupMPI &world) {
  if (pg->getRank() == 0)
    world.barrier();
}
// CHECK-MESSAGES: :[[@LINE-2]]:11: warning: 'barrier' is reached only by ranks where 'pg->getRank() == 0' [ddp-rank-gated-barrier]

// `auto` deduced from a call that did not compile: only the name is left.
void namedPool(c10d::ProcessGroup *pg, Tensors &t) {
  auto pool = makePool(t);
  if (pg->getRank() == 0)
    pool->allreduce(t);
}
void namedGroup(c10d::ProcessGroup *pg, Tensors &t) {
  auto subgroup_pg = makeGroup(t);
  if (pg->getRank() == 0)
    subgroup_pg->allreduce(t);
}
// CHECK-MESSAGES: :[[@LINE-2]]:18: warning: 'allreduce' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// A helper of the user's called with an argument that did not compile: what
// it issues is not known from this call, so the branch is not compared.
void syncAll(c10d::ProcessGroup *pg) { pg->barrier()->wait(); }
void helperDidNotCompile(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    syncAll(pg, undeclared_flag);
}
void helperCompiled(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    syncAll(pg);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'barrier' in 'syncAll' is reached only by ranks where 'pg->getRank() == 0' [ddp-rank-gated-barrier]

// A helper whose own body did not compile (a statement that names a
// collective was dropped): it is not analysed, and a branch that calls it is
// not compared either. A dropped statement that names nothing that
// communicates, leaves, assigns or opens a block changes nothing: its twin
// is analysed.
void brokenHelper(c10d::ProcessGroup *pg, Tensors &t) {
  c10d::ops::allreduce_coalesced(pg, t, 1);
  pg->barrier()->wait();
}
void callsBrokenHelper(c10d::ProcessGroup *pg, Tensors &t) {
  if (pg->getRank() == 0)
    brokenHelper(pg, t);
}
void loggingHelper(c10d::ProcessGroup *pg) {
  c10d::ops::log_state(pg, "synchronising");
  pg->barrier()->wait();
}
void callsLoggingHelper(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    loggingHelper(pg);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'barrier' in 'loggingHelper' is reached only by ranks where 'pg->getRank() == 0' [ddp-rank-gated-barrier]

// The same in an initializer and in a condition, which Clang 19 keeps as a
// call of a name it lost and later releases drop: a collective's name hides
// what the helper issues, a log call's does not.
void brokenInitializer(c10d::ProcessGroup *pg, Tensors &t) {
  auto work = c10d::ops::allreduce_coalesced(pg, t, 1);
  pg->barrier()->wait();
}
void brokenCondition(c10d::ProcessGroup *pg, Tensors &t) {
  if (c10d::ops::allreduce_coalesced(pg, t, 1))
    return;
  pg->barrier()->wait();
}
void callsBrokenInitializerAndCondition(c10d::ProcessGroup *pg, Tensors &t) {
  if (pg->getRank() == 0) {
    brokenInitializer(pg, t);
    brokenCondition(pg, t);
  }
}
void loggedInitializer(c10d::ProcessGroup *pg) {
  int logged = c10d::ops::log_state(pg, "synchronising");
  if (c10d::ops::log_state(pg, "waiting"))
    logged = 0;
  pg->barrier()->wait();
}
void callsLoggedInitializer(c10d::ProcessGroup *pg) {
  if (pg->getRank() == 0)
    loggedInitializer(pg);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'barrier' in 'loggedInitializer' is reached only by ranks where 'pg->getRank() == 0' [ddp-rank-gated-barrier]

// A c10d::ops call whose arguments do not fit is still the collective it
// names.
void opsArgumentsDidNotFit(const c10::intrusive_ptr<c10d::ProcessGroup> &pg,
                           Tensors &t) {
  if (pg->getRank() == 0)
    c10d::ops::allreduce(pg, t, c10d::AllreduceOptions(), 2);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'allreduce' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// A rank whose shard is missing throws, and its handler calls a helper whose
// body did not compile (LightGBM's API_END after a missing header): what the
// helper issues is not known, so the ranks that throw are not said to
// differ. A handler that broadcasts a fallback does differ.
Tensors loadShard(int rank);
int handleFailure(c10d::ProcessGroup *pg, Tensors &t) {
  try {
    t = loadShard(pg->getRank());
  } catch (...) {
    brokenHelper(pg, t);
    return -1;
  }
  return 0;
}
int broadcastOnFailure(c10d::ProcessGroup *pg, Tensors &t) {
  try {
    t = loadShard(pg->getRank());
  } catch (...) {
    pg->broadcast(t)->wait();
  }
  return 0;
}
// CHECK-MESSAGES: :[[@LINE-4]]:9: warning: 'broadcast' in a 'catch' handler is reached only by ranks where 'loadShard(pg->getRank())' throws [ddp-collective-in-rank-branch]

// LINT:      unresolved-calls-negatives.cpp: remark: {{[0-9]+}} compile errors (the first: unresolved-calls-negatives.cpp:{{[0-9]+}}:{{[0-9]+}}: {{.*}}); the functions that compiled were analysed, 3 functions were skipped
// LINT-NEXT: unresolved-calls-negatives.cpp:[[#]]:6: remark: the analysis of 'brokenHelper' was skipped: a statement in it did not compile, so its collectives are not checked, nor are the branches that call it
// LINT-NEXT: unresolved-calls-negatives.cpp:[[#]]:6: remark: the analysis of 'brokenInitializer' was skipped: a statement in it did not compile
// LINT-NEXT: unresolved-calls-negatives.cpp:[[#]]:6: remark: the analysis of 'brokenCondition' was skipped: a statement in it did not compile
// LINT:      8 findings in 1 translation unit; 1 with compile errors; 3 functions skipped

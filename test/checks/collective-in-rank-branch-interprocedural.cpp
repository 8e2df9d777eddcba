// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Collectives and rank values that cross function boundaries: helpers,
// lambdas, wrapper methods, templates, parameters and return values.

#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;
void logLine(const char *msg);

bool doSync(c10d::ProcessGroup *pg, Tensors &grads) {
  pg->allreduce(grads)->wait();
  return true;
}

// Short-circuit: only rank 0 evaluates doSync.
void shortCircuitAnd(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  rank == 0 && doSync(pg, grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:16: warning: 'allreduce' in 'doSync' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// Short-circuit with ||: only ranks where the left side is false sync.
void shortCircuitOr(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  rank != 0 || doSync(pg, grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:16: warning: 'allreduce' in 'doSync' is reached only by ranks where 'rank != 0' is false [ddp-collective-in-rank-branch]

// A lambda that reduces, called by rank 0 only.
void lambdaUnderRank(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  auto syncGrads = [&] { pg->allreduce(grads)->wait(); };
  if (rank == 0)
    syncGrads();
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'allreduce' in '{{[^']+}}' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// The message names a lambda by the variable it is called through.
void lambdaUnderRankNamed(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  auto syncGrads = [&] { pg->allreduce(grads)->wait(); };
  if (rank == 0)
    syncGrads();
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'allreduce' in 'syncGrads' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// A lambda that captures the rank and branches on it inside its body.
void lambdaCapturesRank(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  auto maybeSync = [&] {
    if (rank == 0)
      pg->allreduce(grads);
  };
  maybeSync();
}
// CHECK-MESSAGES: :[[@LINE-4]]:11: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

// A method of a user wrapper around the process group.
struct Comm {
  c10d::ProcessGroup *pg;
  void sync(Tensors &grads) { pg->allreduce(grads); }
};
void wrapperMethodUnderRank(Comm &comm, c10d::ProcessGroup *pg,
                            Tensors &grads) {
  if (pg->getRank() == 0)
    comm.sync(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:10: warning: 'allreduce' in 'sync' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// A function template instantiated with the process group.
template <class PG> void broadcastAll(PG *pg, Tensors &params) {
  pg->broadcast(params);
}
void templateUnderRank(c10d::ProcessGroup *pg, Tensors &params) {
  int rank = pg->getRank();
  if (rank != 0)
    broadcastAll(pg, params);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'broadcast' in 'broadcastAll' is reached only by ranks where 'rank != 0' [ddp-collective-in-rank-branch]

// A helper that returns early on its (rank-valued) parameter.
void reduceFrom(c10d::ProcessGroup *pg, Tensors &grads, int src) {
  if (src != 0)
    return;
  pg->allreduce(grads);
}
void callsReduceFrom(c10d::ProcessGroup *pg, Tensors &grads) {
  reduceFrom(pg, grads, pg->getRank());
}
// CHECK-MESSAGES: :[[@LINE-5]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'src != 0' [ddp-collective-in-rank-branch]

// The rank passed down through two parameters.
void innerStep(c10d::ProcessGroup *pg, Tensors &grads, int a) {
  if (a == 0)
    pg->allreduce(grads);
}
void outerStep(c10d::ProcessGroup *pg, Tensors &grads, int b) {
  logLine("step");
  innerStep(pg, grads, b);
}
void drivesSteps(c10d::ProcessGroup *pg, Tensors &grads) {
  outerStep(pg, grads, pg->getRank());
}
// CHECK-MESSAGES: :[[@LINE-9]]:9: warning: 'allreduce' is reached only by ranks where 'a == 0' [ddp-collective-in-rank-branch]

// The rank returned by a user function, compared at the call.
int myRank(c10d::ProcessGroup *pg) { return pg->getRank(); }
void returnedRank(c10d::ProcessGroup *pg, Tensors &grads) {
  if (myRank(pg) == 0)
    doSync(pg, grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'allreduce' in 'doSync' is reached only by ranks where 'myRank(pg) == 0' [ddp-collective-in-rank-branch]

// The rank written back through a user helper's reference out-parameter.
void queryRank(c10d::ProcessGroup *pg, int &out) { out = pg->getRank(); }
void rankThroughRefOutParam(c10d::ProcessGroup *pg, Tensors &grads) {
  int r = -1;
  queryRank(pg, r);
  if (r == 0)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'r == 0' [ddp-collective-in-rank-branch]

// A helper that branches on the rank internally: reported inside the helper.
void saveAndSync(c10d::ProcessGroup *pg, Tensors &grads) {
  if (pg->getRank() == 0) {
    logLine("saving");
    pg->allreduce(grads);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'allreduce' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// --- Negatives: all silent. ---

// A helper that issues collectives, called by every rank.
void helperUnconditional(c10d::ProcessGroup *pg, Tensors &grads) {
  logLine("step");
  doSync(pg, grads);
}

// A helper on one side and the same collective written out on the other.
void helperVersusDirect(c10d::ProcessGroup *pg, Tensors &grads) {
  if (pg->getRank() == 0) {
    logLine("rank 0 syncs through the helper");
    doSync(pg, grads);
  } else {
    pg->allreduce(grads)->wait();
  }
}

// Two different helpers that issue the same collective.
void allreduceViaComm(Comm &comm, Tensors &grads) { comm.sync(grads); }
void twoHelpersSameCollective(Comm &comm, c10d::ProcessGroup *pg,
                              Tensors &grads) {
  if (pg->getRank() == 0)
    allreduceViaComm(comm, grads);
  else
    doSync(pg, grads);
}

// A lambda with a collective called by every rank.
void lambdaUnconditional(c10d::ProcessGroup *pg, Tensors &grads) {
  auto syncGrads = [&] { pg->allreduce(grads)->wait(); };
  if (pg->getRank() == 0)
    logLine("syncing");
  syncGrads();
}

// A user constructor that broadcasts, built on rank 0 only.
struct DistributedModel {
  DistributedModel(c10d::ProcessGroup *pg, Tensors &params) {
    pg->broadcast(params);
  }
};
void constructorCollective(c10d::ProcessGroup *pg, Tensors &params) {
  if (pg->getRank() == 0) {
    DistributedModel model(pg, params);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:{{[0-9]+}}: warning: 'broadcast' in 'DistributedModel' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// A scope guard whose destructor reduces, built on rank 0 only: the warning
// sits on the guard's declaration.
struct SyncOnExit {
  c10d::ProcessGroup *pg;
  Tensors &grads;
  ~SyncOnExit() { pg->allreduce(grads); }
};
void raiiDestructorCollective(c10d::ProcessGroup *pg, Tensors &grads) {
  if (pg->getRank() == 0) {
    SyncOnExit guard{pg, grads};
    logLine("rank 0 work");
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:21: warning: 'allreduce' in '~SyncOnExit' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

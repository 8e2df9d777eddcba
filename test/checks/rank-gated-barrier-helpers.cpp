// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- -- %mock_flags

// Barriers issued by the user's helper functions, and ranks passed through
// helpers. Warnings with all their notes.

#include <c10d/ProcessGroup.hpp>

void save(const at::Tensor &t);
void logLine(const char *msg);

// Not a case: a helper every rank must call.
void syncAll(c10d::ProcessGroup *pg) {
  pg->barrier()->wait();
}

// Not a case: a helper that saves, then synchronises through syncAll.
void checkpointAndSync(c10d::ProcessGroup *pg, const at::Tensor &w) {
  save(w);
  syncAll(pg);
}

// Not a case: a helper that all-reduces (no barrier).
void reduceGrads(c10d::ProcessGroup *pg, std::vector<at::Tensor> &grads) {
  pg->allreduce(grads)->wait();
}

// Not a case: returns the rank.
int myRank(c10d::ProcessGroup *pg) {
  return pg->getRank();
}

// The helper's barrier is reached by rank 0 only; no fix-it for a helper call.
void helperUnderRankCondition(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    syncAll(pg);
  }
}
// CHECK-NOTES: :[[@LINE-3]]:5: warning: 'barrier' in 'syncAll' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-30]]:3: note: 'syncAll' calls 'barrier' here
// CHECK-NOTES: :[[@LINE-7]]:5: note: every rank must call 'barrier'; call it where all ranks pass
// CHECK-FIXES:      {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    syncAll(pg);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// Two levels of helpers: the chain names each call on the way down.
void nestedHelperOnRoot(c10d::ProcessGroup *pg, const at::Tensor &w) {
  if (pg->getRank() == 0)
    checkpointAndSync(pg, w);
}
// CHECK-NOTES: :[[@LINE-2]]:5: warning: 'barrier' in 'checkpointAndSync' is reached only by ranks where 'pg->getRank() == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:7: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-39]]:3: note: 'checkpointAndSync' calls 'syncAll' here
// CHECK-NOTES: :[[@LINE-46]]:3: note: 'syncAll' calls 'barrier' here
// CHECK-NOTES: :[[@LINE-7]]:5: note: every rank must call 'barrier'; call it where all ranks pass

// The rank comes back from a helper; the chain goes through its return.
void rankFromHelper(c10d::ProcessGroup *pg, const at::Tensor &w) {
  if (myRank(pg) == 0) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'myRank(pg) == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-42]]:3: note: 'myRank' returns a rank-dependent value here
// CHECK-NOTES: :[[@LINE-43]]:10: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-7]]:9: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}  if (myRank(pg) == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}

// The rank is passed in as an argument with an innocent name.
void maybeSaveAndSync(c10d::ProcessGroup *pg, const at::Tensor &w, int who) {
  if (who == 0) {
    save(w);
    pg->barrier()->wait();
  }
}
void passRankToHelper(c10d::ProcessGroup *pg, const at::Tensor &w) {
  maybeSaveAndSync(pg, w, pg->getRank());
}
// CHECK-NOTES: :[[@LINE-6]]:9: warning: 'barrier' is reached only by ranks where 'who == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-9]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-4]]:27: note: 'who' receives a rank-dependent argument here
// CHECK-NOTES: :[[@LINE-5]]:27: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-10]]:9: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}  if (who == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}

// Negative: rank 0 saves, then every rank calls the helper.
void helperCalledUnconditionally(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0)
    save(w);
  syncAll(pg);
}

// Negative: the helper is called on both sides of the branch.
void helperOnBothSides(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    syncAll(pg);
  } else {
    syncAll(pg);
  }
}

// Negative: a uniform condition (the epoch) gates the helper.
void helperEveryTenEpochs(c10d::ProcessGroup *pg, int epoch) {
  if (epoch % 10 == 0)
    syncAll(pg);
}

// Negative here: a rank-gated helper that all-reduces is the other check's business.
void allreduceHelperOnRoot(c10d::ProcessGroup *pg,
                           std::vector<at::Tensor> &grads) {
  int rank = pg->getRank();
  if (rank == 0)
    reduceGrads(pg, grads);
}

// Negative: a rank-gated helper that does not communicate, then a barrier.
void rankGatedLocalHelper(c10d::ProcessGroup *pg) {
  if (myRank(pg) == 0)
    logLine("checkpoint written");
  syncAll(pg);
}

// Not a case: returns the world size.
int worldSize(c10d::ProcessGroup *pg) {
  return pg->getSize();
}

// Negative: a helper that returns the world size is as uniform as getSize().
void uniformValueFromHelper(c10d::ProcessGroup *pg) {
  if (worldSize(pg) > 1)
    syncAll(pg);
}

// The helper is a lambda: the warning and the chain name it as the user wrote it.
void lambdaSyncOnRoot(c10d::ProcessGroup *pg, const at::Tensor &w) {
  auto sync = [pg] { pg->barrier()->wait(); };
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    sync();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:5: warning: 'barrier' in 'sync' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-10]]:22: note: 'sync' calls 'barrier' here
// CHECK-NOTES: :[[@LINE-7]]:5: note: every rank must call 'barrier'; call it where all ranks pass

// The rank comes out of a user wrapper through an out-parameter (like MPI_Comm_rank).
void queryRank(c10d::ProcessGroup *pg, int &out) { out = pg->getRank(); }
void outParamRankWrapper(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int r;
  queryRank(pg, r);
  if (r == 0) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'r == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:3: note: 'r' is set to a rank-dependent value by 'queryRank' here
// CHECK-NOTES: :[[@LINE-12]]:58: note: 'out' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-7]]:9: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}  if (r == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}

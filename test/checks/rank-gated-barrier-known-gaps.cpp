// XFAIL: *
// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- -- %mock_flags

// Cases where ddp-rank-gated-barrier is wrong today. Each expectation is the
// correct one (what the code does with two ranks); each FIXME(analysis) says
// what the tool does instead. Remove a case from here (into the matching
// rank-gated-barrier-*.cpp file) once it passes.

#include <c10d/ProcessGroup.hpp>

void save(const at::Tensor &t);
void logLine(const char *msg);

// Negative: rank 0's throw is caught locally, so every rank reaches the barrier.
void caughtThrowOnRoot(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  try {
    if (rank == 0)
      throw 1;
    save(w);
  } catch (int) {
    logLine("save skipped");
  }
  pg->barrier()->wait();
}
// FIXME(analysis): false positive: the caught throw is still taken for an exit: warns "'barrier' is skipped by ranks that leave early when 'rank == 0'" with a note "ranks where 'rank == 0' leave here (throw) and never reach 'barrier'" (no fix-it); the throw is caught before the barrier, so every rank reaches it.

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
// FIXME(analysis): the warning, the fix-it and all other notes are right now; only the origin note differs: the tool says "'r' is set to a rank-dependent value by 'queryRank' here" and adds "'out' is set from 'pg->getRank()' here" in the helper, where this expectation (its wording modelled on the MPI_Comm_rank note) wants "'r' is set to the rank by 'queryRank' here".
// CHECK-NOTES: :[[@LINE-4]]:9: warning: 'barrier' is reached only by ranks where 'r == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-7]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-9]]:3: note: 'r' is set to the rank by 'queryRank' here
// CHECK-NOTES: :[[@LINE-7]]:9: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}  if (r == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}

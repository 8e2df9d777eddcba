// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- -- %mock_flags

// c10d barriers that only some ranks reach, in the shapes real training code
// takes. Warnings only; the notes are covered by rank-gated-barrier-notes.cpp.

#include <c10d/ProcessGroup.hpp>

void save(const at::Tensor &t);
void logLine(const char *msg);
void trainStep();

// Rank 0 saves and logs, then waits alone in the barrier: the barrier moves out.
void saveLogThenBarrier(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    logLine("saved");
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void saveLogThenBarrier(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    logLine("saved");{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Only the ranks that do not save enter the barrier (else branch): no fix-it.
void barrierInElse(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
  } else {
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' is false [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void barrierInElse(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  } else {{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// Rank 0 saves and returns before the barrier the others wait in.
void earlyReturnAfterSave(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    return;
  }
  pg->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'barrier' is skipped by ranks that leave early when 'rank == 0' [ddp-rank-gated-barrier]

// A per-epoch barrier that non-zero ranks 'continue' past.
void continueInEpochLoop(c10d::ProcessGroup *pg, int epochs) {
  int rank = pg->getRank();
  for (int e = 0; e < epochs; ++e) {
    trainStep();
    if (rank != 0)
      continue;
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is skipped by ranks that leave early when 'rank != 0' [ddp-rank-gated-barrier]

// A countdown that starts at the rank: rank r enters the barrier r times.
void whileCountdownFromRank(c10d::ProcessGroup *pg) {
  int left = pg->getRank();
  while (left > 0) {
    pg->barrier()->wait();
    --left;
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:9: warning: 'barrier' is called a rank-dependent number of times: the loop condition 'left > 0' depends on the rank [ddp-rank-gated-barrier]

// monitoredBarrier is a barrier too; the rank comes straight from the call.
void monitoredBarrierOnRoot(c10d::ProcessGroup *pg, const at::Tensor &w) {
  if (pg->getRank() == 0) {
    save(w);
    pg->monitoredBarrier();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'monitoredBarrier' is reached only by ranks where 'pg->getRank() == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void monitoredBarrierOnRoot(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (pg->getRank() == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->monitoredBarrier();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Through an intrusive_ptr to a concrete backend (ProcessGroupGloo).
void glooBarrierOnRoot(const c10::intrusive_ptr<c10d::ProcessGroupGloo> &pg,
                       const at::Tensor &w) {
  if (pg->getRank() == 0) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'pg->getRank() == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}                       const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (pg->getRank() == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// The rank flows through a bool, and the group is a reference.
void derivedRootFlag(c10d::ProcessGroup &pg, const at::Tensor &w) {
  bool root = pg.getRank() == 0;
  if (root) {
    save(w);
    pg.barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:8: warning: 'barrier' is reached only by ranks where 'root' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void derivedRootFlag(c10d::ProcessGroup &pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  bool root = pg.getRank() == 0;{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (root) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg.barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Odd ranks only: a parity test is as rank-dependent as '== 0'.
void oddRanksOnly(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank % 2 == 1) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank % 2 == 1' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void oddRanksOnly(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank % 2 == 1) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Short-circuit: only rank 0 evaluates the right-hand side; no 'if', no fix-it.
void shortCircuitBarrier(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  rank == 0 && pg->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:20: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// A templated trainer, instantiated for c10d::ProcessGroup.
template <class PG> void templatedCheckpoint(PG *pg, const at::Tensor &w) {
  if (pg->getRank() == 0) {
    save(w);
    pg->barrier()->wait();
  }
}
template void templatedCheckpoint<c10d::ProcessGroup>(c10d::ProcessGroup *,
                                                      const at::Tensor &);
// CHECK-MESSAGES: :[[@LINE-5]]:9: warning: 'barrier' is reached only by ranks where 'pg->getRank() == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}template <class PG> void templatedCheckpoint(PG *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (pg->getRank() == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// A conditional expression: only rank 0 takes the barrier arm; no fix-it.
void ternaryBarrier(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  rank == 0 ? (void)pg->barrier() : logLine("not root");
}
// CHECK-MESSAGES: :[[@LINE-2]]:25: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]

// Early exit on 'skip || rank != 0': only rank 0 (when not skipping) waits.
void orConditionReturn(c10d::ProcessGroup *pg, bool skip) {
  int rank = pg->getRank();
  if (skip || rank != 0)
    return;
  pg->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'barrier' is skipped by ranks that leave early when 'skip || rank != 0' [ddp-rank-gated-barrier]

// Each rank loops until its own convergence test passes, a barrier per step.
bool converged(int rank, int step);
void untilLocallyConverged(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  int step = 0;
  while (!converged(rank, step)) {
    pg->barrier()->wait();
    ++step;
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:9: warning: 'barrier' is called a rank-dependent number of times: the loop condition '!converged(rank, step)' depends on the rank [ddp-rank-gated-barrier]

// Non-zero ranks jump over the save and its barrier with a goto.
void gotoOverBarrier(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank != 0)
    goto done;
  save(w);
  pg->barrier()->wait();
done:
  logLine("done");
}
// CHECK-MESSAGES: :[[@LINE-4]]:7: warning: 'barrier' is skipped by ranks that leave early when 'rank != 0' [ddp-rank-gated-barrier]

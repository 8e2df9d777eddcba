// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- -- %mock_flags

// Representative warnings with every note: the rank-dependent condition, where
// the rank comes from, how the other ranks leave, and the advice.

#include <c10d/ProcessGroup.hpp>

void save(const at::Tensor &t);
void trainStep();

// Every rank but 0 returns before the barrier rank 0 waits in.
void earlyReturnNonRoot(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank != 0)
    return;
  save(w);
  pg->barrier()->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:7: warning: 'barrier' is skipped by ranks that leave early when 'rank != 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-7]]:5: note: ranks where 'rank != 0' leave here (return) and never reach 'barrier'
// CHECK-NOTES: :[[@LINE-6]]:7: note: every rank must call 'barrier'; call it where all ranks pass

// A switch on the rank: only the ranks that take 'case 0' wait.
void barrierInSwitchCase(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  switch (rank) {
  case 0:
    save(w);
    pg->barrier()->wait();
    break;
  default:
    break;
  }
}
// CHECK-NOTES: :[[@LINE-6]]:9: warning: 'barrier' is reached only by ranks that take this case of the switch on 'rank' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-10]]:11: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-12]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-9]]:9: note: every rank must call 'barrier'; call it where all ranks pass

// A flag set only on rank 0 gates a later barrier: the whole 'if' is replaced.
void flagSetOnRoot(c10d::ProcessGroup *pg, const at::Tensor &w) {
  bool saved = false;
  if (pg->getRank() == 0) {
    save(w);
    saved = true;
  }
  if (saved) {
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'saved' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:5: note: 'saved' is assigned under a rank-dependent condition here
// CHECK-NOTES: :[[@LINE-11]]:7: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-7]]:9: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}void flagSetOnRoot(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  bool saved = false;{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (pg->getRank() == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    saved = true;{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Rank 0 enters a barrier while the others enter an allreduce: both hang.
void barrierVersusAllreduce(c10d::ProcessGroup *pg,
                            std::vector<at::Tensor> &grads) {
  int rank = pg->getRank();
  if (rank == 0) {
    pg->barrier()->wait();
  } else {
    pg->allreduce(grads)->wait();
  }
}
// CHECK-NOTES: :[[@LINE-5]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-7]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-9]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-6]]:9: note: the other ranks call 'allreduce' here instead
// CHECK-NOTES: :[[@LINE-9]]:9: note: every rank must call 'barrier'; call it where all ranks pass

// The barrier is alone in the 'if': the whole 'if' becomes the barrier.
void barrierAloneInIf(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  if (rank == 0) {
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-7]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-6]]:9: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}void barrierAloneInIf(c10d::ProcessGroup *pg) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// A barrier in an else-if chain: no fix-it.
void elseIfChain(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
  } else if (rank == 1) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 1' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:14: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-10]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-6]]:9: note: every rank must call 'barrier'; call it where all ranks pass
// CHECK-FIXES:      {{^}}  } else if (rank == 1) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// Rank r waits in r barriers: the loop bound is the rank.
void loopBoundedByRank(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  for (int i = 0; i < rank; ++i)
    pg->barrier()->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'barrier' is called a rank-dependent number of times: the loop condition 'i < rank' depends on the rank [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-4]]:19: note: this loop condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-5]]:9: note: every rank must call 'barrier'; call it where all ranks pass

// Strided sharding: trip counts differ unless n is a multiple of the world size.
void stridedShardLoop(c10d::ProcessGroup *pg, int n) {
  int rank = pg->getRank();
  int world = pg->getSize();
  for (int i = rank; i < n; i += world) {
    trainStep();
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is called a rank-dependent number of times: the loop condition 'i < n' depends on the rank [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:22: note: this loop condition depends on the rank
// CHECK-NOTES: :[[@LINE-7]]:16: note: 'i' is set from 'rank' here
// CHECK-NOTES: :[[@LINE-10]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-7]]:9: note: every rank must call 'barrier'; call it where all ranks pass

// A non-zero rank that hits a bad batch breaks out; the others wait in the barrier.
void breakOutOfStepLoop(c10d::ProcessGroup *pg, int steps, int badStep) {
  int rank = pg->getRank();
  for (int s = 0; s < steps; ++s) {
    if (rank != 0 && s == badStep)
      break;
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is skipped by ranks that leave early when 'rank != 0 && s == badStep' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:9: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-9]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-7]]:7: note: ranks where 'rank != 0 && s == badStep' leave here (break) and never reach 'barrier'
// CHECK-NOTES: :[[@LINE-7]]:9: note: every rank must call 'barrier'; call it where all ranks pass

// Rank 0 returns early when its checkpoint is corrupt; the others wait for it.
void rootBailsOutOnBadCheckpoint(c10d::ProcessGroup *pg, const at::Tensor &w,
                                 bool corrupt) {
  int rank = pg->getRank();
  if (rank == 0 && corrupt)
    return;
  save(w);
  pg->barrier()->wait();
}
// CHECK-NOTES: :[[@LINE-2]]:7: warning: 'barrier' is skipped by ranks that leave early when 'rank == 0 && corrupt' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-7]]:5: note: ranks where 'rank == 0 && corrupt' leave here (return) and never reach 'barrier'
// CHECK-NOTES: :[[@LINE-6]]:7: note: every rank must call 'barrier'; call it where all ranks pass

// Rank 0 waits twice, the others once: rank 0's second barrier is the unmatched one.
void extraBarrierOnRoot(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    pg->barrier()->wait();
    save(w);
    pg->barrier()->wait();
  } else {
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-5]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-9]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-11]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-8]]:9: note: every rank must call 'barrier'; call it where all ranks pass

// The 'if' is the unbraced body of a loop: no fix-it (the barrier must stay in the loop).
void moveFromUnbracedLoop(c10d::ProcessGroup *pg, const at::Tensor &w,
                          int steps) {
  int rank = pg->getRank();
  for (int s = 0; s < steps; ++s)
    if (rank == 0) {
      save(w);
      pg->barrier()->wait();
    }
}
// CHECK-NOTES: :[[@LINE-3]]:11: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:9: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-9]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-6]]:11: note: every rank must call 'barrier'; call it where all ranks pass
// CHECK-FIXES:      {{^}}  for (int s = 0; s < steps; ++s){{$}}
// CHECK-FIXES-NEXT: {{^}}    if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}      pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// The 'if' is the unbraced body of an 'if' on the epoch: no fix-it (the barrier must stay under it).
void moveFromNestedUnbracedIf(c10d::ProcessGroup *pg, const at::Tensor &w,
                              int epoch) {
  int rank = pg->getRank();
  if (epoch % 10 == 0)
    if (rank == 0) {
      save(w);
      pg->barrier()->wait();
    }
}
// CHECK-NOTES: :[[@LINE-3]]:11: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:9: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-9]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-6]]:11: note: every rank must call 'barrier'; call it where all ranks pass
// CHECK-FIXES:      {{^}}  if (epoch % 10 == 0){{$}}
// CHECK-FIXES-NEXT: {{^}}    if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}      pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// The barrier names a type alias declared inside the 'if': no fix-it (moved, it would not compile).
void aliasDeclaredInsideIf(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    using Opts = c10d::BarrierOptions;
    save(w);
    pg->barrier(Opts())->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-7]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-9]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-6]]:9: note: every rank must call 'barrier'; call it where all ranks pass
// CHECK-FIXES:      {{^}}    using Opts = c10d::BarrierOptions;{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier(Opts())->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- -- %mock_flags

// When the fix-it is offered and what it produces; and that every shape it
// must not rewrite is left exactly as it was.

#include <c10d/ProcessGroup.hpp>

void save(const at::Tensor &t);
void logLine(const char *msg);
bool tryLock(int rank);

#define SYNC(pg) (pg)->barrier()->wait()

// Barrier alone in a one-line 'if': the whole 'if' becomes the barrier.
void aloneOneLine(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  if (rank == 0) { pg->barrier()->wait(); }
}
// CHECK-MESSAGES: :[[@LINE-2]]:24: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void aloneOneLine(c10d::ProcessGroup *pg) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// The condition has a side effect (a call): the 'if' stays, the barrier moves out.
void sideEffectCondition(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  if (tryLock(rank)) {
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'tryLock(rank)' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void sideEffectCondition(c10d::ProcessGroup *pg) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (tryLock(rank)) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Nested in a braced loop: the barrier moves to the if's indentation, inside the loop.
void moveInsideBracedLoop(c10d::ProcessGroup *pg, const at::Tensor &w,
                          int steps) {
  int rank = pg->getRank();
  for (int s = 0; s < steps; ++s) {
    logLine("step");
    if (rank == 0) {
      save(w);
      pg->barrier()->wait();
    }
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:11: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}    logLine("step");{{$}}
// CHECK-FIXES-NEXT: {{^}}    if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}      save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    }{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Whole-'if' replacement is safe even as the unbraced body of a loop.
void aloneInUnbracedLoop(c10d::ProcessGroup *pg, int steps) {
  int rank = pg->getRank();
  for (int s = 0; s < steps; ++s)
    if (rank == 0) {
      pg->barrier()->wait();
    }
}
// CHECK-MESSAGES: :[[@LINE-3]]:11: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void aloneInUnbracedLoop(c10d::ProcessGroup *pg, int steps) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  for (int s = 0; s < steps; ++s){{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// Options declared inside the 'if': moving the barrier out would not compile; unchanged.
void usesDeclInsideIf(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    c10d::BarrierOptions opts;
    save(w);
    pg->barrier(opts)->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void usesDeclInsideIf(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    c10d::BarrierOptions opts;{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier(opts)->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// An unbraced then-branch is not a block: no fix-it.
void unbracedThen(c10d::ProcessGroup *pg) {
  int rank = pg->getRank();
  if (rank == 0)
    pg->barrier()->wait();
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void unbracedThen(c10d::ProcessGroup *pg) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0){{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// An 'if' with an init-statement: no fix-it.
void ifWithInit(c10d::ProcessGroup *pg, const at::Tensor &w) {
  if (int r = pg->getRank(); r == 0) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'r == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}  if (int r = pg->getRank(); r == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// The 'if' has an else (that does not synchronise): no fix-it.
void ifWithElse(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    pg->barrier()->wait();
  } else {
    logLine("not saving");
  }
}
// CHECK-MESSAGES: :[[@LINE-5]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void ifWithElse(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}  } else {{{$}}

// The barrier is not the last statement: moving it would reorder the save.
void barrierNotLast(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    pg->barrier()->wait();
    save(w);
  }
}
// CHECK-MESSAGES: :[[@LINE-4]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void barrierNotLast(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// The barrier comes from a macro: no fix-it.
void barrierFromMacro(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    SYNC(pg);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void barrierFromMacro(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    SYNC(pg);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// The barrier shares its line with another statement: no fix-it.
void sharedLine(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w); pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:18: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void sharedLine(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w); pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// A trailing comment on the barrier's line: not alone on its line, no fix-it.
void trailingComment(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    pg->barrier()->wait(); // wait for the others
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void trailingComment(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait(); // wait for the others{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// No fix-it when the condition also holds a rank-independent part: moving
// the barrier out would make every rank wait on every step, not every 100th.
void everyHundredStepsOnRoot(c10d::ProcessGroup *pg, const at::Tensor &w,
                             int step) {
  if (pg->getRank() == 0 && step % 100 == 0) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'pg->getRank() == 0 && step % 100 == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}  if (pg->getRank() == 0 && step % 100 == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}

// No fix-it either behind a ! or through a flag that holds a && test.
void negatedCombinedTest(c10d::ProcessGroup *pg, const at::Tensor &w, bool v) {
  if (!(pg->getRank() == 0 && v)) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where '!(pg->getRank() == 0 && v)' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}  if (!(pg->getRank() == 0 && v)) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}
void leaderFlag(c10d::ProcessGroup *pg, const at::Tensor &w, bool v) {
  bool leader = pg->getRank() == 0 && v;
  if (leader) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'leader' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}  if (leader) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}    pg->barrier()->wait();{{$}}

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

// CHECK-FIXES:      {{^}}  if (r == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}

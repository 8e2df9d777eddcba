// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- -- %mock_flags

// NOLINT comments suppress the warning, and with it the fix-it: the file must
// come out unchanged.

#include <c10d/ProcessGroup.hpp>

void save(const at::Tensor &t);

// Suppressed (a deliberate rank-0-only barrier) with NOLINT on the call's line.
void suppressedWithNolint(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    pg->barrier()->wait(); // NOLINT(ddp-rank-gated-barrier)
  }
}

// Suppressed with NOLINTNEXTLINE; the fix-it that would exist is not applied either.
void suppressedWithNolintNextLine(c10d::ProcessGroup *pg,
                                  const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    // NOLINTNEXTLINE(ddp-rank-gated-barrier)
    pg->barrier()->wait();
  }
}

// Suppressed with a bare NOLINT (every check) on an early-exit barrier.
void suppressedEarlyExit(c10d::ProcessGroup *pg) {
  if (pg->getRank() != 0)
    return;
  pg->barrier()->wait(); // NOLINT
}

// Not suppressed: the NOLINT names a different check.
void nolintForAnotherCheck(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    pg->barrier()->wait(); // NOLINT(ddp-collective-in-rank-branch)
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]

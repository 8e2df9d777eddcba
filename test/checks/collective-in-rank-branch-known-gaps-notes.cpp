// XFAIL: *
// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Known gaps in the note chains of ddp-collective-in-rank-branch. They check
// notes, so they cannot share a file with the warning-only gaps in
// collective-in-rank-branch-known-gaps.cpp (the harness checks every note of
// a file as soon as one note is expected).

#include <c10d/ProcessGroup.hpp>

using Tensors = std::vector<at::Tensor>;

// FIXME(analysis): circular note, unchanged. The warning and the origin note
// ("'pending' is set from 'pg->getRank() + 1' here") are right, but between
// them the chain still adds "'pending' is assigned under a rank-dependent
// condition here" at `--pending`, whose condition is the loop condition being
// explained. (The analogous for loop with ++i is fixed now; see
// loopBoundIsRankNotes in collective-in-rank-branch-notes.cpp.)
void whileOnRankNotes(c10d::ProcessGroup *pg, Tensors &grads) {
  int pending = pg->getRank() + 1;
  while (pending > 0) {
    pg->broadcast(grads);
    --pending;
  }
}
// CHECK-NOTES: :[[@LINE-4]]:9: warning: 'broadcast' is called a rank-dependent number of times: the loop condition 'pending > 0' depends on the rank [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:10: note: this loop condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:17: note: 'pending' is set from 'pg->getRank() + 1' here


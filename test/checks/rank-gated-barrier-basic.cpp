// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- -- %mock_flags

#include <c10d/ProcessGroup.hpp>

void save(const at::Tensor &t);

// The classic: rank 0 saves, then waits in a barrier the others never enter.
void checkpoint(c10d::ProcessGroup *pg, const at::Tensor &weights) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(weights);
    pg->barrier()->wait();
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-6]]:9: note: every rank must call 'barrier'; move it after the 'if'
// CHECK-FIXES:      {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(weights);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}

// Rank 0 saves; every rank then meets at the barrier: correct.
void checkpointFixed(c10d::ProcessGroup *pg, const at::Tensor &weights) {
  int rank = pg->getRank();
  if (rank == 0)
    save(weights);
  pg->barrier()->wait();
}

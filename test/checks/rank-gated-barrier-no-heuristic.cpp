// RUN: %check_ddp_tidy %s ddp-rank-gated-barrier %t -- \
// RUN:   --config="{CheckOptions: {ddp-rank-gated-barrier.RankNameHeuristic: false}}" \
// RUN:   -- %mock_flags

// With RankNameHeuristic off, names alone make nothing rank-dependent. The
// harness passes --config={} first; the later --config must win, or the
// negatives below would warn.

#include <c10d/ProcessGroup.hpp>

void save(const at::Tensor &t);

// Negative: a parameter named 'rank', whose value comes from outside.
void paramNamedRank(c10d::ProcessGroup *pg, const at::Tensor &w, int rank) {
  if (rank == 0) {
    save(w);
    pg->barrier()->wait();
  }
}

// Negative: a parameter named 'is_master'.
void paramNamedIsMaster(c10d::ProcessGroup *pg, bool is_master) {
  if (!is_master)
    return;
  pg->barrier()->wait();
}

// Negative: a field named 'rank_' that this file never sets.
struct Worker {
  c10d::ProcessGroup *pg;
  int rank_;
  void sync() {
    if (rank_ == 0)
      pg->barrier()->wait();
  }
};

// Still reported: the rank from getRank() does not depend on names.
void realRankStillFound(c10d::ProcessGroup *pg, const at::Tensor &w) {
  int rank = pg->getRank();
  if (rank == 0) {
    save(w);
    pg->barrier()->wait();
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// CHECK-FIXES:      {{^}}void realRankStillFound(c10d::ProcessGroup *pg, const at::Tensor &w) {{{$}}
// CHECK-FIXES-NEXT: {{^}}  int rank = pg->getRank();{{$}}
// CHECK-FIXES-NEXT: {{^}}  if (rank == 0) {{{$}}
// CHECK-FIXES-NEXT: {{^}}    save(w);{{$}}
// CHECK-FIXES-NEXT: {{^}}  }{{$}}
// CHECK-FIXES-NEXT: {{^}}  pg->barrier()->wait();{{$}}
// CHECK-FIXES-NEXT: {{^}}}{{$}}

// XFAIL: *
// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Known gaps of ddp-collective-in-rank-branch. Every expectation here says
// what the code means (would it hang with 2 ranks?); the check currently
// disagrees, as each FIXME explains. A case without CHECK lines must stay
// silent (the harness rejects any warning that is not expected). When a gap
// is fixed, move its case to the matching main file.
// test/split_known_gaps.py runs each case of such a file on its own.

#include <c10d/ProcessGroup.hpp>
#include <stdexcept>

using Tensors = std::vector<at::Tensor>;
void logLine(const char *msg);

// --- False negatives (these hang, and are missed) ---

// FIXME(analysis): false negative: still no warning at all. The destructor of
// a scope guard reduces; the CFG is built without implicit destructors, so
// the collective that runs at the end of rank 0's block is never seen.
struct SyncOnExit {
  c10d::ProcessGroup *pg;
  Tensors &grads;
  ~SyncOnExit() { pg->allreduce(grads); }
};
void raiiDestructorCollective(c10d::ProcessGroup *pg, Tensors &grads) {
  if (pg->getRank() == 0) {
    SyncOnExit guard{pg, grads};
    logLine("rank 0 work");
  }
}
// CHECK-MESSAGES: :{{[0-9]+}}:{{[0-9]+}}: warning: 'allreduce' in '{{~?}}SyncOnExit' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

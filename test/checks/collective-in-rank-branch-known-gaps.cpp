// XFAIL: *
// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Known gaps of ddp-collective-in-rank-branch. Every expectation here says
// what the code means (would it hang with 2 ranks?); the check currently
// disagrees, as each FIXME explains. A case without CHECK lines must stay
// silent (the harness rejects any warning that is not expected). When a gap
// is fixed, move its case to the matching main file.
// Gaps in the notes are in collective-in-rank-branch-known-gaps-notes.cpp.
// test/split_known_gaps.py runs each case of such a file on its own.

#include <c10d/ProcessGroup.hpp>
#include <stdexcept>

using Tensors = std::vector<at::Tensor>;
void logLine(const char *msg);

// --- False positives (these cannot hang, and must stay silent) ---

// FIXME(analysis): false positive. meanLoss returns an allreduced value, the
// same on every rank, but the check still takes its result to be
// rank-dependent because its argument `local` is. It warns "'allreduce' is
// skipped by ranks that leave early when 'meanLoss(pg, local) < 0.1f'" and
// explains it with "'local' is set from 'pg->getRank() * 0.5f' here".
float meanLoss(c10d::ProcessGroup *pg, float local) {
  std::vector<at::Tensor> v{torch::tensor(local)};
  pg->allreduce(v)->wait();
  return v[0].item<float>() / pg->getSize();
}
void stopOnMeanLoss(c10d::ProcessGroup *pg, Tensors &grads) {
  float local = pg->getRank() * 0.5f;
  if (meanLoss(pg, local) < 0.1f)
    return;
  pg->allreduce(grads);
}

// FIXME(analysis): false positive. A LoRA hyperparameter named `rank` in a
// config struct is still taken to be the process rank by the name heuristic:
// "'allreduce' is reached only by ranks where 'lora.rank > 8'", with the note
// "'rank' is taken to hold the rank because of its name; its value is set
// outside the code analysed" on the field.
struct LoraConfig {
  int rank;
  float alpha;
};
void loraRankField(c10d::ProcessGroup *pg, Tensors &grads,
                   const LoraConfig &lora) {
  if (lora.rank > 8)
    pg->allreduce(grads);
}

// FIXME(analysis): false positive. The throw is caught in the same function,
// so every rank reaches the allreduce, but the check takes the throw for an
// exit: it warns "'allreduce' is skipped by ranks that leave early when
// 'pg->getRank() == 0'" with the note "ranks where 'pg->getRank() == 0'
// leave here (throw) and never reach 'allreduce'". (The self-referential
// "the other ranks call 'allreduce' here instead" note is gone.)
void throwCaughtLocally(c10d::ProcessGroup *pg, Tensors &grads) {
  try {
    if (pg->getRank() == 0)
      throw std::runtime_error("rank 0 only");
  } catch (const std::exception &) {
    logLine("recovered");
  }
  pg->allreduce(grads);
}

// FIXME(analysis): false negative: still no warning at all. A user
// constructor that broadcasts (as a DDP-style model wrapper does) is not a
// call site (CXXConstructExpr is not a CallExpr), so constructing it on rank
// 0 only is not reported.
struct DistributedModel {
  DistributedModel(c10d::ProcessGroup *pg, Tensors &params) {
    pg->broadcast(params);
  }
};
void constructorCollective(c10d::ProcessGroup *pg, Tensors &params) {
  if (pg->getRank() == 0) {
    DistributedModel model(pg, params);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:{{[0-9]+}}: warning: 'broadcast' in 'DistributedModel' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

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

// FIXME(analysis): false negative for this check: it still says nothing. Only
// rank 0 broadcasts, but a barrier comes first on that side; the finding is
// classified as a barrier finding, and ddp-rank-gated-barrier reports only
// the barrier ("'barrier' is reached only by ranks where
// 'pg->getRank() == 0'"), so the rank-gated broadcast is reported by neither
// check.
void barrierBeforeBroadcast(c10d::ProcessGroup *pg, Tensors &params) {
  if (pg->getRank() == 0) {
    pg->barrier()->wait();
    pg->broadcast(params);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'broadcast' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// --- Wrong or misleading messages (the warning is right, its text is not) ---



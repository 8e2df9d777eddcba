// XFAIL: *
// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Known gaps of ddp-collective-in-rank-branch. Every expectation here says
// what the code means (would it hang with 2 ranks?); the check currently
// disagrees, as each FIXME explains. A case without CHECK lines must stay
// silent (the harness rejects any warning that is not expected). When a gap
// is fixed, move its case to the matching main file.
// Gaps in the notes are in collective-in-rank-branch-known-gaps-notes.cpp;
// the crash is in collective-in-rank-branch-known-gaps-crash.cpp (a crash
// would hide every other case of this file).

#include <c10d/ProcessGroup.hpp>
#include <mpi.h>
#include <cstdlib>
#include <stdexcept>

using Tensors = std::vector<at::Tensor>;
void logLine(const char *msg);

// --- False positives (these cannot hang, and must stay silent) ---

// FIXME(analysis): false positive. meanLoss returns an allreduced value,
// the same on every rank, but the check takes any call with a rank-dependent
// argument (`local`) to return a rank-dependent value, even when it analysed
// the callee's body and found its return uniform.
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

// FIXME(analysis): false positive. `rank < n` holds on every rank because n
// comes from getSize(); the check only recognises the world size by a
// direct getSize() call or a conventional name (world_size, nprocs...), not
// by the data flow it already tracks.
void rankBelowSizeNamedN(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  int n = pg->getSize();
  if (rank < n)
    pg->allreduce(grads);
}

// FIXME(analysis): false positive. A LoRA hyperparameter named `rank` in a
// config struct is taken to be the process rank by the name heuristic.
struct LoraConfig {
  int rank;
  float alpha;
};
void loraRankField(c10d::ProcessGroup *pg, Tensors &grads,
                   const LoraConfig &lora) {
  if (lora.rank > 8)
    pg->allreduce(grads);
}

// FIXME(analysis): false positive with a self-referential note. The throw is
// caught in the same function, so every rank reaches the allreduce; the check
// warns on the allreduce and adds "the other ranks call 'allreduce' here
// instead" pointing at that same call.
void throwCaughtLocally(c10d::ProcessGroup *pg, Tensors &grads) {
  try {
    if (pg->getRank() == 0)
      throw std::runtime_error("rank 0 only");
  } catch (const std::exception &) {
    logLine("recovered");
  }
  pg->allreduce(grads);
}

// FIXME(analysis): false positive. Ranks 0-3 reduce on their own
// sub-communicator (colour 1), which only they belong to; the other ranks are
// not members and must not call it. The check does not look at the
// communicator argument.
void subCommunicatorMembers(const float *in, float *out, int n) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm sub;
  MPI_Comm_split(MPI_COMM_WORLD, r < 4, r, &sub);
  if (r < 4)
    MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, sub);
}

// --- False negatives (these hang, and must be reported) ---

// FIXME(analysis): false negative. The rank is written through a reference
// parameter by a user helper; the caller's `r` is not seen as rank-dependent
// (divergence flows into parameters, never back out of them).
void queryRank(c10d::ProcessGroup *pg, int &out) { out = pg->getRank(); }
void rankThroughRefOutParam(c10d::ProcessGroup *pg, Tensors &grads) {
  int r = -1;
  queryRank(pg, r);
  if (r == 0)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'r == 0' [ddp-collective-in-rank-branch]

// FIXME(analysis): false negative. A thin wrapper around MPI_Comm_rank with
// a pointer out-parameter (a very common MPI idiom) hides the rank.
void get_rank(int *out) { MPI_Comm_rank(MPI_COMM_WORLD, out); }
void rankThroughMpiWrapper(float *buf, int n) {
  int me;
  get_rank(&me);
  if (me == 0)
    MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Bcast' is reached only by ranks where 'me == 0' [ddp-collective-in-rank-branch]

// FIXME(analysis): false negative. A user constructor that broadcasts (as a
// DDP-style model wrapper does) is not a call site: CXXConstructExpr is not a
// CallExpr, so constructing it on rank 0 only is not reported.
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

// FIXME(analysis): false negative. The destructor of a scope guard reduces;
// the CFG is built without implicit destructors, so the collective that runs
// at the end of rank 0's block is never seen.
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

// FIXME(analysis): false negative for this check. Only rank 0 broadcasts, but
// a barrier comes first on that side; the finding is then classified as a
// barrier finding, handed to ddp-rank-gated-barrier (which reports only the
// barrier), and the rank-gated broadcast is reported by neither check.
void barrierBeforeBroadcast(c10d::ProcessGroup *pg, Tensors &params) {
  if (pg->getRank() == 0) {
    pg->barrier()->wait();
    pg->broadcast(params);
  }
}
// CHECK-MESSAGES: :[[@LINE-3]]:9: warning: 'broadcast' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]

// FIXME(analysis): false negative (since the rebuild of 09:16 with the
// clean-exit change). The workers end normally through a user [[noreturn]]
// wrapper around std::exit(0), and rank 0 then waits in the allreduce for
// ever. The check now takes only calls named exit/_exit/_Exit/quick_exit with
// a constant status 0 as clean exits, and drops every other noreturn path from
// the comparison as a job failure, so the hang is missed.
[[noreturn]] void leaveCleanly() { std::exit(0); }
void noreturnOnWorkers(c10d::ProcessGroup *pg, Tensors &grads) {
  if (pg->getRank() != 0)
    leaveCleanly();
  pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'pg->getRank() != 0' [ddp-collective-in-rank-branch]

// --- Wrong or misleading messages (the warning is right, its text is not) ---

// FIXME(analysis): wrong condition in the message. Ranks 0 and 1 reduce; the
// warning says "only by ranks where 'rank == 1'" (the right operand of ||),
// which is false for rank 0.
void orOfRankTests(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0 || rank == 1)
    pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'rank == 0 || rank == 1' [ddp-collective-in-rank-branch]

// FIXME(analysis): wrong condition in the message. Ranks other than 0 and 1
// return; the warning says ranks "leave early when 'rank != 1'", but rank 0
// (where rank != 1) stays and reduces.
void andOfRankTestsEarlyExit(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank != 0 && rank != 1)
    return;
  pg->allreduce(grads);
}
// CHECK-MESSAGES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'rank != 0 && rank != 1' [ddp-collective-in-rank-branch]

// FIXME(analysis): misleading message (cosmetic). A lambda called under a
// rank condition is named 'operator()' ("'allreduce' in 'operator()'"), a
// name that appears nowhere in the user's code; it should be the variable
// the lambda is called through.
void lambdaUnderRankNamed(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  auto syncGrads = [&] { pg->allreduce(grads)->wait(); };
  if (rank == 0)
    syncGrads();
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'allreduce' in 'syncGrads' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]

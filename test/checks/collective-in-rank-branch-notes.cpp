// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// Full note chains (condition, origin of the rank dependence, early exit,
// the other side's collective, helper call chain) for representative cases.

#include <c10d/ProcessGroup.hpp>
#include <cstdlib>
#include <mpi.h>

using Tensors = std::vector<at::Tensor>;
void logLine(const char *msg);

// Rank 0 alone reduces: the chain goes back to getRank().
void notesBasic(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0)
    pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:14: note: 'rank' is set from 'pg->getRank()' here

// The other ranks return first; the note shows where they leave.
void notesEarlyReturn(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank != 0)
    return;
  pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'rank != 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-7]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-6]]:5: note: ranks where 'rank != 0' leave here (return) and never reach 'allreduce'

// Odd ranks `continue` past the allreduce.
void notesContinue(c10d::ProcessGroup *pg, Tensors &grads, int steps) {
  int rank = pg->getRank();
  for (int s = 0; s < steps; ++s) {
    if (rank % 2 == 1)
      continue;
    pg->allreduce(grads);
  }
}
// CHECK-NOTES: :[[@LINE-3]]:9: warning: 'allreduce' is skipped by ranks that leave early when 'rank % 2 == 1' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:9: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-9]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-7]]:7: note: ranks where 'rank % 2 == 1' leave here (continue) and never reach 'allreduce'

// Rank 0 reduces while the others broadcast: the note shows the other call.
void notesInstead(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0)
    pg->allreduce(grads);
  else
    pg->broadcast(grads);
}
// CHECK-NOTES: :[[@LINE-4]]:9: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-6]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-5]]:9: note: the other ranks call 'broadcast' here instead

// A helper that averages the gradients (called under a rank condition below).
void averageGrads(c10d::ProcessGroup *pg, Tensors &grads) {
  pg->allreduce(grads);
}

// Rank 0 alone calls the helper: warning on the call, note in the helper.
void notesHelper(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  if (rank == 0)
    averageGrads(pg, grads);
}
// CHECK-NOTES: :[[@LINE-2]]:5: warning: 'allreduce' in 'averageGrads' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-12]]:3: note: 'averageGrads' calls 'allreduce' here

// Two levels of helpers between the branch and the collective.
void reduceBuckets(c10d::ProcessGroup *pg, Tensors &grads) {
  pg->allreduce_coalesced(grads);
}
void finishStep(c10d::ProcessGroup *pg, Tensors &grads) {
  logLine("step done");
  reduceBuckets(pg, grads);
}
void notesTwoLevels(c10d::ProcessGroup *pg, Tensors &grads) {
  if (pg->getRank() == 0)
    finishStep(pg, grads);
}
// CHECK-NOTES: :[[@LINE-2]]:5: warning: 'allreduce_coalesced' in 'finishStep' is reached only by ranks where 'pg->getRank() == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:7: note: 'pg->getRank()' returns the rank of this process
// CHECK-NOTES: :[[@LINE-9]]:3: note: 'finishStep' calls 'reduceBuckets' here
// CHECK-NOTES: :[[@LINE-14]]:3: note: 'reduceBuckets' calls 'allreduce_coalesced' here

// The rank read from the RANK environment variable (torchrun).
void notesEnvRank(c10d::ProcessGroup *pg, Tensors &params) {
  const char *env = std::getenv("RANK");
  int r = std::atoi(env);
  if (r == 0)
    pg->broadcast(params);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'broadcast' is reached only by ranks where 'r == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:11: note: 'r' is set from 'std::atoi(env)' here
// CHECK-NOTES: :[[@LINE-8]]:21: note: 'env' is set from 'std::getenv("RANK")' here

// A boolean derived from the rank.
void notesIsMaster(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  bool is_master = rank == 0;
  if (is_master)
    pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'is_master' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:20: note: 'is_master' is set from 'rank == 0' here
// CHECK-NOTES: :[[@LINE-8]]:14: note: 'rank' is set from 'pg->getRank()' here

// A predicate function that returns a rank-dependent value.
bool isMain(c10d::ProcessGroup *pg) {
  return pg->getRank() == 0;
}
void notesIsMain(c10d::ProcessGroup *pg, Tensors &grads) {
  if (isMain(pg))
    pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'isMain(pg)' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-8]]:3: note: 'isMain' returns a rank-dependent value here
// CHECK-NOTES: :[[@LINE-9]]:10: note: 'pg->getRank()' returns the rank of this process

// The rank kept in a field (with a name that does not look like a rank),
// set in the constructor and tested in a method.
class Trainer {
public:
  explicit Trainer(c10d::ProcessGroup *pg) : pg_(pg), who_(pg->getRank()) {}
  void step(Tensors &grads) {
    if (who_ == 0)
      pg_->allreduce(grads);
  }

private:
  c10d::ProcessGroup *pg_;
  int who_;
};
// CHECK-NOTES: :[[@LINE-7]]:12: warning: 'allreduce' is reached only by ranks where 'who_ == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-9]]:9: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-12]]:60: note: 'who_' is set from 'pg->getRank()' here

// The rank passed to a parameter whose name says nothing about it.
void syncIfFirst(c10d::ProcessGroup *pg, Tensors &grads, int who) {
  if (who == 0)
    pg->allreduce(grads);
}
void callsWithRank(c10d::ProcessGroup *pg, Tensors &grads) {
  syncIfFirst(pg, grads, pg->getRank());
}
// CHECK-NOTES: :[[@LINE-5]]:9: warning: 'allreduce' is reached only by ranks where 'who == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-7]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-4]]:26: note: 'who' receives a rank-dependent argument here
// CHECK-NOTES: :[[@LINE-5]]:26: note: 'pg->getRank()' returns the rank of this process

// A parameter named like a rank, whose value comes from outside this file.
void notesRankParam(c10d::ProcessGroup *pg, Tensors &grads, int rank) {
  if (rank == 0)
    pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:65: note: 'rank' is taken to hold the rank because of its name; its value is set outside the code analysed

// A flag set under a rank condition is rank-dependent afterwards.
void notesLeaderFlag(c10d::ProcessGroup *pg, Tensors &grads) {
  bool leader = false;
  if (pg->getRank() == 0)
    leader = true;
  if (leader)
    pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'leader' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:5: note: 'leader' is assigned under a rank-dependent condition here
// CHECK-NOTES: :[[@LINE-8]]:7: note: 'pg->getRank()' returns the rank of this process

// MPI: the rank written by MPI_Comm_rank.
void notesMpi(float *buf, int n) {
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  if (r == 0)
    MPI_Bcast(buf, n, MPI_FLOAT, 0, MPI_COMM_WORLD);
}
// CHECK-NOTES: :[[@LINE-2]]:5: warning: 'MPI_Bcast' is reached only by ranks where 'r == 0' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:3: note: 'r' is set to the rank by 'MPI_Comm_rank' here

// A loop bounded by the rank: the chain goes from the loop condition straight to getRank().
void loopBoundIsRankNotes(c10d::ProcessGroup *pg, Tensors &grads) {
  int rank = pg->getRank();
  for (int i = 0; i < rank; ++i)
    pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called a rank-dependent number of times: the loop condition 'i < rank' depends on the rank [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:19: note: this loop condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:14: note: 'rank' is set from 'pg->getRank()' here

// A range-for over rank-dependent buckets: the notes skip the compiler's hidden variables.
std::vector<int> bucketsFor(int rank);
void rangeForNotes(c10d::ProcessGroup *pg, Tensors &grads) {
  for (int b : bucketsFor(pg->getRank()))
    pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is called a rank-dependent number of times: the range of the loop 'bucketsFor(pg->getRank())' depends on the rank [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:16: note: the length of this range depends on the rank
// CHECK-NOTES: :[[@LINE-5]]:27: note: 'pg->getRank()' returns the rank of this process

// A loop counting down from the rank: the notes explain the condition by the
// rank, not by the loop's own decrement.
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

// An || early exit: the note points at the return.
void returnUnlessRootQuiet(c10d::ProcessGroup *pg, Tensors &t, bool verbose) {
  int rank = pg->getRank();
  if (rank != 0 || verbose)
    return;
  pg->allreduce(t);
}
// CHECK-NOTES: :[[@LINE-2]]:7: warning: 'allreduce' is skipped by ranks that leave early when 'rank != 0 || verbose' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-5]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-7]]:14: note: 'rank' is set from 'pg->getRank()' here
// CHECK-NOTES: :[[@LINE-6]]:5: note: ranks where 'rank != 0 || verbose' leave here (return) and never reach 'allreduce'

// A long chain keeps its first six links and its last two, which name the
// source of the rank; one note stands for the links between them.
void longChain(c10d::ProcessGroup *pg, Tensors &grads) {
  int r0 = pg->getRank();
  int r1 = r0 + 1;
  int r2 = r1 + 1;
  int r3 = r2 + 1;
  int r4 = r3 + 1;
  int r5 = r4 + 1;
  int r6 = r5 + 1;
  int r7 = r6 + 1;
  int r8 = r7 + 1;
  int r9 = r8 + 1;
  if (r9 == 9)
    pg->allreduce(grads);
}
// CHECK-NOTES: :[[@LINE-2]]:9: warning: 'allreduce' is reached only by ranks where 'r9 == 9' [ddp-collective-in-rank-branch]
// CHECK-NOTES: :[[@LINE-4]]:7: note: this condition depends on the rank
// CHECK-NOTES: :[[@LINE-6]]:12: note: 'r9' is set from 'r8 + 1' here
// CHECK-NOTES: :[[@LINE-8]]:12: note: 'r8' is set from 'r7 + 1' here
// CHECK-NOTES: :[[@LINE-10]]:12: note: 'r7' is set from 'r6 + 1' here
// CHECK-NOTES: :[[@LINE-12]]:12: note: 'r6' is set from 'r5 + 1' here
// CHECK-NOTES: :[[@LINE-14]]:12: note: 'r5' is set from 'r4 + 1' here
// CHECK-NOTES: :[[@LINE-16]]:12: note: 'r4' is set from 'r3 + 1' here
// CHECK-NOTES: :[[@LINE-18]]:12: note: 2 more steps from here lead to the source
// CHECK-NOTES: :[[@LINE-21]]:12: note: 'r1' is set from 'r0 + 1' here
// CHECK-NOTES: :[[@LINE-23]]:12: note: 'r0' is set from 'pg->getRank()' here

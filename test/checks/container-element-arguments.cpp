// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A list whose elements alone depend on the rank (each rank's shard) has
// the same length on every rank in a helper it is passed to whole, as it
// has in its own function (test/checks/returned-container-elements.cpp).
// Twins, reported: a helper that some call passes a list sized by the rank
// (that call decides, whichever the other passes), an element of the shard
// tested in the helper, and an element passed alone.
// Left as before (docs/design.md): a helper that returns the length, whose
// summary says its result depends on the list, is still taken to return a
// rank-dependent value for a shard.

#include <mpi.h>

#include <vector>

static std::vector<float> shardOf(const std::vector<float> &All, int Rank) {
  std::vector<float> Out(4);
  for (int I = 0; I < 4; ++I)
    Out[I] = All[Rank * 4 + I];
  return Out;
}

// Passed a shard, directly and through another helper: silent.
void reduceEach(std::vector<float> &Values) {
  for (size_t I = 0; I < Values.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Values[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
  if (!Values.empty())
    MPI_Barrier(MPI_COMM_WORLD);
}
void reduceThrough(std::vector<float> &Values) { reduceEach(Values); }

void train(const std::vector<float> &All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine = shardOf(All, Rank);
  reduceEach(Mine);
  std::vector<float> Copy = Mine;
  reduceThrough(Copy);
}

// Twin, reported: one call passes a shard, another a list sized by the rank.
void reduceEither(std::vector<float> &Values) {
  for (size_t I = 0; I < Values.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Values[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is called a rank-dependent number of times: the loop condition 'I < Values.size()' depends on the rank [ddp-collective-in-rank-branch]
// LINT: container-element-arguments.cpp:[[@LINE-5]]:22: warning: the number of 'MPI_Allreduce' calls depends on the rank [ddp-rank-dependent-loop]
// LINT-NEXT: the loop condition depends on the rank: 'Values' receives a rank-dependent argument at container-element-arguments.cpp:[[@LINE+8]]:16

void shardFirst(const std::vector<float> &All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine = shardOf(All, Rank);
  reduceEither(Mine);
  std::vector<float> Scores(Rank + 2);
  reduceEither(Scores);
}

// Twin, reported: an element of the shard tested in the helper.
void firstPositive(const std::vector<float> &Values) {
  if (Values[0] > 0)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'Values[0] > 0' [ddp-rank-gated-barrier]
// LINT: container-element-arguments.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

void tested(const std::vector<float> &All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine = shardOf(All, Rank);
  firstPositive(Mine);
}

// Twin, reported: an element passed alone.
void positive(const float &Value) {
  if (Value > 0)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'Value > 0' [ddp-rank-gated-barrier]
// LINT: container-element-arguments.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

void element(const std::vector<float> &All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine = shardOf(All, Rank);
  positive(Mine[0]);
}

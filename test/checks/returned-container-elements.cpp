// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A container whose elements alone depend on the rank (each rank's shard
// of a tensor, of a table) has the same length on every rank, whether it
// is filled in place, copied, or returned by a helper. Found in a training
// framework whose tensor-parallel scatter returns each rank's shard from a
// helper: the autograd engine's loops over the returned gradients were
// reported, while the same loops over a shard filled in place were not.
// Twins, reported: a helper whose result's length depends on the rank
// (uneven splits), one that returns another container on some ranks, a
// container resized by the rank on one arm of a join, and one resized by
// the rank (these two were missed before: `resize(rank + 1)` counted as
// writing an element, and a join kept the side that wrote elements only).

#include <mpi.h>

#include <vector>

std::vector<float> shard(const std::vector<float> &All, int Rank) {
  std::vector<float> Out(4);
  for (int I = 0; I < 4; ++I)
    Out[I] = All[Rank * 4 + I];
  return Out;
}

// Filled in place: silent.
void inPlace(const std::vector<float> &All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine(4);
  for (int I = 0; I < 4; ++I)
    Mine[I] = All[Rank * 4 + I];
  for (size_t I = 0; I < Mine.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Mine[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}

// Returned by a helper, and copied: silent.
void returned(const std::vector<float> &All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine = shard(All, Rank);
  for (size_t I = 0; I < Mine.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Mine[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
  std::vector<float> Copy = Mine;
  if (!Copy.empty())
    MPI_Barrier(MPI_COMM_WORLD);
}

// Twin, reported: each rank's share has its own length.
std::vector<float> unevenShard(const std::vector<float> &All,
                               const std::vector<int> &Counts, int Rank) {
  std::vector<float> Out(Counts[Rank]);
  for (int I = 0; I < Counts[Rank]; ++I)
    Out[I] = All[I];
  return Out;
}

void uneven(const std::vector<float> &All, const std::vector<int> &Counts) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine = unevenShard(All, Counts, Rank);
  for (size_t I = 0; I < Mine.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Mine[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is called a rank-dependent number of times: the loop condition 'I < Mine.size()' depends on the rank [ddp-collective-in-rank-branch]
// LINT: returned-container-elements.cpp:[[@LINE-5]]:22: warning: the number of 'MPI_Allreduce' calls depends on the rank [ddp-rank-dependent-loop]

// Twin, reported: rank 0 returns a longer list than the others.
std::vector<float> leaderGetsMore(const std::vector<float> &All, int Rank) {
  std::vector<float> Out(4);
  for (int I = 0; I < 4; ++I)
    Out[I] = All[Rank * 4 + I];
  if (Rank == 0)
    return All;
  return Out;
}

void leader(const std::vector<float> &All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine = leaderGetsMore(All, Rank);
  for (size_t I = 0; I < Mine.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Mine[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is called a rank-dependent number of times: the loop condition 'I < Mine.size()' depends on the rank [ddp-collective-in-rank-branch]
// LINT: returned-container-elements.cpp:[[@LINE-5]]:22: warning: the number of 'MPI_Allreduce' calls depends on the rank [ddp-rank-dependent-loop]

// Twin, reported: one way fills a shard, the other resizes by the rank.
void joined(const std::vector<float> &All, bool Fill) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine(4);
  if (Fill) {
    for (int I = 0; I < 4; ++I)
      Mine[I] = All[Rank * 4 + I];
  } else {
    Mine.resize(Rank + 1);
  }
  for (size_t I = 0; I < Mine.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Mine[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is called a rank-dependent number of times: the loop condition 'I < Mine.size()' depends on the rank [ddp-collective-in-rank-branch]
// LINT: returned-container-elements.cpp:[[@LINE-5]]:22: warning: the number of 'MPI_Allreduce' calls depends on the rank [ddp-rank-dependent-loop]

// Two elements written, then pushed alike on every rank: silent.
void twoWrites(const std::vector<float> &All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine(2);
  Mine[0] = All[Rank];
  Mine[1] = All[Rank + 1];
  Mine.push_back(All[Rank + 2]);
  for (size_t I = 0; I < Mine.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Mine[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}

// Twin, reported (before, the count was taken for an element value): a
// container resized by the rank.
void resized(const std::vector<float> &All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Mine(4);
  Mine.resize(Rank + 1);
  for (size_t I = 0; I < Mine.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Mine[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is called a rank-dependent number of times: the loop condition 'I < Mine.size()' depends on the rank [ddp-collective-in-rank-branch]
// LINT: returned-container-elements.cpp:[[@LINE-5]]:22: warning: the number of 'MPI_Allreduce' calls depends on the rank [ddp-rank-dependent-loop]

// Filled with the rank, copied into a list of buffers alike on every rank:
// silent (flashlight's distributed test fills each tensor with rank + 1).
void filled() {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Values(1024, Rank + 1.0f);
  std::vector<std::vector<float>> Buffers;
  for (int I = 0; I < 5; ++I)
    Buffers.push_back(std::vector<float>(16, Rank * 2.0f));
  for (size_t I = 0; I < Values.size(); I += 256)
    MPI_Allreduce(MPI_IN_PLACE, &Values[I], 256, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
  for (size_t I = 0; I < Buffers.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, Buffers[I].data(), 16, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}

// Twin, reported: sized by the rank.
void sized() {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  std::vector<float> Values(Rank + 1, 1.0f);
  for (size_t I = 0; I < Values.size(); ++I)
    MPI_Allreduce(MPI_IN_PLACE, &Values[I], 1, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is called a rank-dependent number of times: the loop condition 'I < Values.size()' depends on the rank [ddp-collective-in-rank-branch]
// LINT: returned-container-elements.cpp:[[@LINE-5]]:22: warning: the number of 'MPI_Allreduce' calls depends on the rank [ddp-rank-dependent-loop]

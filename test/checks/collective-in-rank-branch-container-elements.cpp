// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// Writing an element of a sequence container (`v[i] = x`, `v.at(i) = x` on
// a std::vector, std::array, std::deque or string) leaves its length alone:
// a loop over `v.size()` runs as often on every rank, whatever the elements
// hold. Each case has its reported twin: a vector grown on some ranks, a
// map written by key (its operator[] inserts), a loop bounded by an element.

#include <cstddef>
#include <map>
#include <vector>
#include <mpi.h>

unsigned long checksum(const float *buf, int n);

// marian's syncParametersAndShards: each rank hashes its own parameters into
// its slot, then every slot is broadcast from its owner.
void compareHashes(const float *params, int n) {
  int rank, world;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  std::vector<unsigned long> hashes(world, 0);
  for (int i = 0; i < (int)hashes.size(); i++)
    if (i == rank)
      hashes[i] = checksum(params, n);
  for (int i = 0; i < (int)hashes.size(); i++)
    MPI_Bcast(&hashes[i], 1, MPI_UNSIGNED_LONG, i, MPI_COMM_WORLD);
}

void writeOwnSlot(int world) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> owners(world, -1);
  owners.at(rank) = rank;
  for (std::size_t i = 0; i < owners.size(); i++)
    MPI_Bcast(&owners[i], 1, MPI_INT, (int)i, MPI_COMM_WORLD);
  std::vector<int> firsts(world, 0);
  firsts[0] = rank;
  if (!firsts.empty())
    MPI_Barrier(MPI_COMM_WORLD);
}

// Twins: a vector grown on some ranks, a map written by key (operator[]
// inserts), and a loop over a slot's value.
void growOnRoot(int world) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> owners(world, -1);
  if (rank == 0)
    owners.push_back(0);
  for (std::size_t i = 0; i < owners.size(); i++)
    MPI_Bcast(&owners[i], 1, MPI_INT, (int)i, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Bcast' is called a rank-dependent number of times: the loop condition 'i < owners.size()' depends on the rank [ddp-collective-in-rank-branch]
// LINT: container-elements.cpp:[[@LINE-4]]:27: warning: the number of 'MPI_Bcast' calls depends on the rank [ddp-rank-dependent-loop]

void mapSlot() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::map<int, int> owners;
  if (rank == 0)
    owners[0] = 1;
  for (std::size_t i = 0; i < owners.size(); i++)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < owners.size()' depends on the rank [ddp-rank-gated-barrier]
// LINT: container-elements.cpp:[[@LINE-4]]:27: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]

void loopOverSlot(int world) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  std::vector<int> counts(world, 0);
  counts[rank] = rank + 1;
  for (int i = 0; i < counts[rank]; i++)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < counts[rank]' depends on the rank [ddp-rank-gated-barrier]
// LINT: container-elements.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
// LINT: 3 findings in 1 translation unit

// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A throw that nothing catches on its way out of main, or out of a function
// that cannot throw, ends the process (std::terminate): the rank fails, and
// the launcher stops the others. Found in mscclpp's tests: a peer list built
// by a loop that skips this rank, then a consistency check of its size that
// throws. Twins, reported: the same throw out of an ordinary function (a
// caller may catch it and go on), and a throw that main itself catches
// before the collective it skipped.

#include <mpi.h>
#include <stdexcept>
#include <vector>

bool loadShard(int Rank);

void checkedSetup(int Rank) noexcept {
  if (!loadShard(Rank))
    throw std::runtime_error("no shard");
  MPI_Barrier(MPI_COMM_WORLD);
}

void catchableSetup(int Rank) {
  if (!loadShard(Rank))
    throw std::runtime_error("no shard");
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is skipped by ranks that leave early when '!loadShard(Rank)' [ddp-rank-gated-barrier]
}
// LINT: uncaught-throw.cpp:26:7: warning: ranks can issue different collective sequences [ddp-collective-order]

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int Rank, Size;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  MPI_Comm_size(MPI_COMM_WORLD, &Size);
  std::vector<int> Peers;
  for (int R = 0; R < Size; ++R) {
    if (R == Rank)
      continue;
    Peers.push_back(R);
  }
  if (Peers.size() != size_t(Size - 1))
    throw std::runtime_error("bad peer list");
  MPI_Barrier(MPI_COMM_WORLD);

  try {
    if (!loadShard(Rank))
      throw std::runtime_error("no shard");
    MPI_Allreduce(MPI_IN_PLACE, &Size, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    // CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Allreduce' is skipped by ranks that leave early when '!loadShard(Rank)' [ddp-collective-in-rank-branch]
  } catch (const std::exception &) {
  }
  MPI_Finalize();
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Finalize' in a 'catch' handler is reached only by ranks where 'loadShard(Rank)' throws [ddp-collective-in-rank-branch]
}
// LINT: uncaught-throw.cpp:49:9: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT: uncaught-throw.cpp:49:10: warning: ranks can issue different collective sequences [ddp-collective-order]

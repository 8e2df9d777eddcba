// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck --check-prefix=LINT --input-file=%t.lint.txt %s

// A failed GoogleTest assertion (ASSERT_*, FAIL()) returns from the test:
// the test has failed, whatever the other ranks do next, so that return is a
// failure path, not a rank leaving early. A test that one rank skips
// (GTEST_SKIP(), which returns the same way) has not failed: the other ranks
// wait in the barrier for it.

#include <gtest/gtest.h>
#include <mpi.h>

static int worldRank() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int exchangeWithPeers(int rank);

TEST(Exchange, AssertsThenSynchronises) {
  int rank = worldRank();
  ASSERT_EQ(exchangeWithPeers(rank), 0);
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(Exchange, FailsOnOneRank) {
  int rank = worldRank();
  if (rank == 0 && exchangeWithPeers(rank) != 0)
    FAIL() << "rank 0 could not exchange";
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(Exchange, SkipsOnOneRank) {
  if (worldRank() == 0)
    GTEST_SKIP() << "rank 0 has no peer";
  MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:3: warning: 'MPI_Barrier' is skipped by ranks that leave early when 'worldRank() == 0' [ddp-rank-gated-barrier]
// LINT: test-assertion-failure.cpp:[[@LINE-5]]:7: warning: ranks can issue different collective sequences
// LINT: 1 finding in 1 translation unit

// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A test framework of a project's own (mscclpp's test/framework.hpp) whose
// fatal assertions, named as GoogleTest's are, report the failure and throw
// out of the test: the test has failed, whatever the other ranks do next, so
// that throw is a failure path, not a rank leaving early. Twins, reported:
// the same throw written out in the test, and one from a macro that is not
// an assertion (a caller may catch either and go on).

#include <mpi.h>
#include <stdexcept>

void reportFailure(const char *File, int Line, const char *Message);

#define ASSERT_TRUE(condition)                                                 \
  do {                                                                         \
    if (!(condition)) {                                                        \
      reportFailure(__FILE__, __LINE__, "Expected: " #condition);              \
      throw std::runtime_error("Test assertion failed");                       \
    }                                                                          \
  } while (0)

#define RETRY_OR_THROW(condition)                                              \
  do {                                                                         \
    if (!(condition))                                                          \
      throw std::runtime_error("gave up");                                     \
  } while (0)

bool peersWroteTheirBlocks(int Rank);

static int worldRank() {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  return Rank;
}

void assertsThenSynchronises() {
  ASSERT_TRUE(peersWroteTheirBlocks(worldRank()));
  MPI_Barrier(MPI_COMM_WORLD);
}

void throwsThenSynchronises() {
  if (!peersWroteTheirBlocks(worldRank()))
    throw std::runtime_error("blocks missing");
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is skipped by ranks that leave early when '!peersWroteTheirBlocks(worldRank())' [ddp-rank-gated-barrier]
}
// LINT: assertion-macro-throw.cpp:45:7: warning: ranks can issue different collective sequences [ddp-collective-order]

void retriesThenSynchronises() {
  RETRY_OR_THROW(peersWroteTheirBlocks(worldRank()));
  MPI_Barrier(MPI_COMM_WORLD);
  // CHECK-MESSAGES: :[[@LINE-1]]:3: warning: 'MPI_Barrier' is skipped by ranks that leave early when 'RETRY_OR_THROW(peersWroteTheirBlocks(worldRan...' [ddp-rank-gated-barrier]
}
// LINT: assertion-macro-throw.cpp:53:3: warning: ranks can issue different collective sequences [ddp-collective-order]
// LINT: 2 findings in 1 translation unit

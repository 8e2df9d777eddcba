// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A test a rank-dependent branch decided: on the side where `Participates`
// is false, `else if (IsPt2Pt && !Participates)` is true, so that side has no
// way past both loops, and the ranks that reach the `else if` all go the
// same way (Aluminum's benchmark: the ranks left out of a point-to-point pair
// still join every barrier). Twins, reported: the variable written between
// the two tests, its address handed to a function that may write it, and a
// later test of another condition.

#include <mpi.h>

template <int Kind> struct IsPt2Pt {
  static constexpr bool value = Kind == 1;
};

void run(int);

template <int Kind> void benchmark(int Iters) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  bool Participates = Rank < 2;
  if (!IsPt2Pt<Kind>::value || Participates) {
    for (int I = 0; I < Iters; ++I) {
      MPI_Barrier(MPI_COMM_WORLD);
      run(I);
    }
  } else if (IsPt2Pt<Kind>::value && !Participates) {
    for (int I = 0; I < Iters; ++I)
      MPI_Barrier(MPI_COMM_WORLD);
  }
}

void sameTestAgain() {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  bool Root = Rank == 0;
  if (Root) {
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!Root) {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

void writtenBetween(bool Reset) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  bool Root = Rank == 0;
  if (Root) {
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    Root = Reset;
    if (!Root)
      MPI_Barrier(MPI_COMM_WORLD);
  }
  // CHECK-MESSAGES: :[[@LINE-6]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'Root' [ddp-rank-gated-barrier]
  // LINT: :[[@LINE-8]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
}

void mayWrite(bool *);

void addressTaken() {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  bool Root = Rank == 0;
  mayWrite(&Root);
  if (Root) {
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (!Root) {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  // The first test's side runs what the else-if's does: the difference
  // (neither side, if mayWrite changed Root) is reported once, there.
  // CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Barrier' is reached only by ranks where '!Root' [ddp-rank-gated-barrier]
  // LINT-DAG: :[[@LINE-6]]:14: warning: ranks can issue different collective sequences [ddp-collective-order]
}

void otherTest(bool Verbose) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  bool Root = Rank == 0;
  if (Root) {
    MPI_Barrier(MPI_COMM_WORLD);
  } else if (Verbose) {
    MPI_Barrier(MPI_COMM_WORLD);
  }
  // CHECK-MESSAGES: :[[@LINE-4]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'Root' [ddp-rank-gated-barrier]
  // LINT: :[[@LINE-6]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  benchmark<0>(3);
  benchmark<1>(3);
  sameTestAgain();
  writtenBetween(argc > 1);
  addressTaken();
  otherTest(argc > 2);
  MPI_Finalize();
}

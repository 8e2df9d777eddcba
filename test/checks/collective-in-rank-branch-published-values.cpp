// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// Rank 0 reads the input and broadcasts it; the other ranks set the same
// variables from what they received (intel/mpi-benchmarks' IMB_basic_input).
// Both sides begin with the same broadcast from the root, so what the other
// side sets from the received data is what the root holds: the same on
// every rank after the branch. Twins, reported: the other side sets a
// constant (a role flag, not something received), the broadcast comes from
// another root, the other side sets it from its own rank.

#include <mpi.h>

struct Bench {
  const char *name;
};
int parseCount(int argc, char **argv);
struct Bench *buildFromNames(char **argv, int n);
struct Bench *buildFromIndices(const int *indices, int n);
void runOne(struct Bench *b);

int readInput(int argc, char **argv, struct Bench **list) {
  int rank, info[2], n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    n = parseCount(argc, argv);
    info[0] = n;
    info[1] = argc;
    MPI_Bcast(info, 2, MPI_INT, 0, MPI_COMM_WORLD);
    *list = buildFromNames(argv, n);
  } else {
    MPI_Bcast(info, 2, MPI_INT, 0, MPI_COMM_WORLD);
    n = info[0];
    *list = buildFromIndices(info, n);
  }
  return n;
}

void runAll(int argc, char **argv) {
  struct Bench *list;
  int n = readInput(argc, argv, &list);
  for (int i = 0; i < n; i++) {
    runOne(&list[i]);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (list[0].name)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Both sides leave early when the root found the input bad, so the sides
// meet before the function's end, where the list is used.
int readChecked(int argc, char **argv, struct Bench **list) {
  int rank, info[2], ok;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    ok = parseCount(argc, argv);
    info[0] = ok;
    MPI_Bcast(info, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok < 0)
      return ok;
    *list = buildFromNames(argv, ok);
  } else {
    MPI_Bcast(info, 2, MPI_INT, 0, MPI_COMM_WORLD);
    ok = info[0];
    if (ok < 0)
      return ok;
    *list = buildFromIndices(info, ok);
  }
  if ((*list)[0].name)
    MPI_Barrier(MPI_COMM_WORLD);
  return 0;
}

void runChecked(int argc, char **argv) {
  struct Bench *list;
  if (readChecked(argc, argv, &list) < 0)
    return;
  if (list[0].name)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Each side leaves early alike when the root found the input bad: the
// result does not tell the root from the others.
int readStatus(int argc, char **argv) {
  int rank, info[1], ok;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    ok = argc < 2 ? -1 : 0;
    info[0] = ok;
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok < 0)
      return ok;
  } else {
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    ok = info[0];
    if (ok < 0)
      return ok;
  }
  return 0;
}

void runIfValid(int argc, char **argv) {
  if (readStatus(argc, argv) < 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return;
  }
  int one = 1;
  MPI_Allreduce(MPI_IN_PLACE, &one, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}

// Twin: only the root leaves early; the others return 0 and wait.
int readStatusOnRoot(int argc, char **argv) {
  int rank, info[1], ok;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    ok = argc < 2 ? -1 : 0;
    info[0] = ok;
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok < 0)
      return ok;
  } else {
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    ok = info[0];
  }
  return 0;
}

void runIfValidOnRoot(int argc, char **argv) {
  if (readStatusOnRoot(argc, argv) < 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return;
  }
  int one = 1;
  MPI_Allreduce(MPI_IN_PLACE, &one, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-7]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'readStatusOnRoot(argc, argv) < 0' [ddp-rank-gated-barrier]
// CHECK-MESSAGES: :[[@LINE-7]]:5: warning: 'MPI_Finalize' is reached only by ranks where 'readStatusOnRoot(argc, argv) < 0' [ddp-collective-in-rank-branch]
// LINT: published-values.cpp:[[@LINE-10]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: a role flag, a constant on each side.
int readRole(int argc) {
  int rank, info[1], isRoot;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    info[0] = argc;
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    isRoot = 1;
  } else {
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    isRoot = 0;
  }
  return isRoot;
}

void syncOnRoot(int argc) {
  if (readRole(argc))
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'readRole(argc)' [ddp-rank-gated-barrier]
// LINT: published-values.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: rank 0's side receives from rank 1; nothing says what rank 0 sent.
int readFromOther(int argc, char **argv) {
  int rank, info[1], n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    n = parseCount(argc, argv);
    MPI_Bcast(info, 1, MPI_INT, 1, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(info, 1, MPI_INT, 1, MPI_COMM_WORLD);
    n = info[0];
  }
  return n;
}

void loopOverOther(int argc, char **argv) {
  int n = readFromOther(argc, argv);
  for (int i = 0; i < n; i++)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < n' depends on the rank [ddp-rank-gated-barrier]
// LINT: published-values.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]

// Twin: the other side sets it from its own rank.
int readOwn(int argc, char **argv) {
  int rank, info[1], n;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    n = parseCount(argc, argv);
    info[0] = n;
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(info, 1, MPI_INT, 0, MPI_COMM_WORLD);
    n = info[0] + rank;
  }
  return n;
}

void loopOverOwn(int argc, char **argv) {
  int n = readOwn(argc, argv);
  for (int i = 0; i < n; i++)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < n' depends on the rank [ddp-rank-gated-barrier]
// LINT: published-values.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]

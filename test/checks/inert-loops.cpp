// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A loop none of whose iterations issues a collective only ever leaves: its
// sides are compared on what follows it. Rank 0 reads the input (a loop over
// a file, whose test is rank-local data) and broadcasts it; the others
// receive it and fill the list in a loop of their own
// (intel/mpi-benchmarks' IMB_basic_input). Twins, reported: a loop on one
// side issues a broadcast per element, and one that issues a barrier per
// line of the root's file.

#include <mpi.h>
#include <stdio.h>

void buildDefault(int **list);
void buildOne(int *slot, int index);
int countLines(const char *path);

static void fillOne(int *slot, int index) { *slot = index; }

int basicInput(const char *path, int deflt, int **list) {
  int rank, info[2], n = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    FILE *file = fopen(path, "r");
    char line[64];
    if (file) {
      while (fgets(line, 64, file))
        if (line[0] != '#')
          n++;
      fclose(file);
    }
    info[0] = n;
    info[1] = deflt;
    MPI_Bcast(info, 2, MPI_INT, 0, MPI_COMM_WORLD);
    if (n > 0 && !deflt)
      MPI_Bcast(*list, n, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(info, 2, MPI_INT, 0, MPI_COMM_WORLD);
    n = info[0];
    deflt = info[1];
    if (deflt) {
      buildDefault(list);
    } else if (n > 0) {
      MPI_Bcast(*list, n, MPI_INT, 0, MPI_COMM_WORLD);
      for (int i = 0; i < n; i++)
        buildOne(&(*list)[i], i);
      for (int i = 0; i < n; i++)
        fillOne(&(*list)[i], i);
    }
  }
  return n;
}

// Twin: the others broadcast once per element, the root once.
int perElement(int n, int *list) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Bcast(list, n, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    for (int i = 0; i < n; i++)
      MPI_Bcast(&list[i], 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  return n;
}
// CHECK-MESSAGES: :[[@LINE-7]]:5: warning: 'MPI_Bcast' is reached only by ranks where 'rank == 0' [ddp-collective-in-rank-branch]
// LINT: inert-loops.cpp:[[@LINE-9]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: the root synchronises once per line of its own file.
void perLine(const char *path) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    FILE *file = fopen(path, "r");
    char line[64];
    while (file && fgets(line, 64, file))
      MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-4]]:7: warning: 'MPI_Barrier' is reached only by ranks where 'rank == 0' [ddp-rank-gated-barrier]
// LINT: inert-loops.cpp:[[@LINE-9]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

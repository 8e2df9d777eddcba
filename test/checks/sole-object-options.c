// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c11 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c11 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// mdtest's shape: one static options struct, reset at the start of a run,
// filled from the command line, and later rewritten by the ranks whose own
// count fell short. What the run computes from the options before that
// rewrite is the same on every rank; what it reads after it is not. The
// struct is the only object of its type, so `o.items = v` replaces what
// o.items held, and a function's summary says what it leaves in it.

#include <mpi.h>
#include <stdlib.h>
#include <time.h>

typedef struct {
  long items;
  long perDir;
  int loops;
  int loopsAgain;
  int loopsAfter;
  int loopsMaybe;
  int seed;
} options_t;

static options_t o;
static int rank;

static void initArgs(void) { o = (options_t){.perDir = 1}; }

// This rank's own count.
static long localWork(void) { return time(NULL) % 7 + rank; }

// The stonewall catch-up: a rank whose count differs takes its own.
static void createItems(void) {
  long done = localWork();
  if (done != o.items)
    o.items = done;
}

static void maybeReset(int c) {
  if (c)
    o.items = 0;
}

static void phase(void) {
  for (int i = 0; i < o.loops; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}

static void useSeed(void) {
  if (o.seed % 2)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'o.seed % 2' [ddp-rank-gated-barrier]
// LINT: sole-object-options.c:[[@LINE-3]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]
}

// Silent: the loop count and the seed test read the options as the reset
// and the command line left them, before any rank rewrote o.items.
void run(int argc, char **argv) {
  initArgs();
  if (argc > 1)
    o.items = atol(argv[1]);
  o.loops = o.items / o.perDir;
  if (o.seed == 0) {
    if (rank == 0)
      o.seed = time(NULL);
    MPI_Bcast(&o.seed, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  o.seed += rank;
  useSeed();
  for (int it = 0; it < 3; ++it) {
    createItems();
    phase();
  }
}

// Twin: no reset, so o.items may hold what createItems left.
static void phaseAgain(void) {
  for (int i = 0; i < o.loopsAgain; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < o.loopsAgain' depends on data local to each rank [ddp-rank-gated-barrier]
// LINT: sole-object-options.c:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

void runAgain(void) {
  o.loopsAgain = o.items / o.perDir;
  phaseAgain();
}

// Twin: reset, then rewritten by the ranks before it is read.
static void phaseAfter(void) {
  for (int i = 0; i < o.loopsAfter; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < o.loopsAfter' depends on data local to each rank [ddp-rank-gated-barrier]
// LINT: sole-object-options.c:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

void runAfter(void) {
  initArgs();
  createItems();
  o.loopsAfter = o.items / o.perDir;
  phaseAfter();
}

// Twin: a callee that may leave o.items as createItems left it.
static void phaseMaybe(void) {
  for (int i = 0; i < o.loopsMaybe; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < o.loopsMaybe' depends on data local to each rank [ddp-rank-gated-barrier]
// LINT: sole-object-options.c:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

void runMaybe(int c) {
  initArgs();
  createItems();
  maybeReset(c);
  o.loopsMaybe = o.items / o.perDir;
  phaseMaybe();
}

// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c11 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c11 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// Rank 0 reads the parameters, then broadcasts the whole struct as bytes:
// every field then holds rank 0's value on every rank, as a field broadcast
// on its own does. Facts are kept per field, so the broadcast of the object
// has to reach its fields. Twins, reported: a struct of which only another
// field is broadcast, a field written again by the rank after the
// broadcast, and parameters rank 0 reads through a helper and never
// broadcasts (the helper's summary says which globals it writes).

#include <mpi.h>
#include <stdio.h>

typedef struct {
  int steps;
  int warmup;
  double scale;
} params_t;

static params_t p;
static int rank;

static void readParams(const char *path) {
  FILE *f = fopen(path, "r");
  if (fscanf(f, "%d %d", &p.steps, &p.warmup) != 2)
    p.steps = 0;
  fclose(f);
}

// Silent: the only params object, filled by rank 0 and broadcast whole.
void globalParams(const char *path) {
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    p.steps = 10;
    readParams(path);
  }
  MPI_Bcast(&p, sizeof p, MPI_BYTE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < p.steps; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}

typedef struct {
  int steps;
  int warmup;
} run_t;

static void bcastRun(run_t *r) {
  MPI_Bcast(r, sizeof *r, MPI_BYTE, 0, MPI_COMM_WORLD);
}

// Silent: a local struct, broadcast whole, directly or through a helper.
void localParams(void) {
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  run_t q = {0, 0};
  if (me == 0)
    q.steps = 3;
  MPI_Bcast(&q, sizeof q, MPI_BYTE, 0, MPI_COMM_WORLD);
  for (int i = 0; i < q.steps; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  run_t h = {0, 0};
  if (me == 0)
    h.warmup = 2;
  bcastRun(&h);
  for (int i = 0; i < h.warmup; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
}

typedef struct {
  int steps;
  int warmup;
} job_t;

// Twin: only the warm-up count is broadcast.
void fieldOnly(void) {
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  job_t j = {0, 0};
  if (me == 0) {
    j.steps = 3;
    j.warmup = 1;
  }
  MPI_Bcast(&j.warmup, 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int i = 0; i < j.warmup; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
  for (int i = 0; i < j.steps; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < j.steps' depends on the rank [ddp-rank-gated-barrier]
// LINT: whole-struct-broadcast.c:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

typedef struct {
  int steps;
} shard_t;

// Twin: broadcast whole, then offset by the rank.
void offsetAfter(void) {
  int me;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  shard_t s = {0};
  if (me == 0)
    s.steps = 3;
  MPI_Bcast(&s, sizeof s, MPI_BYTE, 0, MPI_COMM_WORLD);
  s.steps += me;
  for (int i = 0; i < s.steps; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < s.steps' depends on the rank [ddp-rank-gated-barrier]
// LINT: whole-struct-broadcast.c:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

typedef struct {
  int steps;
  int warmup;
} config_t;

static config_t c;
static int epochs;

static void readConfig(const char *path) {
  FILE *f = fopen(path, "r");
  if (fscanf(f, "%d %d", &c.steps, &c.warmup) != 2)
    c.steps = 0;
  fclose(f);
}

static void setEpochs(void) { epochs = 5; }

// Twin: rank 0 reads the configuration and nobody broadcasts it.
void neverBroadcast(const char *path) {
  if (rank == 0) {
    readConfig(path);
    setEpochs();
  }
  for (int i = 0; i < c.steps; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < c.steps' depends on the rank [ddp-rank-gated-barrier]
// LINT-DAG: whole-struct-broadcast.c:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
// The note names the helper that writes it.
// LINT-DAG:   the loop condition depends on the rank: 'steps' is assigned by 'readConfig' under a rank-dependent condition at whole-struct-broadcast.c:[[@LINE-8]]:5
  for (int i = 0; i < epochs; ++i)
    MPI_Barrier(MPI_COMM_WORLD);
// CHECK-MESSAGES: :[[@LINE-1]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < epochs' depends on the rank [ddp-rank-gated-barrier]
// LINT-DAG: whole-struct-broadcast.c:[[@LINE-3]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]
}

static int registered;

static void registerOnce(void) {
  if (!registered)
    registered = 1;
}

// Silent: a lazy registration, which rank 0 runs again when it prints the
// list, builds what every rank built (mpi-benchmarks' suite registry).
void lazyRegistry(void) {
  registerOnce();
  if (rank == 0)
    registerOnce();
  if (registered)
    MPI_Barrier(MPI_COMM_WORLD);
}

// RUN: %check_ddp_tidy %s ddp-collective-in-rank-branch %t -- -- %mock_flags

// An allocation's result is a new address, not a value computed from its
// size: a block of a rank-dependent size is not rank-dependent, and neither
// is what a wrapper of malloc or calloc returns, at any of its calls. What
// the block holds can be. Each false positive has its true-positive twin.

#include <cstdlib>
#include <mpi.h>

// Wrappers of the C allocator, as libraries write them.
void *checkedAlloc(size_t size) {
  void *p = std::malloc(size);
  if (!p)
    std::abort();
  return p;
}

void *zeroedAlloc(size_t count, size_t size) {
  return std::calloc(count, size);
}

void *grownAlloc(void *old, size_t size) { return std::realloc(old, size); }

struct Vector {
  int size;
  float *data;
};

// Rank-dependent sizes pass through the wrappers here...
float *localScratch() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return static_cast<float *>(checkedAlloc((rank + 1) * sizeof(float)));
}

int *localCounts() {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return static_cast<int *>(zeroedAlloc(rank + 1, sizeof(int)));
}

// ...and blocks allocated anywhere, or read through, stay uniform.
Vector *makeVector(int n) {
  Vector *v = static_cast<Vector *>(checkedAlloc(sizeof(Vector)));
  v->size = n;
  v->data = static_cast<float *>(zeroedAlloc(n, sizeof(float)));
  return v;
}

void sumVector(Vector *v) {
  if (v->data != nullptr && v->size > 0)
    MPI_Allreduce(v->data, v->data, v->size, MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
}

void reduceNewVector(int n) {
  Vector *v = makeVector(n);
  sumVector(v);
}

void scratchThenReduce(float *in, float *out, int n) {
  float *scratch = localScratch();
  if (scratch == nullptr)
    return;
  MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  std::free(scratch);
}

void newBlockThenReduce(float *in, float *out, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  float *halo = new float[rank + 2];
  float *grown = static_cast<float *>(std::realloc(nullptr, rank + 1));
  if (halo && grown)
    MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  delete[] halo;
  std::free(grown);
}

// Twin: what the block holds is rank-dependent.
void countsThenReduce(float *in, float *out, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int *counts = static_cast<int *>(zeroedAlloc(4, sizeof(int)));
  counts[0] = rank;
  if (counts[0] > 0)
    MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  std::free(counts);
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'counts[0] > 0' [ddp-collective-in-rank-branch]

// Twin: realloc keeps what the old block held.
void grownThenReduce(float *in, float *out, int n) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int *ids = static_cast<int *>(std::malloc(sizeof(int)));
  ids[0] = rank;
  ids = static_cast<int *>(grownAlloc(ids, 2 * sizeof(int)));
  if (ids[0] == 0)
    MPI_Allreduce(in, out, n, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  std::free(ids);
}
// CHECK-MESSAGES: :[[@LINE-3]]:5: warning: 'MPI_Allreduce' is reached only by ranks where 'ids[0] == 0' [ddp-collective-in-rank-branch]

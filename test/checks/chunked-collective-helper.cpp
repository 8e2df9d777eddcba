// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// MPI counts are ints, so a helper that broadcasts any size_t count sends
// the buffer in chunks of at most INT_MAX elements, each at
// `(char *)buf + offset * typeSize` (marian's MPIWrapper::bCast). Every
// iteration of a loop that runs alike on every rank broadcasts the next
// chunk, so the helper leaves its buffer the same on every rank, as one
// MPI_Bcast would: a count rank 0 computed and broadcast through it bounds
// a loop of collectives that every rank runs alike. The same holds for the
// loop written out where the buffer is used. Twins, reported: a helper that
// sends the chunks point to point (only the receiver learns the count), one
// whose chunk loop runs only on the root, and a loop that broadcasts a chunk
// only under a further condition.

#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <mpi.h>
#include <vector>

static int rank;

static int check(int Status) { return Status; }

void bcastChunked(void *buf, size_t count, MPI_Datatype type, int root,
                  MPI_Comm comm) {
  int typeSize;
  MPI_Type_size(type, &typeSize);
  size_t remaining = count, offset = 0;
  while (remaining > 0) {
    int n = (int)std::min(remaining, (size_t)INT_MAX);
    check(MPI_Bcast((char *)buf + offset * (size_t)typeSize, n, type, root,
                    comm));
    offset += (size_t)n;
    remaining -= (size_t)n;
  }
}

void bcastItems(std::vector<double> &items, MPI_Comm comm) {
  unsigned long long numItems = 0;
  if (rank == 0)
    numItems = items.size();
  bcastChunked(&numItems, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  items.resize(numItems);
  for (auto &item : items)
    bcastChunked(&item, 1, MPI_DOUBLE, 0, comm);
}

void sendChunked(void *buf, size_t count, MPI_Datatype type, int dest,
                 MPI_Comm comm) {
  size_t remaining = count, offset = 0;
  while (remaining > 0) {
    int n = (int)std::min(remaining, (size_t)INT_MAX);
    MPI_Send((char *)buf + offset, n, type, dest, 0, comm);
    offset += (size_t)n;
    remaining -= (size_t)n;
  }
}

// Only rank 1 would receive the count: the others loop over their own.
void sendItems(std::vector<double> &items, MPI_Comm comm) {
  unsigned long long numItems = 0;
  if (rank == 0)
    numItems = items.size();
  sendChunked(&numItems, 1, MPI_UNSIGNED_LONG_LONG, 1, comm);
  for (unsigned long long i = 0; i < numItems; ++i)
    MPI_Barrier(comm);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < numItems' depends on the rank [ddp-rank-gated-barrier]
// LINT: chunked-collective-helper.cpp:[[@LINE-4]]:34: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]

// The chunks are broadcast only while the root has some left: the other
// ranks start with none and never join.
void bcastFromRootOnly(void *buf, size_t count, MPI_Datatype type, int root,
                       MPI_Comm comm) {
  size_t remaining = rank == root ? count : 0, offset = 0;
  while (remaining > 0) {
    int n = (int)std::min(remaining, (size_t)INT_MAX);
    MPI_Bcast((char *)buf + offset, n, type, root, comm);
    offset += (size_t)n;
    remaining -= (size_t)n;
  }
}
// CHECK-MESSAGES: :[[@LINE-5]]:5: warning: 'MPI_Bcast' is called a rank-dependent number of times: the loop condition 'remaining > 0' depends on the rank [ddp-collective-in-rank-branch]
// LINT: chunked-collective-helper.cpp:[[@LINE-8]]:10: warning: the number of 'MPI_Bcast' calls depends on the rank [ddp-rank-dependent-loop]

void bcastItemsFromRoot(std::vector<double> &items, MPI_Comm comm) {
  unsigned long long numItems = 0;
  if (rank == 0)
    numItems = items.size();
  bcastFromRootOnly(&numItems, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  for (unsigned long long i = 0; i < numItems; ++i)
    MPI_Barrier(comm);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < numItems' depends on the rank [ddp-rank-gated-barrier]
// LINT: chunked-collective-helper.cpp:[[@LINE-4]]:34: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]

// Rank 0 reads the settings, every rank receives them in chunks, and the
// step count parsed from them is the same everywhere.
void runSettings(const char *path, MPI_Comm comm) {
  char text[64] = {0};
  if (rank == 0)
    if (FILE *f = fopen(path, "r")) {
      fread(text, 1, sizeof text - 1, f);
      fclose(f);
    }
  size_t remaining = sizeof text, offset = 0;
  while (remaining > 0) {
    int n = (int)std::min(remaining, (size_t)16);
    MPI_Bcast(text + offset, n, MPI_CHAR, 0, comm);
    offset += (size_t)n;
    remaining -= (size_t)n;
  }
  int steps = std::atoi(text);
  for (int i = 0; i < steps; ++i)
    MPI_Barrier(comm);
}

// Only the chunks after the first are sent: the first holds the count.
void runSettingsHead(const char *path, MPI_Comm comm) {
  char text[64] = {0};
  if (rank == 0)
    if (FILE *f = fopen(path, "r")) {
      fread(text, 1, sizeof text - 1, f);
      fclose(f);
    }
  size_t remaining = sizeof text, offset = 0;
  while (remaining > 0) {
    int n = (int)std::min(remaining, (size_t)16);
    if (offset > 0)
      MPI_Bcast(text + offset, n, MPI_CHAR, 0, comm);
    offset += (size_t)n;
    remaining -= (size_t)n;
  }
  int steps = std::atoi(text);
  for (int i = 0; i < steps; ++i)
    MPI_Barrier(comm);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is called a rank-dependent number of times: the loop condition 'i < steps' depends on the rank [ddp-rank-gated-barrier]
// LINT: chunked-collective-helper.cpp:[[@LINE-4]]:19: warning: the number of 'MPI_Barrier' calls depends on the rank [ddp-rank-dependent-loop]

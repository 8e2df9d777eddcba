// REQUIRES: mpi
// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- -std=c++17 %mpi_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- -std=c++17 %mpi_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// A call of a virtual method runs one of its overrides; one that leaves the
// buffer alone (a single-process stand-in) keeps what the caller passed.
// What the caller's vector held stays as it was, its length included: each
// rank fills its own element and the others are broadcast from their owners
// (marian's GraphGroup::syncParameters), so a loop over the vector's length
// is the same everywhere. Twin, reported: a vector that only rank 0 grows
// keeps a rank-dependent length through the same call.

#include <mpi.h>
#include <vector>

static int rank;

struct Comm {
  virtual ~Comm() = default;
  virtual void bcast(void *buf, int count, int root) const = 0;
};

struct MpiComm : Comm {
  void bcast(void *buf, int count, int root) const override {
    MPI_Bcast(buf, count, MPI_BYTE, root, MPI_COMM_WORLD);
  }
};

struct LocalComm : Comm {
  void bcast(void *, int, int) const override {}
};

void checkHashes(const Comm &comm, int size) {
  std::vector<long> hashes(size, 0);
  for (int i = 0; i < size; ++i)
    if (i == rank)
      hashes[i] = 1234;
  for (size_t i = 0; i < hashes.size(); ++i)
    comm.bcast(&hashes[i], sizeof(long), (int)i);
}

void collectOnRoot(const Comm &comm) {
  std::vector<long> items;
  if (rank == 0)
    items.push_back(1);
  for (size_t i = 0; i < items.size(); ++i)
    comm.bcast(&items[i], sizeof(long), 0);
}
// CHECK-MESSAGES: :[[@LINE-2]]:10: warning: 'MPI_Bcast' in 'bcast' is called a rank-dependent number of times: the loop condition 'i < items.size()' depends on the rank [ddp-collective-in-rank-branch]
// LINT: left-alone-argument.cpp:[[@LINE-4]]:22: warning: the number of 'MPI_Bcast' calls depends on the rank [ddp-rank-dependent-loop]

// RUN: %check_ddp_tidy %s 'ddp-*' %t -- -- %mock_flags
// RUN: %expect_exit 1 %ddp_lint --no-cache --source-root %S %s -- %mock_flags > %t.lint.txt
// RUN: FileCheck %s --check-prefix=LINT --input-file=%t.lint.txt --implicit-check-not=warning:

// Synchronisation behind a virtual interface (horovod's Controller:
// `controller->CrossRankBitwiseAnd(bitvector_, count)`, an MPI and a Gloo
// implementation). A call of a pure method runs one of its overrides: what
// they all leave the same on every rank is so after the call. A container's
// elements are synchronised through its storage (`bits.data()`). Twins,
// reported: an override that does not synchronise (a local fallback), and a
// collective on a copy of the container.

#include <mpi.h>
#include <vector>

class Controller {
public:
  virtual ~Controller();
  // Every bit, the minimum over the ranks.
  virtual void crossRankAnd(std::vector<int> &Bits) = 0;
};

class MpiController : public Controller {
public:
  void crossRankAnd(std::vector<int> &Bits) override {
    MPI_Allreduce(MPI_IN_PLACE, Bits.data(), (int)Bits.size(), MPI_INT,
                  MPI_MIN, MPI_COMM_WORLD);
  }
};

class RootController : public Controller {
public:
  void crossRankAnd(std::vector<int> &Bits) override {
    MPI_Reduce(MPI_IN_PLACE, Bits.data(), (int)Bits.size(), MPI_INT,
               MPI_MIN, 0, MPI_COMM_WORLD);
    MPI_Bcast(Bits.data(), (int)Bits.size(), MPI_INT, 0, MPI_COMM_WORLD);
  }
};

bool locallyInvalid();

void coordinate(Controller *C, std::vector<int> &Bits) {
  Bits[0] = locallyInvalid() ? 0 : 1;
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Bits[1] = Rank;
  C->crossRankAnd(Bits);
  if (Bits[0] == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}

// The same, without the interface.
void coordinateDirect(std::vector<int> &Bits) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Bits[0] = Rank % 2;
  MPI_Allreduce(MPI_IN_PLACE, Bits.data(), (int)Bits.size(), MPI_INT,
                MPI_MIN, MPI_COMM_WORLD);
  if (Bits[0] == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}

// Twin: one implementation keeps this rank's bits.
class Cache {
public:
  virtual ~Cache();
  virtual void agree(std::vector<int> &Bits) = 0;
};

class MpiCache : public Cache {
public:
  void agree(std::vector<int> &Bits) override {
    MPI_Allreduce(MPI_IN_PLACE, Bits.data(), (int)Bits.size(), MPI_INT,
                  MPI_MIN, MPI_COMM_WORLD);
  }
};

class LocalCache : public Cache {
public:
  void agree(std::vector<int> &Bits) override {}
};

void refresh(Cache *C, std::vector<int> &Bits) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Bits[0] = Rank % 2;
  C->agree(Bits);
  if (Bits[0] == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'Bits[0] == 0' [ddp-rank-gated-barrier]
// LINT: virtual-sync-wrappers.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

// Twin: the collective synchronises a copy.
void coordinateCopy(std::vector<int> &Bits) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Bits[0] = Rank % 2;
  std::vector<int> Copy = Bits;
  MPI_Allreduce(MPI_IN_PLACE, Copy.data(), (int)Copy.size(), MPI_INT,
                MPI_MIN, MPI_COMM_WORLD);
  if (Bits[0] == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}
// CHECK-MESSAGES: :[[@LINE-2]]:5: warning: 'MPI_Barrier' is reached only by ranks where 'Bits[0] == 0' [ddp-rank-gated-barrier]
// LINT: virtual-sync-wrappers.cpp:[[@LINE-4]]:7: warning: ranks can issue different collective sequences [ddp-collective-order]

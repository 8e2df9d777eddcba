#include <mpi.h>

// The benchmark's communicator and this process's rank in it; -1 (and
// MPI_COMM_NULL) on the processes outside it.
struct pair_info {
  MPI_Comm communicator;
  int rank;
  int pair0;
  int pair1;
  MPI_Win win;
};

void setUp(struct pair_info *info, int members);

// Aborts the job when \p err is not MPI_SUCCESS (setup.cpp).
void checkError(int err);

// A process set in Horovod's style: the set's communicator, MPI_COMM_NULL
// outside the set, one split by the rank across the set, and a controller
// whose override (setup.cpp) runs its collectives on the set's.
struct SetContext {
  MPI_Comm comm;
  MPI_Comm crossComm;
  MPI_Comm getComm(bool cross) const;
};
struct SetController {
  SetContext *ctx;
  int *sizes;
  void initialize() { doInitialization(); }
  virtual void doInitialization() = 0;
};
struct MPISetController : SetController {
  void doInitialization() override;
};
void makeSet(SetContext *ctx, int members);

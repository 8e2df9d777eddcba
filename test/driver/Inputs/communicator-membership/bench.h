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

#include <mpi.h>
long shareOf(long total, int rank, int size);

// Another file passes this process's rank: the share is rank-dependent.
void own(long total, long *cached, MPI_Win win) {
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long mine = shareOf(total, rank, size);
  if (mine > *cached)
    MPI_Win_fence(0, win);
}

long sumShares(long total, int size);

// Not reported: every rank sums every rank's share.
void all(long total, long *cached, MPI_Win win) {
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (sumShares(total, size) > *cached)
    MPI_Win_fence(0, win);
}

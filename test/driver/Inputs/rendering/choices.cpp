#include <mpi.h>

// A loop that issues nothing, called on either side of a test of the
// command line: the choice between the two calls issues nothing either way.
void idle(int K) {
  for (int I = 0; I < K; ++I) {
  }
}

void setup(int Argc, int *N) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (Rank == 0) {
    MPI_Bcast(N, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (Argc > 2)
      idle(Argc);
    else
      idle(*N);
  }
}

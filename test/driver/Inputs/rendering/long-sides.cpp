#include <mpi.h>

// The options are the same on every rank: each step is taken by all or none.
struct Options {
  bool Sum, Share, Sync, Collect, Gather, Wait;
};

void exchange(const Options &O, int *V, int *All) {
  if (O.Sum)
    MPI_Allreduce(MPI_IN_PLACE, V, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (O.Share)
    MPI_Bcast(V, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (O.Sync)
    MPI_Barrier(MPI_COMM_WORLD);
  if (O.Collect)
    MPI_Reduce(V, All, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (O.Gather)
    MPI_Allgather(V, 1, MPI_INT, All, 1, MPI_INT, MPI_COMM_WORLD);
  if (O.Wait)
    MPI_Barrier(MPI_COMM_WORLD);
}

void step(const Options &O, int *V, int *All) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (Rank == 0)
    exchange(O, V, All);
}

void settle(int *V) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (Rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(V, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(V, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(V, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(V, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
}

// Short enough to read whole.
void greet(int *V) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  if (Rank == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(V, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
}

#include "controller.h"

// Every override of crossRankAnd leaves Bits the same on every rank.
void coordinate(Controller *C, std::vector<int> &Bits) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Bits[0] = Rank % 2;
  C->crossRankAnd(Bits);
  if (Bits[0] == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}

// LocalCache::agree leaves this rank's bits.
void refresh(Cache *C, std::vector<int> &Bits) {
  int Rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &Rank);
  Bits[0] = Rank % 2;
  C->agree(Bits);
  if (Bits[0] == 0)
    MPI_Barrier(MPI_COMM_WORLD);
}
